import type { IDataObject, IPollFunctions, NodeApiError } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../AirSign/helpers/constants';
import type { RetryPolicy, SessionsPage, SessionsQuery } from '../AirSign/transport/listSessions';
import { fetchSessionsPage } from '../AirSign/transport/listSessions';
import type { TriggerState } from './triggerState';
import { deliveryKey, deliveryTime } from './triggerState';

export interface CollectLimits {
	/** Stop paging once the service reports this many List Sessions requests or fewer left. */
	reserveRequests: number;
	/** At most this many requests in one poll; a larger backlog continues next poll. */
	maxRequests: number;
	/**
	 * How far behind the service's clock the cursor stays. Re-reading that window each
	 * poll catches an update that becomes visible a moment after its timestamp.
	 */
	settleMs: number;
}

export interface CollectResult {
	/** Updates to deliver, oldest first. */
	sessions: IDataObject[];
	/** The state to keep if (and only if) these sessions are delivered. */
	state: TriggerState;
	/** Why paging stopped before the end, if it did. */
	stopped?: 'budget' | 'requestCap' | 'fault';
	fault?: NodeApiError;
	requests: number;
}

const ONE_MS = 1;
const POLL_RETRY_POLICY: RetryPolicy = { maxRateLimitWaitMs: 0, transientRetries: 1 };

/**
 * Reads every update at or after the cursor, paging by the cursor rather than by
 * offset: each page asks for "updated at or after the newest timestamp seen so far"
 * and drops what was already delivered. Offset paging over a list that changes
 * while it is read skips rows; this cannot, and it is correct whether the service's
 * `updatedAfter` is strict or inclusive (it always asks for 1 ms earlier than it
 * needs and removes the repeats). Failures stop the paging; what was read before
 * them is still delivered and the cursor moves over exactly that.
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
	let stopped: CollectResult['stopped'];
	let fault: NodeApiError | undefined;
	/** The last page said hasMore=false: everything visible up to its Date was read. */
	let readToEnd = false;

	const take = (page: SessionsPage) => {
		requests++;
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
			if (requests >= limits.maxRequests) {
				stopped = 'requestCap';
				break;
			}
			const page = await fetchSessionsPage(
				ctx,
				{ ...filters, updatedAfter: iso(updatedAfterMs), sortBy: 'updatedAt', sortOrder: 'asc' },
				{ limit: MAX_PAGE_SIZE, offset: 0 },
				0,
				POLL_RETRY_POLICY,
			);
			const newest = take(page);
			if (!page.pagination.hasMore || page.sessions.length === 0) {
				if (page.sessions.length) position = Math.max(position, newest);
				readToEnd = true;
				break;
			}
			if (budgetLow(page)) {
				position = Math.max(position, newest);
				stopped = 'budget';
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
			const tie = await readTieGroup(ctx, filters, position, take, limits.maxRequests - requests);
			if (tie === 'incomplete') {
				stopped = 'requestCap';
				break;
			}
			exhaustedTie = position;
			updatedAfterMs = position;
		}
	} catch (error) {
		stopped = 'fault';
		fault = error as NodeApiError;
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
			cursor: iso(nextCursorMs),
			delivered: [...delivered].filter((key) => deliveryTime(key) >= nextCursorMs - ONE_MS),
			startFrom: previous.startFrom,
			failedPolls: 0,
		},
		stopped,
		fault,
		requests,
	};
}

/**
 * Reads every session updated at exactly `instant`, a group larger than a page.
 * Within it, pages by creation time (again by cursor); only a group that also
 * shares one creation time falls back to offsets, read twice so that a row
 * shifted by a concurrent change is still seen.
 */
async function readTieGroup(
	ctx: IPollFunctions,
	filters: SessionsQuery,
	instant: number,
	take: (page: SessionsPage) => number,
	requestBudget: number,
): Promise<'complete' | 'incomplete'> {
	let requests = 0;
	const group = {
		...filters,
		updatedAfter: iso(instant - ONE_MS),
		updatedBefore: iso(instant + ONE_MS),
		sortBy: 'createdAt',
		sortOrder: 'asc',
	};
	const fetch = async (query: SessionsQuery, offset: number) => {
		requests++;
		return await fetchSessionsPage(ctx, query, { limit: MAX_PAGE_SIZE, offset }, 0, POLL_RETRY_POLICY);
	};
	let createdAfterMs: number | undefined;
	let createdPosition = Number.NEGATIVE_INFINITY;
	let exhaustedCreated: number | undefined;
	for (;;) {
		if (requests >= requestBudget) return 'incomplete';
		const query = createdAfterMs === undefined ? group : { ...group, createdAfter: iso(createdAfterMs) };
		const page = await fetch(query, 0);
		take(page);
		if (!page.pagination.hasMore || page.sessions.length === 0) return 'complete';
		const newestCreated = Math.max(
			...page.sessions.map((s) => Date.parse(String(s.createdAt))).filter((t) => !Number.isNaN(t)),
		);
		if (newestCreated > createdPosition) {
			createdPosition = newestCreated;
			createdAfterMs = newestCreated - ONE_MS;
			continue;
		}
		if (exhaustedCreated === createdPosition) {
			createdAfterMs = createdPosition + ONE_MS;
			continue;
		}
		// More than a page share both instants: offsets, at least twice over, and until
		// every row the service counts has been seen. Offsets cover the group in one pass
		// only if the service orders equal rows the same way on every request, which
		// nothing promises; with any other order a pass sees a random part of it.
		const sameInstants = {
			...group,
			createdAfter: iso(createdPosition - ONE_MS),
			createdBefore: iso(createdPosition + ONE_MS),
		};
		const seen = new Set<unknown>();
		let total = Number.POSITIVE_INFINITY;
		for (let pass = 0; pass < 2 || seen.size < total; pass++) {
			for (let offset = 0; ; offset += MAX_PAGE_SIZE) {
				if (requests >= requestBudget) return 'incomplete';
				const subPage = await fetch(sameInstants, offset);
				take(subPage);
				for (const session of subPage.sessions) seen.add(session.sessionId);
				total = subPage.pagination.total;
				if (!subPage.pagination.hasMore) break;
			}
		}
		exhaustedCreated = createdPosition;
		createdAfterMs = createdPosition;
	}
}

function iso(ms: number): string {
	return new Date(ms).toISOString();
}
