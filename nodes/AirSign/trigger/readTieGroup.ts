import { MAX_PAGE_SIZE } from '../helpers/constants';
import { isoFromMs } from '../helpers/dates';
import type { SessionsPage, SessionsQuery } from '../transport/sessionPages';
import { ONE_MS } from './triggerState';

/** Fetches one page of List Sessions for a query, from an offset. */
export type FetchPage = (query: SessionsQuery, offset: number) => Promise<SessionsPage>;

/** Takes in what a page shows; returns its newest updatedAt. */
export type TakePage = (page: SessionsPage) => number;

/**
 * Reads every session updated at exactly `instant`, a group larger than a page.
 * Within it, pages by creation time (again by cursor); only a group that also
 * shares one creation time falls back to offsets, read twice so that a row
 * shifted by a concurrent change is still seen. Reports whether it read the whole
 * group within `requestBudget`, and how many requests it made.
 */
export async function readTieGroup(
	fetchPage: FetchPage,
	filters: SessionsQuery,
	instant: number,
	take: TakePage,
	requestBudget: number,
): Promise<{ complete: boolean; requests: number }> {
	let requests = 0;
	const group = {
		...filters,
		updatedAfter: isoFromMs(instant - ONE_MS),
		updatedBefore: isoFromMs(instant + ONE_MS),
		sortBy: 'createdAt',
		sortOrder: 'asc',
	};
	const fetch = async (query: SessionsQuery, offset: number) => {
		requests++;
		return await fetchPage(query, offset);
	};
	let createdAfterMs: number | undefined;
	let createdPosition = Number.NEGATIVE_INFINITY;
	let exhaustedCreated: number | undefined;
	for (;;) {
		if (requests >= requestBudget) return { complete: false, requests };
		const query =
			createdAfterMs === undefined ? group : { ...group, createdAfter: isoFromMs(createdAfterMs) };
		const page = await fetch(query, 0);
		take(page);
		if (!page.pagination.hasMore || page.sessions.length === 0) return { complete: true, requests };
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
			createdAfter: isoFromMs(createdPosition - ONE_MS),
			createdBefore: isoFromMs(createdPosition + ONE_MS),
		};
		const seen = new Set<unknown>();
		let total = Number.POSITIVE_INFINITY;
		for (let pass = 0; pass < 2 || seen.size < total; pass++) {
			for (let offset = 0; ; offset += MAX_PAGE_SIZE) {
				if (requests >= requestBudget) return { complete: false, requests };
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
