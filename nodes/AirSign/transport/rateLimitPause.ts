import { sleep } from 'n8n-workflow';

import type { AirSignContext } from './request';

interface Pause {
	/** Epoch ms until which requests wait. */
	until: number;
	/** The request whose call waits out the 429 itself (it sleeps, then sends again). */
	waiter: object;
}

/**
 * While one call of an execution waits out a 429's Retry-After, no other call of the same
 * execution may start a request: with several items at once, the others would only spend the
 * budget AirSign just said is gone. Keyed by n8n's context object, which lives for one
 * execution (or one poll), so nothing is shared between executions or workers.
 */
const pauses = new WeakMap<AirSignContext, Pause>();

/** Every other request of this execution waits until `until` (epoch ms) before it is sent. */
export function pauseRequests(ctx: AirSignContext, until: number, waiter: object): void {
	const current = pauses.get(ctx);
	if (current === undefined || until > current.until) pauses.set(ctx, { until, waiter });
}

/**
 * Returns once no other call's pause holds for this execution: at once in the usual case, else
 * after the pause (and after a pause set meanwhile, which replaces it).
 */
export async function waitOutPause(ctx: AirSignContext, request: object): Promise<void> {
	let pause = pauses.get(ctx);
	while (pause !== undefined && pause.waiter !== request) {
		const waitMs = pause.until - Date.now();
		if (waitMs <= 0) return;
		await sleep(waitMs);
		const next = pauses.get(ctx);
		if (next === pause) return;
		pause = next;
	}
}
