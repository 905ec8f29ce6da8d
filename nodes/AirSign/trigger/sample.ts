import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { SessionsQuery } from '../transport/sessionPages';
import type { EventSettings, TriggerEvent } from './events';
import type { PageReader } from './pager';

/** What Fetch Test Event reads for an event: the newest session that shows it. */
const SAMPLE_QUERIES: Record<TriggerEvent, SessionsQuery> = {
	sessionCreated: { sortBy: 'createdAt' },
	sessionSent: { status: 'pending,inProgress' },
	recipientStatusChanged: { status: 'inProgress,completed' },
	sessionCompleted: { status: 'completed', sortBy: 'completedDate' },
	sessionCancelled: { status: 'cancelled' },
	sessionExpired: { status: 'expired' },
	anyChange: {},
};

/** Recipient statuses that say a signer signed (AirSign does not document its statuses). */
const SIGNED = ['completed', 'signed'];

/**
 * "Fetch Test Event": one real session shaped as the first chosen event would deliver it (version
 * 1: the most recently updated session). A sample has no previous state. One request; nothing
 * moves.
 */
export async function fetchSample(
	ctx: IPollFunctions,
	reader: PageReader,
	filters: SessionsQuery,
	settings: EventSettings | undefined,
): Promise<IDataObject[]> {
	const event = settings?.events[0] ?? 'anyChange';
	const { status, sortBy = 'updatedAt' } = SAMPLE_QUERIES[event];
	const query: SessionsQuery = { ...filters, sortBy, sortOrder: 'desc' };
	if (settings) {
		// The Status filter narrows the event's own statuses (or stands in for them).
		const own = status?.split(',');
		const chosen = settings.statuses;
		const narrowed = own && chosen ? own.filter((s) => chosen.includes(s)) : (own ?? chosen);
		query.status = (narrowed?.length ? narrowed : own)?.join(',');
	}
	const page = await reader.page(query, 0, 1);
	const session = page.sessions[0];
	if (!session || !settings) return session ? [session] : [];
	const base = { ...session, event, previousStatus: null, previousStatusSeenAt: null };
	if (event !== 'recipientStatusChanged') return [base];
	const recipients = Array.isArray(session.recipients) ? (session.recipients as IDataObject[]) : [];
	const statusOf = (r: IDataObject) => String(r.status);
	const recipient =
		recipients.find((r) => settings.recipientStatuses?.includes(statusOf(r))) ??
		recipients.find((r) => SIGNED.includes(statusOf(r))) ??
		recipients[0];
	return recipient
		? [{ ...base, recipient: { ...recipient, previousStatus: null, status: recipient.status } }]
		: [base];
}
