import type { IPollFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { TEMPORARILY_UNAVAILABLE } from '../errors/causes';

/**
 * Time kept free for one more page: the trigger starts a request only while at least this
 * much of the poll's budget is left (and twice its slowest request so far, see
 * {@link PollDeadline.allowsRequest}). A List Sessions page normally answers well within a
 * second; 2 s is ample room for one and wastes at most 2 s of a budget of tens of seconds.
 */
export const MIN_REQUEST_WINDOW_MS = 2_000;

/**
 * n8n 2.9 and later give a poll a time budget (`getPollBudgetMs()` on the poll's context):
 * n8n's database-backed poll scheduler abandons a poll that runs past its timeout and keeps
 * nothing of it. n8n 1.x and 2.0 to 2.8 have no such method, so it is called only when present
 * (n8n-workflow's types declare it; older n8n does not have it at run time).
 */
export function pollBudgetMs(ctx: IPollFunctions): number | undefined {
	const getBudget = (ctx as { getPollBudgetMs?: unknown }).getPollBudgetMs;
	if (typeof getBudget !== 'function') return undefined;
	const ms = Number(getBudget.call(ctx));
	return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

/**
 * The end of a poll's time budget, on n8n's clock. The trigger pages only while a request can
 * still be answered in time, so that it returns what it read (and moves the cursor over it)
 * instead of being abandoned by n8n with nothing kept: a backlog that takes longer than one
 * poll is then delivered over several polls, as with the per-poll request cap.
 */
export class PollDeadline {
	private slowestMs = 0;
	private started = 0;

	private constructor(
		private readonly ctx: IPollFunctions,
		readonly endsAt: number,
	) {}

	/** The poll's deadline, or undefined when n8n gives no budget (every n8n before 2.9). */
	static of(ctx: IPollFunctions, startedAt = Date.now()): PollDeadline | undefined {
		const budget = pollBudgetMs(ctx);
		return budget === undefined ? undefined : new PollDeadline(ctx, startedAt + budget);
	}

	/**
	 * Whether another request may start. The first always does (a poll that never asks cannot
	 * make progress; if it does not answer in time, see {@link within}). A later one only while
	 * the time left is at least twice the slowest request of this poll (a page may need its one
	 * retry, and answers vary) and at least {@link MIN_REQUEST_WINDOW_MS}: a request that the
	 * deadline cuts off spends one of the hour's 60 List Sessions requests for nothing.
	 */
	allowsRequest(now = Date.now()): boolean {
		if (this.started === 0) return true;
		return this.endsAt - now >= Math.max(MIN_REQUEST_WINDOW_MS, 2 * this.slowestMs);
	}

	/**
	 * Waits for a request, but not past the deadline: an answer that has not come by then is
	 * given up (a fault like a timeout; what was read before it is still delivered).
	 */
	async within<T>(request: Promise<T>): Promise<T> {
		this.started++;
		const startedAt = Date.now();
		// AbortSignal.timeout: a timer that keeps no process alive and needs no clearing.
		const cutOff = new Promise<never>((_, reject) => {
			AbortSignal.timeout(Math.max(1, this.endsAt - startedAt)).addEventListener(
				'abort',
				() => reject(this.timeoutError()),
				{ once: true },
			);
		});
		cutOff.catch(() => undefined);
		// The request may still settle after it was given up; nothing waits for it then.
		request.catch(() => undefined);
		try {
			return await Promise.race([request, cutOff]);
		} finally {
			this.slowestMs = Math.max(this.slowestMs, Date.now() - startedAt);
		}
	}

	private timeoutError(): NodeApiError {
		return new NodeApiError(
			this.ctx.getNode(),
			{ message: 'no answer within the poll time budget' },
			{
				message: 'AirSign did not answer within the time n8n gives a poll',
				description:
					'The request was given up at the end of the poll time budget; the next poll continues from where this one stopped.',
				failure: TEMPORARILY_UNAVAILABLE,
			},
		);
	}
}
