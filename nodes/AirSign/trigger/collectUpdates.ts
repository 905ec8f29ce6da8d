import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { NODE_DEFECT } from '../errors/declaredFailure';
import { MAX_PAGE_SIZE } from '../helpers/constants';
import { isoFromMs } from '../helpers/dates';
import type { RateLimitState } from '../transport/answerHeaders';
import type { RetryPolicy, SessionsPage, SessionsQuery } from '../transport/sessionPages';
import { fetchSessionsPage } from '../transport/sessionPages';
import type { PollDeadline } from './pollBudget';
import { PollBudgetSpent } from './pollBudget';
import type { FetchPage, TakePage } from './readTieGroup';
import { readTieGroup } from './readTieGroup';
import type { TriggerState } from './triggerState';
import { ONE_MS, deliveryKey, deliveryTime } from './triggerState';

export interface CollectLimits {
	/** Stop paging once the service reports this many List Sessions requests or fewer left. */
	reserveRequests: number;
	/** At most this many requests in one poll; a larger backlog continues next poll. */
	maxRequests: number;
	/**
	 * The end of the poll's time budget (n8n 2.9+): no request starts that could not be answered
	 * before it, and none is waited for past it. A larger backlog continues next poll.
	 */
	deadline?: PollDeadline;
	/**
	 * How far behind the service's clock the cursor stays. Re-reading that window each
	 * poll catches an update that becomes visible a moment after its timestamp.
	 */
	settleMs: number;
	/** Told what every answer said about the budget. */
	onRateLimit?: (rateLimit: RateLimitState) => void;
}

export interface CollectResult {
	/** Updates to deliver, oldest first. */
	sessions: IDataObject[];
	/** The state to keep if (and only if) these sessions are delivered. */
	state: TriggerState;
	/** The request failure that stopped the paging, if one did. */
	fault?: NodeApiError;
	/** List Sessions requests made. */
	requests: number;
	/**
	 * The paging read everything to the end, and the last answer left more requests than the
	 * reserve: the poll may spend what is left of its requests on something else.
	 */
	caughtUp: boolean;
}

/** A poll never waits for the budget (the next poll comes anyway) and retries a fault once. */
export const POLL_RETRY_POLICY: RetryPolicy = { maxRateLimitWaitMs: 0, transientRetries: 1 };

/**
 * Reads every update at or after the cursor, paging by the cursor rather than by
 * offset: each page asks for "updated at or after the newest timestamp seen so far"
 * and drops what was already delivered. Offset paging over a list that changes
 * while it is read skips rows; this cannot, and it is correct whether the service's
 * `updatedAfter` is strict or inclusive (it always asks for 1 ms earlier than it
 * needs and removes the repeats). Failures stop the paging; what was read before
 * them is still delivered and the cursor moves over exactly that. Only request failures are
 * absorbed this way; anything else is a bug and surfaces at once.
 */
export async function collectUpdates(
	ctx: IPollFunctions,
	previous: TriggerState,
	filters: SessionsQuery,
	limits: CollectLimits,
): Promise<CollectResult> {
	const delivered = new Set(previous.delivered);
	const sessions: IDataObject[] = [];
	const cursorMs = Date.parse(previous.cursor);
	/** Newest updatedAt seen: everything older in range has been read. */
	let position = cursorMs;
	let updatedAfterMs = cursorMs - ONE_MS;
	let exhaustedTie: number | undefined;
	let serverTime: number | undefined;
	let requests = 0;
	let fault: NodeApiError | undefined;
	/** The last page said hasMore=false: everything visible up to its Date was read. */
	let readToEnd = false;
	let lastPageLow = false;

	const policy: RetryPolicy = { ...POLL_RETRY_POLICY, onRateLimit: limits.onRateLimit };
	const { deadline } = limits;
	const fetchPage: FetchPage = async (query, offset) => {
		if (!deadline)
			return await fetchSessionsPage(ctx, query, { limit: MAX_PAGE_SIZE, offset }, 0, policy);
		if (!deadline.allowsRequest()) throw new PollBudgetSpent();
		return await deadline.within(
			fetchSessionsPage(ctx, query, { limit: MAX_PAGE_SIZE, offset }, 0, policy),
		);
	};
	const take: TakePage = (page) => {
		serverTime = page.serverTime ?? serverTime;
		let newest = Number.NEGATIVE_INFINITY;
		for (const session of page.sessions) {
			const updatedAtMs = Date.parse(String(session.updatedAt));
			if (Number.isNaN(updatedAtMs)) continue;
			newest = Math.max(newest, updatedAtMs);
			const key = deliveryKey(session, updatedAtMs);
			if (delivered.has(key)) continue;
			delivered.add(key);
			sessions.push(session);
		}
		return newest;
	};
	const budgetLow = (page: SessionsPage) =>
		page.rateLimit.remaining !== undefined && page.rateLimit.remaining <= limits.reserveRequests;

	try {
		for (;;) {
			if (requests >= limits.maxRequests) break;
			requests++;
			const page = await fetchPage(
				{
					...filters,
					updatedAfter: isoFromMs(updatedAfterMs),
					sortBy: 'updatedAt',
					sortOrder: 'asc',
				},
				0,
			);
			const newest = take(page);
			lastPageLow = budgetLow(page);
			if (!page.pagination.hasMore || page.sessions.length === 0) {
				if (page.sessions.length) position = Math.max(position, newest);
				readToEnd = true;
				break;
			}
			if (budgetLow(page)) {
				position = Math.max(position, newest);
				break;
			}
			if (newest > position) {
				// Ask again from the newest timestamp: its other rows may be on the next page.
				position = newest;
				updatedAfterMs = newest - ONE_MS;
				continue;
			}
			// A whole page shares one timestamp: more updates at that instant than a page holds.
			if (exhaustedTie === position) {
				// The group came back although we asked for "after" it: updatedAfter is inclusive here.
				updatedAfterMs = position + ONE_MS;
				continue;
			}
			const tie = await readTieGroup(
				fetchPage,
				filters,
				position,
				take,
				limits.maxRequests - requests,
			);
			requests += tie.requests;
			if (!tie.complete) break;
			exhaustedTie = position;
			updatedAfterMs = position;
		}
	} catch (error) {
		if (error instanceof NodeApiError) fault = error;
		// Out of time: it stops as at the request cap (a tie group read in part stays at its instant).
		else if (!(error instanceof PollBudgetSpent))
			// A bug (a TypeError, …) is no passing fault: it must not wait five polls to be seen.
			throw new NodeOperationError(ctx.getNode(), error as Error, { failure: NODE_DEFECT });
	}

	// Never past the service's "now" (less the settling window): a session stamped in
	// the future must not hide the updates that come before that time. After a read to
	// the end, the cursor goes up to that point even when the newest update is older:
	// held at the newest update, a group of 100+ sessions sharing its instant would be
	// read again, page after page, by every quiet poll.
	const ceiling =
		serverTime === undefined
			? position
			: readToEnd
				? serverTime - limits.settleMs
				: Math.min(position, serverTime - limits.settleMs);
	const nextCursorMs = Math.max(cursorMs, ceiling);
	return {
		sessions,
		state: {
			cursor: isoFromMs(nextCursorMs),
			delivered: [...delivered].filter((key) => deliveryTime(key) >= nextCursorMs - ONE_MS),
			startFrom: previous.startFrom,
		},
		fault,
		requests,
		caughtUp: readToEnd && !fault && !lastPageLow,
	};
}
