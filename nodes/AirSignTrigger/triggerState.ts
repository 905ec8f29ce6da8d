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
	/** `${sessionId}@${updatedAtMs}` of deliveries at or after the cursor (less 1 ms). */
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

export function deliveryKey(sessionId: unknown, updatedAtMs: number): string {
	return `${String(sessionId)}@${updatedAtMs}`;
}

export function deliveryTime(key: string): number {
	return Number(key.slice(key.lastIndexOf('@') + 1));
}
