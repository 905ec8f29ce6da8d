import { sleep } from 'n8n-workflow';

import type { RateLimitState } from './answerHeaders';
import type { AirSignContext } from './request';

/** An item that had not sent its request when an earlier item failed: it is not run at all. */
export class NotRun extends Error {}

/**
 * The requests of one execution, several items at once (the router opens it). AirSign's budgets
 * are per hour, so how many are in flight changes how fast they go, never how many are spent:
 * - one request alone until an answer says how many are left;
 * - never more in flight than the last answer said are left, less those sent since;
 * - none while it says none are left: they wait for its reset, within Max Wait on Rate Limit;
 * - after a 429 all of them wait out its Retry-After together.
 * After any such wait, one request alone hears AirSign again.
 */
export class RequestPool {
	private inFlight = 0;
	/** Requests left by AirSign's word, less those sent since; undefined until it speaks. */
	private left: number | undefined;
	/** The window `left` belongs to: its reset as AirSign stated it, and on this machine's clock. */
	private window: { resetAt?: number; endsAt?: number } = {};
	private pause: { endsAt: number; over: Promise<void> } | undefined;
	/** How many pauses have begun: a request sent before the last one began waits no more. */
	private pauses = 0;
	private waiters: Array<() => void> = [];
	/** Items after this one send nothing: it failed without Continue On Fail. */
	private lastItem = Number.POSITIVE_INFINITY;

	constructor(readonly itemsAtOnce: number) {}

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
				// Reset already, or too far away to wait: AirSign's answer to one request tells.
				this.left = undefined;
			}
			if (this.inFlight === 0 || (this.left ?? 0) > 0) break;
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
		const { remaining, resetAt, msUntilReset } = rateLimit ?? {};
		if (remaining !== undefined) {
			// The others in flight may not be counted in it yet: assume they are not.
			const left = remaining - this.inFlight;
			const sameWindow = this.left !== undefined && resetAt === this.window.resetAt;
			this.left = sameWindow ? Math.min(this.left!, left) : left;
			const endsAt = msUntilReset === undefined ? undefined : Date.now() + msUntilReset;
			this.window = { resetAt, endsAt };
		} else if (rateLimit !== undefined && this.left === undefined) {
			this.left = Number.POSITIVE_INFINITY;
		}
		if (succeeded) this.wake();
	}

	itemEnded(): void {
		this.wake();
	}

	/**
	 * No request starts for `ms` (a 429's Retry-After, or a spent budget's reset). A 429 to a
	 * request sent before the last pause began (`sentAfterPauses` is older) is covered by it.
	 */
	pauseFor(ms: number, sentAfterPauses = this.pauses): void {
		const endsAt = Date.now() + ms;
		if (sentAfterPauses < this.pauses || (this.pause && this.pause.endsAt >= endsAt)) return;
		this.pauses++;
		const pause = {
			endsAt,
			over: sleep(ms).then(() => {
				if (this.pause !== pause) return;
				this.pause = undefined;
				this.left = undefined;
				this.wake();
			}),
		};
		this.pause = pause;
	}

	private wake(): void {
		const waiters = this.waiters;
		this.waiters = [];
		for (const wake of waiters) wake();
	}
}

const pools = new WeakMap<AirSignContext, RequestPool>();

/** One pool per execution, keyed by n8n's context object, so nothing outlives the execution. */
export function openPool(ctx: AirSignContext, itemsAtOnce: number): RequestPool {
	const pool = new RequestPool(itemsAtOnce);
	pools.set(ctx, pool);
	return pool;
}

/** The pool of this execution; none outside the action node's router (trigger, editor lists). */
export function poolOf(ctx: AirSignContext): RequestPool | undefined {
	return pools.get(ctx);
}
