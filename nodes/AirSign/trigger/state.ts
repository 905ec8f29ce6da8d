import type { IDataObject } from 'n8n-workflow';

import { utcTimeOfDay } from '../helpers/dates';
import type { RateLimitState } from '../transport/answerHeaders';
import type { Position } from '../transport/keysetPages';

/** The last state of a session the trigger processed: what its next state is compared with. */
export interface KnownState {
	status: string;
	/** The recipients' statuses, in the order of their recipientId. */
	recipients: Array<string | null>;
	/** When the trigger saw this state, on AirSign's clock (ISO 8601). */
	seenAt: string;
}

/**
 * Everything a trigger keeps between polls, plain JSON in the static data, written in one write.
 * Invariant: every matching update before `cursor` was processed, or is older than the start.
 */
export interface TriggerState {
	/** ISO 8601 instant on AirSign's clock. */
	cursor: string;
	/** Every update at the cursor's instant was read, or where the read of them stands. */
	past?: boolean;
	group?: Position['group'];
	/** Delivery keys of the states read at or after the cursor (less 1 ms): not delivered again. */
	delivered: string[];
	/** The Start From value the trigger started with (a changed one starts it again). */
	startFrom?: string;
	/** The instant the trigger started from (undefined only until the start's first answer). */
	start?: string;
	/** Known states by session ID (lower case). */
	known?: Record<string, KnownState>;
	/** Where the starting picture's read stands, while it is not read to the end. */
	picture?: Position;
	/** A start "from now" that has delivered nothing yet: an earlier start may replace it. */
	fresh?: boolean;
	/** Polls in a row that a passing fault stopped before they read anything. */
	failedPolls?: number;
	/** What AirSign last said of the List Sessions budget; `resetsAt` on n8n's clock. */
	budget?: { remaining: number; resetsAt: number; warned?: boolean };
}

/** A start is also kept in the global static data, which every engine saves after activation. */
const originKey = (nodeName: string) => `airSignTriggerStart:${nodeName}`;

/** The state to continue from; undefined when the trigger must start (again). */
export function readState(
	nodeData: IDataObject,
	globalData: IDataObject,
	nodeName: string,
	startFrom: string | undefined,
): TriggerState | undefined {
	const matches = (state: TriggerState | undefined) =>
		state && (startFrom === undefined || state.startFrom === startFrom) ? state : undefined;
	const own = matches(parse(nodeData));
	const origin = matches(parse(globalData[originKey(nodeName)]));
	// A second start (a poll that ran before n8n saved the activation) yields to the first.
	if (own?.fresh && origin && Date.parse(origin.cursor) < Date.parse(own.cursor)) return origin;
	// The node's state was kept, so the start it continues is no longer needed.
	if (own && originKey(nodeName) in globalData) delete globalData[originKey(nodeName)];
	return own ?? origin;
}

export function writeStart(globalData: IDataObject, nodeName: string, state: TriggerState): void {
	globalData[originKey(nodeName)] = JSON.parse(JSON.stringify(state)) as IDataObject;
}

/** Writes in place: n8n watches this object to know that it changed. */
export function writeState(nodeData: IDataObject, state: TriggerState): void {
	for (const key of Object.keys(nodeData)) delete nodeData[key];
	Object.assign(nodeData, JSON.parse(JSON.stringify(state)));
}

function parse(value: unknown): TriggerState | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	// A copy: a poll that fails keeps the saved state as it was, whatever it read before.
	const data = JSON.parse(JSON.stringify(value)) as IDataObject;
	if (typeof data.cursor !== 'string' || Number.isNaN(Date.parse(data.cursor))) return undefined;
	const delivered = Array.isArray(data.delivered) ? data.delivered : [];
	return { ...data, delivered } as unknown as TriggerState;
}

/** The budget as an answer stated it, the reset moved onto n8n's clock (skew does not matter). */
export function budgetFrom(rateLimit: RateLimitState, at: number): TriggerState['budget'] {
	if (rateLimit.remaining === undefined || rateLimit.msUntilReset === undefined) return undefined;
	return { remaining: rateLimit.remaining, resetsAt: at + rateLimit.msUntilReset };
}

/** While AirSign's last word leaves no more than the reserve, until its reset: why polls wait. */
export function waitingText({ budget }: TriggerState, reserve: number): string | undefined {
	if (!budget || budget.remaining > reserve || Date.now() >= budget.resetsAt) return undefined;
	return `AirSign Trigger: ${budget.remaining} List Sessions requests are left this hour, no more than 'Keep Requests for Other Workflows' (${reserve}); polls make no request until the budget resets at ${utcTimeOfDay(budget.resetsAt)} UTC`;
}

/** Identifies one state of a session: ID, updatedAt and a digest of what it shows. */
export function deliveryKey(session: IDataObject, updatedAtMs: number): string {
	return `${String(session.sessionId)}@${updatedAtMs}#${fingerprint(session)}`;
}

export function deliveryTime(key: string): number {
	return Number(key.slice(key.lastIndexOf('@') + 1, key.lastIndexOf('#')));
}

/** A session's recipients in the order of their recipientId: the order known states keep. */
export function sortedRecipients(session: IDataObject): IDataObject[] {
	const recipients = Array.isArray(session.recipients) ? (session.recipients as IDataObject[]) : [];
	return [...recipients].sort((a, b) =>
		String(a.recipientId ?? '').localeCompare(String(b.recipientId ?? '')),
	);
}

/** Dates as instants, so that "…:49Z" and "…:49.000Z" read as the same state. */
const instant = (value: unknown) => (typeof value === 'string' ? Date.parse(value) : value);

/** A session can change twice within one whole-second updatedAt: the digest tells them apart. */
function fingerprint(session: IDataObject): string {
	const canonical = JSON.stringify([
		session.status,
		session.name,
		session.selfSignOnly,
		instant(session.completedDate),
		instant(session.expiryDate),
		sortedRecipients(session).map((r) => [
			r.recipientId,
			r.status,
			r.name,
			r.email,
			r.signingOrder,
			r.recipientType,
		]),
	]);
	// FNV-1a, 32 bits: it only tells apart states of one session at one instant.
	let hash = 0x811c9dc5;
	for (let i = 0; i < canonical.length; i++) {
		hash ^= canonical.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash.toString(36);
}
