import type { IDataObject, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { NODE_DEFECT } from '../errors/declaredFailure';
import { MAX_PAGE_SIZE } from '../helpers/constants';
import { isoFromMs } from '../helpers/dates';
import type { SessionsPage, SessionsQuery } from '../transport/sessionPages';
import type { EventMemory, KnownState, PictureProgress } from './knownStates';
import { sessionKey } from './knownStates';
import { PollBudgetSpent } from './pollBudget';
import { IN_FLIGHT_STATUSES, knownStateOf } from './sessionEvents';
import { ONE_MS } from './triggerState';

/** Fetches one page (at most a full page) of List Sessions, from an offset. */
export type FetchPicturePage = (query: SessionsQuery, offset: number) => Promise<SessionsPage>;

export interface PictureLimits {
	/** Requests this poll may still make for the picture. */
	maxRequests: number;
	/** Stop once the service reports this many List Sessions requests or fewer left. */
	reserveRequests: number;
	/** Stamped on what the picture adds: when the trigger saw it (the poll's cursor). */
	seenAt: number;
	/** The trigger node, named by an unexpected error. */
	node: INode;
}

export interface PictureOutcome {
	requests: number;
	/** What the picture added to the memory. */
	added: Map<string, KnownState>;
	/** The request failure that stopped the reading, if one did. */
	fault?: NodeApiError;
}

/**
 * Reads (part of) the starting picture: the sessions in flight (draft, pending, inProgress) that
 * existed at the start, matching the node's filters, into the memory as the states the events
 * are diffed against. It pages by creation time (asking 1 ms early and dropping what it already
 * read), never by offset, so sessions that change while it reads cannot shift pages; it stops at
 * the request cap, at the reserve or at a failure, and continues from there at the next poll.
 *
 * Only a state the session had at the start is taken: one updated at or after the start already
 * changed (the update stream delivers that change, against an unknown previous state), and a
 * session the memory already knows keeps what it knows (the stream saw it later than this).
 */
export async function readStartingPicture(
	fetchPage: FetchPicturePage,
	memory: EventMemory,
	filters: SessionsQuery,
	limits: PictureLimits,
): Promise<PictureOutcome> {
	const progress: PictureProgress = memory.picture ?? { ids: [] };
	let requests = 0;
	const added = new Map<string, KnownState>();
	const base: SessionsQuery = {
		...filters,
		status: IN_FLIGHT_STATUSES.join(','),
		createdBefore: isoFromMs(memory.start),
		sortBy: 'createdAt',
		sortOrder: 'asc',
	};
	const take = (session: IDataObject) => {
		const updatedAt = Date.parse(String(session.updatedAt));
		if (Number.isNaN(updatedAt) || updatedAt >= memory.start) return;
		if (!IN_FLIGHT_STATUSES.includes(String(session.status))) return;
		const key = sessionKey(session.sessionId);
		if (memory.known.has(key)) return;
		const state = knownStateOf(session, limits.seenAt);
		memory.known.set(key, state);
		added.set(key, state);
	};
	const budgetLow = (page: SessionsPage) =>
		page.rateLimit.remaining !== undefined && page.rateLimit.remaining <= limits.reserveRequests;

	try {
		for (;;) {
			if (requests >= limits.maxRequests) return { requests, added };
			const position = progress.createdAt;
			const createdAfter =
				position === undefined ? undefined : progress.groupDone ? position : position - ONE_MS;
			requests++;
			const page = await fetchPage(
				createdAfter === undefined ? base : { ...base, createdAfter: isoFromMs(createdAfter) },
				0,
			);
			const seen = new Set(progress.ids);
			let newest = position ?? Number.NEGATIVE_INFINITY;
			let fresh = 0;
			for (const session of page.sessions) {
				const createdAt = Date.parse(String(session.createdAt));
				if (Number.isNaN(createdAt)) continue;
				if (position !== undefined && createdAt < position) continue;
				const id = String(session.sessionId).toLowerCase();
				if (createdAt === position && seen.has(id)) continue;
				fresh++;
				take(session);
				if (createdAt > newest) {
					newest = createdAt;
					seen.clear();
				}
				if (createdAt === newest) seen.add(id);
			}
			if (newest !== position) {
				progress.createdAt = newest;
				progress.groupDone = undefined;
			}
			progress.ids = [...seen];
			if (!page.pagination.hasMore || page.sessions.length === 0) {
				memory.picture = undefined;
				return { requests, added };
			}
			memory.picture = progress;
			if (budgetLow(page)) return { requests, added };
			if (fresh > 0 && newest !== position) continue;
			if (progress.groupDone) {
				// Asked for "after" the group and it came back: createdAfter is inclusive here.
				progress.createdAt = newest + ONE_MS;
				progress.ids = [];
				progress.groupDone = undefined;
				continue;
			}
			// A whole page created at one instant: read that group by offsets, then move past it.
			// Offsets cover it in one pass only if the service orders equal rows the same way on
			// every request, which nothing promises: at least two passes, and until every row the
			// service counts was seen (as readTieGroup does for updatedAt).
			const group = {
				...base,
				createdAfter: isoFromMs(newest - ONE_MS),
				createdBefore: isoFromMs(Math.min(newest + ONE_MS, memory.start)),
			};
			const groupSeen = new Set(progress.ids);
			let total = Number.POSITIVE_INFINITY;
			for (let pass = 0; pass < 2 || groupSeen.size < total; pass++) {
				for (let offset = 0; ; offset += MAX_PAGE_SIZE) {
					if (requests >= limits.maxRequests) return { requests, added };
					requests++;
					const groupPage = await fetchPage(group, offset);
					for (const session of groupPage.sessions) {
						take(session);
						groupSeen.add(String(session.sessionId).toLowerCase());
					}
					total = groupPage.pagination.total;
					if (!groupPage.pagination.hasMore || groupPage.sessions.length === 0) break;
				}
			}
			progress.groupDone = true;
			progress.ids = [];
		}
	} catch (error) {
		if (error instanceof NodeApiError) return { requests, added, fault: error };
		// Out of the poll's time: it stops as at the request cap and continues next poll.
		if (error instanceof PollBudgetSpent) return { requests, added };
		// A bug (a TypeError, …) is no passing fault: it surfaces at once.
		throw new NodeOperationError(limits.node, error as Error, { failure: NODE_DEFECT });
	}
}
