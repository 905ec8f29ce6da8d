import type { IDataObject } from 'n8n-workflow';

import type { KnownState } from './knownStates';
import { recipientStatuses, sortedRecipients } from './knownStates';

/** The events of the AirSign Trigger (node version 2), in the order one state gives them. */
export const TRIGGER_EVENTS = [
	'sessionCreated',
	'sessionSent',
	'recipientStatusChanged',
	'sessionCompleted',
	'sessionCancelled',
	'sessionExpired',
	'anyChange',
] as const;

export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];

/** Session states from which the session can still change (a draft, or sent and not finished). */
export const IN_FLIGHT_STATUSES = ['draft', 'pending', 'inProgress'];
/** States that only a sent session reaches. */
const SENT_STATUSES = new Set(['pending', 'inProgress', 'completed', 'expired']);
/** The final states, each with its event. */
const FINAL_EVENTS: Record<string, TriggerEvent> = {
	completed: 'sessionCompleted',
	cancelled: 'sessionCancelled',
	expired: 'sessionExpired',
};

export function isFinalStatus(status: string): boolean {
	return status in FINAL_EVENTS;
}

/**
 * What the trigger knew of a session before the state it now processes:
 * - `known`: its last state (a diff says exactly what changed);
 * - `new`: nothing, because the session was created after the start;
 * - `unknown`: nothing, although it existed at the start (changed before the starting picture
 *   reached it, or did not match the filters then, or left the memory in a final state).
 */
export type Previous = { kind: 'known'; state: KnownState } | { kind: 'new' } | { kind: 'unknown' };

export interface DerivedEvent {
	event: TriggerEvent;
	/** For recipientStatusChanged: the recipient as listed, with its previous status. */
	recipient?: IDataObject & { previousStatus: string | null };
}

/**
 * Where the trigger stands when it processes a state: its start, and the earliest instant from
 * which a timestamp still proves a change the trigger cannot have processed already (see
 * {@link previousOf}).
 */
export interface DiffContext {
	start: number;
	proofFloor: number;
}

/**
 * How the trigger classifies a session it does not know. Created at or after the start (and
 * recently enough that it cannot have been seen and forgotten since, see proofFloor): new.
 * Otherwise: unknown.
 */
export function previousOf(
	session: IDataObject,
	known: KnownState | undefined,
	context: DiffContext,
): Previous {
	if (known) return { kind: 'known', state: known };
	const createdAt = Date.parse(String(session.createdAt));
	return !Number.isNaN(createdAt) && createdAt >= context.start && createdAt >= context.proofFloor
		? { kind: 'new' }
		: { kind: 'unknown' };
}

/**
 * The events one delivered state gives, each once, against what the trigger knew before it.
 * Several transitions between two polls collapse into one diff: each event they prove is given
 * once (draft → completed gives Session Sent and Session Completed; draft → cancelled gives only
 * Session Cancelled, as nothing shows that it was sent).
 */
export function deriveEvents(
	session: IDataObject,
	previous: Previous,
	context: DiffContext,
): DerivedEvent[] {
	const status = String(session.status);
	const finalEvent = FINAL_EVENTS[status];
	const events: DerivedEvent[] = [];

	if (previous.kind === 'new') {
		events.push({ event: 'sessionCreated' });
		if (SENT_STATUSES.has(status)) events.push({ event: 'sessionSent' });
		// A new session's recipients start unknown: none is said to have signed (see docs/trigger.md).
		if (finalEvent) events.push({ event: finalEvent });
	} else if (previous.kind === 'known') {
		const before = previous.state;
		if (before.status === 'draft' && SENT_STATUSES.has(status))
			events.push({ event: 'sessionSent' });
		events.push(...recipientChanges(session, before));
		if (finalEvent && before.status !== status) events.push({ event: finalEvent });
	} else if (finalEvent === 'sessionCompleted' || finalEvent === 'sessionExpired') {
		// Unknown before: only what the session's own timestamps prove happened since the start.
		const proof = Date.parse(
			String(finalEvent === 'sessionCompleted' ? session.completedDate : session.expiryDate),
		);
		if (!Number.isNaN(proof) && proof >= context.start && proof >= context.proofFloor)
			events.push({ event: finalEvent });
	}
	events.push({ event: 'anyChange' });
	return events;
}

/**
 * One event per recipient whose status differs from the known state. Recipients are matched by
 * their order of recipientId; when the number of recipients changed, they are not compared (a
 * list edited in a draft), so that no signer is invented.
 */
function recipientChanges(session: IDataObject, before: KnownState): DerivedEvent[] {
	const sorted = sortedRecipients(session);
	if (sorted.length !== before.recipients.length) return [];
	const now = recipientStatuses(session);
	const changes: DerivedEvent[] = [];
	// Items in the order AirSign lists the recipients (signing order).
	for (const recipient of Array.isArray(session.recipients)
		? (session.recipients as IDataObject[])
		: []) {
		const index = sorted.indexOf(recipient);
		const was = before.recipients[index];
		if (was === undefined || now[index] === undefined || was === now[index]) continue;
		changes.push({
			event: 'recipientStatusChanged',
			recipient: { ...recipient, previousStatus: was, status: now[index] },
		});
	}
	return changes;
}

/** The state to remember after processing a delivered state. */
export function knownStateOf(session: IDataObject, seenAt: number): KnownState {
	return { status: String(session.status), recipients: recipientStatuses(session), seenAt };
}
