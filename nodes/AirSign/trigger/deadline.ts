import type { IPollFunctions } from 'n8n-workflow';

/** A poll never waits for the budget (the next poll comes anyway) and retries a fault once. */
export const POLL_RETRIES = { maxRateLimitWaitMs: 0, transientRetries: 1 };

/** The least time a request is started with: a page answers well within it. */
export const MIN_REQUEST_WINDOW_MS = 2_000;

/**
 * The end of the time n8n gives a poll (`getPollBudgetMs`, n8n 2.9+; docs/compatibility.md). n8n
 * abandons a poll past it and keeps nothing, so the trigger stops paging in time and returns what
 * it read: a backlog is then delivered over several polls. A request gets the time left as its
 * own timeout, so none outlives the poll.
 */
export class PollDeadline {
	private slowestMs = 0;
	private started = false;

	private constructor(readonly endsAt: number) {}

	/** Undefined where n8n gives no budget (the method is absent before 2.9). */
	static of(ctx: IPollFunctions, startedAt = Date.now()): PollDeadline | undefined {
		const getBudget = (ctx as { getPollBudgetMs?: unknown }).getPollBudgetMs;
		const ms = typeof getBudget === 'function' ? Number(getBudget.call(ctx)) : NaN;
		return Number.isFinite(ms) && ms > 0 ? new PollDeadline(startedAt + ms) : undefined;
	}

	/**
	 * The first request always starts (a poll that never asks makes no progress); a later one, or
	 * a retry, while twice the slowest so far is left (one retry, answers vary), at least 2 s.
	 */
	allowsRequest(at = Date.now()): boolean {
		if (!this.started) return true;
		return this.endsAt - at >= Math.max(MIN_REQUEST_WINDOW_MS, 2 * this.slowestMs);
	}

	/** Runs one request, its retry included, and remembers how long it took. */
	async timed<T>(request: () => Promise<T>): Promise<T> {
		this.started = true;
		const startedAt = Date.now();
		try {
			return await request();
		} finally {
			this.slowestMs = Math.max(this.slowestMs, Date.now() - startedAt);
		}
	}
}
