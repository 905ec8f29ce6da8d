import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { RECIPIENT_SIGNED_STATUSES } from '../helpers/constants';
import { PageReader } from '../transport/keysetPages';
import type { SessionsQuery } from '../transport/sessionPages';
import type { TriggerEvent } from './eventOptions';
import type { EventSettings } from './events';
import { POLL_RETRIES } from './deadline';
import { statusOf } from './events';

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

/**
 * "Fetch Test Event": for each chosen event, in the order chosen, one real session shaped as that
 * event would deliver it, or none when no session shows it. A sample has no previous state. One
 * List Sessions request per event; nothing moves.
 */
export async function fetchSample(
	ctx: IPollFunctions,
	filters: SessionsQuery,
	settings: EventSettings,
): Promise<IDataObject[]> {
	// A user's click: it does not keep the reserve, and nothing of the budget is remembered.
	const reader = new PageReader(ctx, { ...POLL_RETRIES, maxRequests: settings.events.length });
	const samples: IDataObject[] = [];
	for (const event of settings.events) {
		const sample = await sampleOf(reader, filters, settings, event);
		if (sample) samples.push(sample);
	}
	return samples;
}

/** The newest session that shows `event`, shaped as that event's items. */
async function sampleOf(
	reader: PageReader,
	filters: SessionsQuery,
	{ statuses: chosen, recipientStatuses }: EventSettings,
	event: TriggerEvent,
): Promise<IDataObject | undefined> {
	const { status, sortBy = 'updatedAt' } = SAMPLE_QUERIES[event];
	// The Status filter narrows the event's own statuses (or stands in for them).
	const own = status?.split(',');
	const narrowed = own && chosen ? own.filter((s) => chosen.includes(s)) : (own ?? chosen);
	const query: SessionsQuery = {
		...filters,
		status: (narrowed?.length ? narrowed : own)?.join(','),
		sortBy,
		sortOrder: 'desc',
	};
	const [session] = (await reader.page(query, 0, 1)).sessions;
	if (!session) return undefined;
	const base = { ...session, event, previousStatus: null, previousStatusSeenAt: null };
	if (event !== 'recipientStatusChanged') return base;
	const recipients = Array.isArray(session.recipients) ? (session.recipients as IDataObject[]) : [];
	const recipient =
		recipients.find((r) => recipientStatuses?.includes(statusOf(r) ?? '')) ??
		recipients.find((r) => RECIPIENT_SIGNED_STATUSES.includes(statusOf(r) ?? '')) ??
		recipients[0];
	// Without a recipient the session cannot show this event's items.
	return recipient
		? { ...base, recipient: { ...recipient, previousStatus: null, status: recipient.status } }
		: undefined;
}
