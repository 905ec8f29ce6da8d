import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger remembers between polls, kept in the workflow's static data
 * (n8n persists it whenever a poll emits items). Invariant: every matching update
 * with `updatedAt` before `cursor` has been delivered, or happened before the
 * trigger started. `delivered` holds the (session, updatedAt) pairs delivered at or
 * after the cursor, so re-reading from the cursor never repeats one.
 */
export interface TriggerState {
	/** ISO 8601 instant on the service's clock. */
	cursor: string;
	/** {@link deliveryKey}s of deliveries at or after the cursor (less 1 ms). */
	delivered: string[];
	/** The "Start From" value the cursor was set from, to notice when the user changes it. */
	startFrom?: string;
	/** Transient failures in a row; only their count is kept. */
	failedPolls?: number;
}

export function readState(staticData: IDataObject): TriggerState | undefined {
	if (typeof staticData.cursor !== 'string' || Number.isNaN(Date.parse(staticData.cursor))) {
		return undefined;
	}
	return {
		cursor: staticData.cursor,
		delivered: Array.isArray(staticData.delivered) ? (staticData.delivered as string[]) : [],
		startFrom: typeof staticData.startFrom === 'string' ? staticData.startFrom : undefined,
		failedPolls: typeof staticData.failedPolls === 'number' ? staticData.failedPolls : 0,
	};
}

/** Writes in place: n8n watches this object to know that it must be saved. */
export function writeState(staticData: IDataObject, state: TriggerState): void {
	staticData.cursor = state.cursor;
	staticData.delivered = state.delivered;
	if (state.startFrom === undefined) delete staticData.startFrom;
	else staticData.startFrom = state.startFrom;
	staticData.failedPolls = state.failedPolls ?? 0;
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
