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
	/**
	 * Set on a start "from now" until a poll continues from it: such a state delivered nothing
	 * yet, so an earlier start (see {@link readStartOrigin}) may replace it without a loss or a
	 * repeat.
	 */
	fresh?: boolean;
	/**
	 * Events (node version 2): the known states the delivered ones are diffed against, in the
	 * stored form of knownStates.ts. Written with the cursor, so that each state is diffed once.
	 */
	events?: IDataObject;
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
		...(staticData.fresh === true && { fresh: true }),
		...(isObject(staticData.events) && { events: staticData.events }),
	};
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The state to continue from, given the "Start From" option now set; undefined when the
 * trigger must (re)start: on its first poll, or when "Start From" was set or changed.
 * Clearing "Start From" carries on from where the trigger is, skipping nothing.
 *
 * `origin` is the trigger's start "from now" as the workflow's static data kept it (see
 * {@link readStartOrigin}). It stands in for a state that n8n did not keep, and it replaces
 * a later start "from now" that has delivered nothing yet: either way the trigger continues
 * from the moment it was first activated, and nothing made since is lost.
 */
export function stateToContinue(
	staticData: IDataObject,
	startFrom: string | undefined,
	origin?: TriggerState,
): TriggerState | undefined {
	const state = readState(staticData);
	if (startFrom === undefined) {
		const startedEarlier =
			origin !== undefined &&
			(!state || (state.fresh === true && Date.parse(origin.cursor) < Date.parse(state.cursor)));
		if (startedEarlier) return { ...origin, startFrom: undefined };
	}
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
	if (state.fresh) staticData.fresh = true;
	else delete staticData.fresh;
	if (state.events) staticData.events = state.events;
	else delete staticData.events;
	staticData.failedPolls = 0;
}

/** Where, in the workflow's global static data, a trigger node keeps its start "from now". */
const originKey = (nodeName: string) => `airSignTriggerStart:${nodeName}`;

/**
 * The trigger's start "from now", kept in the workflow's global static data as well as in the
 * node's own. n8n 2.x's database-backed poll scheduler with durable cursors keeps a node's
 * static data in its own table and commits it only after a scheduled poll: the one poll n8n
 * runs when it activates the workflow has its node static data thrown away, while the
 * workflow's global static data is saved after every activation (and on every n8n version).
 * Without this, the first scheduled poll would start "from now" a second time and lose every
 * update made between the two. Keyed by node name, as n8n keys node static data, so that it is
 * lost exactly when the node's own state would be.
 */
export function readStartOrigin(
	globalData: IDataObject,
	nodeName: string,
): TriggerState | undefined {
	const origin = globalData[originKey(nodeName)];
	if (typeof origin !== 'object' || origin === null || Array.isArray(origin)) return undefined;
	const state = readState(origin as IDataObject);
	return state && { cursor: state.cursor, delivered: state.delivered };
}

export function writeStartOrigin(
	globalData: IDataObject,
	nodeName: string,
	state: TriggerState,
): void {
	globalData[originKey(nodeName)] = { cursor: state.cursor, delivered: [...state.delivered] };
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
 * Failure streaks of this n8n process, by workflow and node, with the cursor they were counted
 * at. n8n's legacy poll engine keeps a workflow's static data in memory between polls, but its
 * database-backed scheduler (n8n 2.x, opt-in) rebuilds the workflow for every poll and, without
 * durable cursors, keeps nothing that a quiet poll changed: the count would never pass 1.
 */
const failureStreaks = new Map<string, { cursor: unknown; count: number }>();
/** Nodes whose streak is remembered at most (a workflow deleted mid-streak leaves its entry). */
const MAX_REMEMBERED_STREAKS = 1_000;

/**
 * Counts one more poll in a row that read nothing because of a passing fault; returns the
 * count (1, 2, 3, …). The count is kept in the node's static data and in this process's memory;
 * the larger one counts, the memory only while the cursor is where it was counted (a poll that
 * succeeded elsewhere, in another n8n main process, moved it). So the count survives where
 * n8n keeps the static data of a quiet poll (legacy engine: in memory; durable cursors: in the
 * database) and where it does not (the scheduler without durable cursors: in memory). It starts
 * again after a restart of n8n unless n8n saved it.
 */
export function countFailedPoll(staticData: IDataObject, streakKey: string): number {
	const stored = typeof staticData.failedPolls === 'number' ? staticData.failedPolls : 0;
	const remembered = failureStreaks.get(streakKey);
	const inMemory =
		remembered !== undefined && remembered.cursor === staticData.cursor ? remembered.count : 0;
	const failedPolls = Math.max(stored, inMemory) + 1;
	staticData.failedPolls = failedPolls;
	failureStreaks.delete(streakKey);
	if (failureStreaks.size >= MAX_REMEMBERED_STREAKS)
		failureStreaks.delete(failureStreaks.keys().next().value as string);
	failureStreaks.set(streakKey, { cursor: staticData.cursor, count: failedPolls });
	return failedPolls;
}

/** A successful read ends the streak (writeState resets the stored count). */
export function endFailureStreak(streakKey: string): void {
	failureStreaks.delete(streakKey);
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
