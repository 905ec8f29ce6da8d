import { sleep } from 'n8n-workflow';

import { FIRST_WAVE } from '../helpers/constants';
import type { RateLimitState } from './answerHeaders';
import type { AirSignContext } from './request';

/** An item that had not sent its request when an earlier item failed: it is not run at all. */
export class NotRun extends Error {}

/**
 * The requests of one execution, several items at once (the router opens it). AirSign's budgets
 * are per hour, so how many are in flight changes how fast they go, never how many are spent:
 * - before any answer, a first wave of FIRST_WAVE, or half the items of a run of more;
 * - once an answer states a budget, never more in flight than it said are left, less those sent
 *   since; none while it says none are left: they wait for its reset, within Max Wait on Rate Limit;
 * - an answer that states none leaves only Items at Once; after a 429 though (a limit AirSign
 *   does not state), half of those in flight, one more per good answer, as TCP does after a loss;
 * - after a 429 all of them wait out its Retry-After together.
 * After such a wait a new window begins, holding at most the Limit AirSign stated.
 */
export class RequestPool {
	private inFlight = 0;
	/** The most requests in flight while AirSign states no budget. */
	private wave: number;
	/** AirSign has answered 429 in this execution: the wave grows back one request at a time. */
	private refused = false;
	/** Requests left by AirSign's word, less those sent since; undefined while it states none. */
	private left: number | undefined;
	/** The window `left` belongs to: its size and reset as AirSign stated them, its end on this machine's clock. */
	private window: { limit?: number; resetAt?: number; endsAt?: number } = {};
	private pause: { endsAt: number; over: Promise<void> } | undefined;
	/** How many pauses have begun: a request sent before the last one began waits no more. */
	private pauses = 0;
	private waiters: Array<() => void> = [];
	/** Items after this one send nothing: it failed without Continue On Fail. */
	private lastItem = Number.POSITIVE_INFINITY;

	constructor(
		readonly itemsAtOnce: number,
		items = 0,
	) {
		// The rest goes at the first answer and waits a whole round trip for its own: the first
		// wave's answers keep n8n busy meanwhile only if it holds a share of the run.
		this.wave = Math.max(FIRST_WAVE, Math.ceil(items / 2));
	}

	mayStart(itemIndex: number): boolean {
		return itemIndex <= this.lastItem;
	}

	stopAfter(itemIndex: number): void {
		this.lastItem = Math.min(this.lastItem, itemIndex);
		this.wake();
	}

	/**
	 * Waits until the item may send a request, and returns the pauses begun so far; throws
	 * {@link NotRun} once it may not send.
	 */
	async turn(itemIndex: number, maxWaitMs: number): Promise<number> {
		for (;;) {
			if (!this.mayStart(itemIndex)) throw new NotRun();
			if (this.pause) {
				await this.pause.over;
				continue;
			}
			if (this.inFlight === 0 && this.left !== undefined && this.left <= 0) {
				const waitMs = (this.window.endsAt ?? Number.POSITIVE_INFINITY) - Date.now();
				if (waitMs > 0 && waitMs <= maxWaitMs) {
					this.pauseFor(waitMs);
					continue;
				}
				// Reset already: a new window. Too far away to wait: one request, whose 429 says when.
				if (waitMs > 0) this.left = 1;
				else this.newWindow();
			}
			const free = this.left ?? this.wave - this.inFlight;
			if (free > 0) break;
			await new Promise<void>((resolve) => this.waiters.push(resolve));
		}
		this.inFlight++;
		if (this.left !== undefined) this.left--;
		return this.pauses;
	}

	/**
	 * A request ended; `rateLimit` is what its answer said (nothing when no answer came). Only a
	 * success lets others go at once: after a failure they wait until its item has ended, so that
	 * a failure that stops the run stops them first.
	 */
	answered(rateLimit: RateLimitState | undefined, succeeded: boolean): void {
		this.inFlight--;
		if (succeeded) this.wave = this.refused ? this.wave + 1 : Number.POSITIVE_INFINITY;
		const { limit, remaining, resetAt, msUntilReset } = rateLimit ?? {};
		if (remaining !== undefined) {
			// The others in flight may not be counted in it yet: assume they are not.
			const left = remaining - this.inFlight;
			const sameWindow = this.left !== undefined && resetAt === this.window.resetAt;
			this.left = sameWindow ? Math.min(this.left!, left) : left;
			const endsAt = msUntilReset === undefined ? undefined : Date.now() + msUntilReset;
			this.window = { limit, resetAt, endsAt };
		} else if (rateLimit !== undefined) {
			// An answer without a budget: whatever a 429 stated before, AirSign states none now.
			this.left = undefined;
		}
		if (succeeded) this.wakeTurns();
	}

	itemEnded(): void {
		this.wakeTurns();
	}

	/**
	 * A 429 (AirSign did not process the request): every request waits `ms`, and the wave is half
	 * of those in flight. A 429 to a request sent before the last pause began (`sentAfterPauses`
	 * is older) is covered by it.
	 */
	rateLimited(ms: number, sentAfterPauses: number): void {
		if (sentAfterPauses < this.pauses) return;
		this.refused = true;
		this.wave = Math.max(1, Math.ceil(Math.min(this.wave, this.inFlight + 1) / 2));
		this.pauseFor(ms);
	}

	/** No request starts for `ms` (a 429's Retry-After, or a spent budget's reset). */
	private pauseFor(ms: number): void {
		const endsAt = Date.now() + ms;
		if (this.pause && this.pause.endsAt >= endsAt) return;
		this.pauses++;
		const pause = {
			endsAt,
			over: sleep(ms).then(() => {
				if (this.pause !== pause) return;
				this.pause = undefined;
				this.newWindow();
				this.wake();
			}),
		};
		this.pause = pause;
	}

	/** After a wait: at most the Limit AirSign stated, less those still out, and one to hear it again. */
	private newWindow(): void {
		const { limit } = this.window;
		this.left = limit === undefined ? undefined : Math.max(1, limit - this.inFlight);
	}

	/** As many waiting turns as may start now, at least one (to wait for a reset, or to probe). */
	private wakeTurns(): void {
		this.wake(Math.max(1, this.left ?? this.wave - this.inFlight));
	}

	/** Wakes the first `count` waiting turns: waking all of them on every answer would cost O(n²). */
	private wake(count = Number.POSITIVE_INFINITY): void {
		for (const wake of this.waiters.splice(0, count)) wake();
	}
}

const pools = new WeakMap<AirSignContext, RequestPool>();

/** One pool per execution, keyed by n8n's context object, so nothing outlives the execution. */
export function openPool(ctx: AirSignContext, itemsAtOnce: number, items: number): RequestPool {
	const pool = new RequestPool(itemsAtOnce, items);
	pools.set(ctx, pool);
	return pool;
}

/** The pool of this execution; none outside the action node's router (trigger, editor lists). */
export function poolOf(ctx: AirSignContext): RequestPool | undefined {
	return pools.get(ctx);
}
