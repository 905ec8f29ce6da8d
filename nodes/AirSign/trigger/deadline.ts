import type { IPollFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { TEMPORARILY_UNAVAILABLE } from '../errors/causes';

/** The least time a request is started with: a page answers well within it. */
export const MIN_REQUEST_WINDOW_MS = 2_000;

/**
 * The end of the time n8n gives a poll (`getPollBudgetMs`, n8n 2.9+; docs/compatibility.md). n8n
 * abandons a poll past it and keeps nothing, so the trigger stops paging in time and returns what
 * it read: a backlog is then delivered over several polls.
 */
export class PollDeadline {
	private slowestMs = 0;
	private started = 0;

	private constructor(
		private readonly ctx: IPollFunctions,
		readonly endsAt: number,
	) {}

	/** Undefined where n8n gives no budget (the method is absent before 2.9). */
	static of(ctx: IPollFunctions, startedAt = Date.now()): PollDeadline | undefined {
		const getBudget = (ctx as { getPollBudgetMs?: unknown }).getPollBudgetMs;
		const ms = typeof getBudget === 'function' ? Number(getBudget.call(ctx)) : NaN;
		return Number.isFinite(ms) && ms > 0 ? new PollDeadline(ctx, startedAt + ms) : undefined;
	}

	/**
	 * The first request always starts (a poll that never asks makes no progress); a later one
	 * while twice the slowest so far is left (one retry, answers vary), at least 2 s.
	 */
	allowsRequest(now = Date.now()): boolean {
		if (this.started === 0) return true;
		return this.endsAt - now >= Math.max(MIN_REQUEST_WINDOW_MS, 2 * this.slowestMs);
	}

	/** A request not answered by the deadline is given up, as a timeout. */
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
