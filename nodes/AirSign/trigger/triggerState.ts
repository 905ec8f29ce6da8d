import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger remembers between polls, kept in the workflow's static data.
 * Invariant: every matching update with `updatedAt` before `cursor` has been delivered,
 * or happened before the trigger started. `delivered` holds the (session, updatedAt) pairs
 * delivered at or after the cursor (less {@link ONE_MS}), so re-reading from the cursor
 * never repeats one. Every read and write of the static data goes through this module.
 */
export interface TriggerState {
	/** ISO 8601 instant on the service's clock. */
	cursor: string;
	/** {@link deliveryKey}s of deliveries at or after the cursor (less 1 ms). */
	delivered: string[];
	/** The "Start From" value the cursor was set from, to notice when the user changes it. */
	startFrom?: string;
}

/**
 * What AirSign last said about the List Sessions budget, kept apart from the cursor (a poll
 * that fails still learns it). Times are on n8n's clock, so no request is needed to know
 * whether the window has reset.
 */
export interface BudgetMemory {
	/** Requests left in the window after the last answer. */
	remaining: number;
	/** When the window resets, on n8n's clock (epoch ms). */
	resetsAt: number;
	/** The trigger has warned that it waits for this reset. */
	warned?: boolean;
}

/** The paging step: updatedAfter asks for 1 ms before the instant it means. */
export const ONE_MS = 1;

function readState(staticData: IDataObject): TriggerState | undefined {
	if (typeof staticData.cursor !== 'string' || Number.isNaN(Date.parse(staticData.cursor))) {
		return undefined;
	}
	return {
		cursor: staticData.cursor,
		delivered: Array.isArray(staticData.delivered) ? (staticData.delivered as string[]) : [],
		startFrom: typeof staticData.startFrom === 'string' ? staticData.startFrom : undefined,
	};
}

/**
 * The state to continue from, given the "Start From" option now set; undefined when the
 * trigger must (re)start: on its first poll, or when "Start From" was set or changed.
 * Clearing "Start From" carries on from where the trigger is, skipping nothing.
 */
export function stateToContinue(
	staticData: IDataObject,
	startFrom: string | undefined,
): TriggerState | undefined {
	const state = readState(staticData);
	if (!state) return undefined;
	if (startFrom === undefined) return { ...state, startFrom: undefined };
	return state.startFrom === startFrom ? state : undefined;
}

/**
 * Writes in place: n8n watches this object to know that it must be saved. Saving a state
 * also ends a run of failed polls: the cursor moves only after a successful read.
 */
export function writeState(staticData: IDataObject, state: TriggerState): void {
	staticData.cursor = state.cursor;
	staticData.delivered = state.delivered;
	if (state.startFrom === undefined) delete staticData.startFrom;
	else staticData.startFrom = state.startFrom;
	staticData.failedPolls = 0;
}

export function readBudget(staticData: IDataObject): BudgetMemory | undefined {
	const budget = staticData.budget as IDataObject | undefined;
	if (typeof budget?.remaining !== 'number' || typeof budget.resetsAt !== 'number')
		return undefined;
	return { remaining: budget.remaining, resetsAt: budget.resetsAt, warned: budget.warned === true };
}

export function rememberBudget(staticData: IDataObject, budget: BudgetMemory): void {
	staticData.budget = { ...budget };
}

/**
 * Counts one more poll in a row that read nothing because of a passing fault; returns the
 * count. After `reportEvery` the count starts again, so that every run of that many is
 * reported once. (n8n 2.x saves static data only when a poll emits, so between quiet polls
 * the count lives in the active workflow's memory and starts again after a restart.)
 */
export function countFailedPoll(staticData: IDataObject, reportEvery: number): number {
	const previous = typeof staticData.failedPolls === 'number' ? staticData.failedPolls : 0;
	const failedPolls = previous + 1;
	staticData.failedPolls = failedPolls % reportEvery;
	return failedPolls;
}

/**
 * Identifies one delivered state of a session: its ID, its updatedAt and a short
 * fingerprint of what it shows. With whole-second timestamps a session can change
 * twice within one updatedAt; the fingerprint lets the second state through, while
 * the same state read again is still recognised.
 */
export function deliveryKey(session: IDataObject, updatedAtMs: number): string {
	return `${String(session.sessionId)}@${updatedAtMs}#${fingerprint(session)}`;
}

export function deliveryTime(key: string): number {
	const at = key.lastIndexOf('@');
	const hash = key.indexOf('#', at);
	return Number(key.slice(at + 1, hash === -1 ? undefined : hash));
}

/** Dates as instants, so that "…:49Z" and "…:49.000Z" read as the same state. */
function instant(value: unknown): unknown {
	const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
	return Number.isNaN(ms) ? value : ms;
}

function fingerprint(session: IDataObject): string {
	const recipients = Array.isArray(session.recipients) ? (session.recipients as IDataObject[]) : [];
	const canonical = JSON.stringify([
		session.status,
		session.name,
		session.selfSignOnly,
		instant(session.completedDate),
		instant(session.expiryDate),
		recipients
			.map((r) => [r.recipientId, r.status, r.name, r.email, r.signingOrder, r.recipientType])
			.sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
	]);
	// FNV-1a, 32 bits: a short, stable digest; collisions only matter within one session and instant.
	let hash = 0x811c9dc5;
	for (let i = 0; i < canonical.length; i++) {
		hash ^= canonical.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash.toString(36);
}
