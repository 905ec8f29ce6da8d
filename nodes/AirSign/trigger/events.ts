import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { inputError } from '../errors/nodeError';
import { utcIsoFromMs } from '../helpers/dates';
import { optionalText } from '../helpers/sessionMatch';
import type { KnownState, TriggerState } from './state';
import { sortedRecipients } from './state';
import type { TriggerEvent } from './eventOptions';
import { TRIGGER_EVENTS } from './eventOptions';

/** States from which a session can still change. */
export const IN_FLIGHT_STATUSES = ['draft', 'pending', 'inProgress'];
/** States that only a sent session reaches. */
const SENT_STATUSES = ['pending', 'inProgress', 'completed', 'expired'];
const FINAL_EVENTS: Record<string, TriggerEvent> = {
	completed: 'sessionCompleted',
	cancelled: 'sessionCancelled',
	expired: 'sessionExpired',
};

/**
 * How far back from the cursor a timestamp still proves a change the trigger cannot have
 * processed: an older completion, expiry or creation of a session it does not know was seen and
 * forgotten (final states are remembered longer than this, {@link FINAL_MEMORY_MS}).
 */
const PROOF_WINDOW_MS = 24 * 3_600_000;
/** How long a session in a final state is remembered after it was seen. */
const FINAL_MEMORY_MS = PROOF_WINDOW_MS + 3_600_000;

/** What the trigger listens for, and which items it keeps. */
export interface EventSettings {
	/** In the order the user chose them. */
	events: TriggerEvent[];
	statuses?: string[];
	recipientStatuses?: string[];
}

export function readEventSettings(
	ctx: IPollFunctions,
	statuses: string | undefined,
): EventSettings {
	const events = [ctx.getNodeParameter('events', [])].flat().map(String);
	const unknown = events.find((event) => !(TRIGGER_EVENTS as readonly string[]).includes(event));
	if (events.length === 0 || unknown !== undefined) {
		const problem = unknown === undefined ? 'is empty' : `has an unknown value: ${unknown}`;
		throw inputError(ctx.getNode(), `'Events' ${problem}: choose at least one event`, {
			description: `The events are ${TRIGGER_EVENTS.join(', ')}.`,
		});
	}
	const filters = ctx.getNodeParameter('filters', {}) as IDataObject;
	const recipientStatuses = (optionalText(filters.recipientStatus) ?? '')
		.split(',')
		.map((status) => status.trim())
		.filter(Boolean);
	return {
		events: events as TriggerEvent[],
		statuses: statuses?.split(','),
		recipientStatuses: recipientStatuses.length ? recipientStatuses : undefined,
	};
}

/** The state to remember of a session. */
export function knownStateOf(session: IDataObject, seenAt: number): KnownState {
	const recipients = sortedRecipients(session).map(statusOf);
	return { status: String(session.status), recipients, seenAt: utcIsoFromMs(seenAt) };
}

/** A recipient's status; null when AirSign gives none. */
export const statusOf = (r: IDataObject) =>
	r.status === undefined || r.status === null ? null : String(r.status);

/**
 * The items of the sessions read, oldest first: each state is compared with its session's known
 * state, then becomes it (in `next`). A final state is kept for a day and an hour, long enough
 * that it proves nothing again.
 */
export function eventsOf(
	sessions: IDataObject[],
	cursor: string,
	next: TriggerState,
	settings: EventSettings,
): IDataObject[] {
	const floor = Math.max(Date.parse(next.start!), Date.parse(cursor) - PROOF_WINDOW_MS);
	const seenAt = Date.parse(next.cursor);
	const known = { ...next.known };
	const items = sessions.flatMap((session) => {
		const id = String(session.sessionId).toLowerCase();
		const derived = eventItems(session, known[id], floor, settings);
		known[id] = knownStateOf(session, Math.max(seenAt, Date.parse(String(session.updatedAt))));
		return derived;
	});
	for (const [id, entry] of Object.entries(known))
		if (entry.status in FINAL_EVENTS && seenAt - Date.parse(entry.seenAt) > FINAL_MEMORY_MS)
			delete known[id];
	next.known = known;
	return items;
}

/** An event one state proves; a recipient's change names the recipient. */
type Proven = { event: TriggerEvent; recipient?: IDataObject };

/**
 * The items one state gives, compared with the state known before it. Several transitions
 * between two polls collapse into one comparison, and each event it proves comes once
 * (draft → cancelled gives only Session Cancelled: nothing shows that it was sent). Timestamps
 * before `floor` prove nothing.
 */
function eventItems(
	session: IDataObject,
	known: KnownState | undefined,
	floor: number,
	{ events: chosen, statuses, recipientStatuses }: EventSettings,
): IDataObject[] {
	const status = String(session.status);
	// Status filters by the new state of the session, Recipient Status the recipients' items.
	if (statuses && !statuses.includes(status)) return [];
	const finalEvent = FINAL_EVENTS[status];
	const events: Proven[] = [];
	if (known) {
		if (known.status === 'draft' && SENT_STATUSES.includes(status))
			events.push({ event: 'sessionSent' });
		events.push(...recipientChanges(session, known));
		if (finalEvent && known.status !== status) events.push({ event: finalEvent });
	} else if (Date.parse(String(session.createdAt)) >= floor) {
		// New since the start: its recipients start as first seen (no signer is invented).
		events.push({ event: 'sessionCreated' });
		if (SENT_STATUSES.includes(status)) events.push({ event: 'sessionSent' });
		if (finalEvent) events.push({ event: finalEvent });
	} else if (finalEvent === 'sessionCompleted' || finalEvent === 'sessionExpired') {
		// From before the start and not in flight then: only what its own timestamps prove.
		const proof = status === 'completed' ? session.completedDate : session.expiryDate;
		if (Date.parse(String(proof)) >= floor) events.push({ event: finalEvent });
	}
	events.push({ event: 'anyChange' });
	const wanted = ({ event, recipient }: Proven) =>
		chosen.includes(event) &&
		(!recipient || !recipientStatuses || recipientStatuses.includes(String(recipient.status)));
	return events.filter(wanted).map(({ event, recipient }) => ({
		...session,
		event,
		previousStatus: known?.status ?? null,
		previousStatusSeenAt: known?.seenAt ?? null,
		...(recipient && { recipient }),
	}));
}

/**
 * One item per recipient whose status differs from the known state, in AirSign's order. When
 * the number of recipients changed (a draft edited), none is compared: no signer is invented.
 */
function recipientChanges(session: IDataObject, known: KnownState): Proven[] {
	const sorted = sortedRecipients(session);
	if (sorted.length !== known.recipients.length) return [];
	const now = sorted.map(statusOf);
	const was = known.recipients;
	return ((session.recipients as IDataObject[] | undefined) ?? [])
		.map((recipient) => sorted.indexOf(recipient))
		.filter((index) => now[index] !== null && was[index] !== null && now[index] !== was[index])
		.map((index) => ({
			event: 'recipientStatusChanged' as const,
			recipient: { ...sorted[index], previousStatus: was[index], status: now[index] },
		}));
}
