import type { IDataObject } from 'n8n-workflow';

import { LISTING_DELAY_MS } from '../helpers/constants';
import { msOfBound, utcIsoFromMs } from '../helpers/dates';
import { PageReader, readByKeys } from './keysetPages';
import type { AirSignContext } from './request';
import type { RetryPolicy, SessionsQuery } from './sessionPages';

/**
 * Return All (docs/operations.md#session--get-many). Read by creation time and by keys, where an
 * update never moves a session, one that stops matching moves no other, and a creation only adds
 * one at the end: no page boundary skips a session. When that took more than one page, the
 * sessions updated since the first answer (2 s early, so a strict or an inclusive "after" both
 * work) replace the states read before. Then in `query`'s order.
 */
export async function readAllSessions(
	ctx: AirSignContext,
	query: SessionsQuery,
	itemIndex: number,
	policy: Omit<RetryPolicy, 'deadline'>,
): Promise<IDataObject[]> {
	const reader = new PageReader(ctx, { ...policy, itemIndex }, true);
	const sessions = new Map<unknown, IDataObject>();
	let start = -Infinity;
	// A later answer holds a session's newer state.
	const take = (session: IDataObject) => {
		// Without a Date header: the newest update the first page shows, which came before it.
		if (reader.requests === 1) start = reader.serverTime ?? Math.max(start, updatedAtOf(session));
		sessions.set(session.sessionId, session);
	};
	await readByKeys(reader, query, ['createdAt'], {}, take);
	if (reader.requests > 1) {
		const after = Math.max(start - LISTING_DELAY_MS, msOfBound(query.updatedAfter, -Infinity));
		if (after < msOfBound(query.updatedBefore, Infinity))
			await readByKeys(
				reader,
				{ ...query, updatedAfter: utcIsoFromMs(after) },
				['createdAt'],
				{},
				take,
			);
	}
	return [...sessions.values()].sort(inSortOrder(query));
}

const updatedAtOf = (session: IDataObject) => Date.parse(String(session.updatedAt));

/**
 * Return All's order, AirSign's default `updatedAt` desc when none is set: names without case, by
 * character code; sessions without the date (not completed) last either way; ties by session ID.
 */
function inSortOrder({ sortBy = 'updatedAt', sortOrder = 'desc' }: SessionsQuery) {
	const direction = sortOrder === 'asc' ? 1 : -1;
	const key = (s: IDataObject) => {
		if (sortBy === 'name') return String(s.name ?? '').toLowerCase();
		const time = Date.parse(String(s[sortBy]));
		return Number.isNaN(time) ? null : time;
	};
	return (a: IDataObject, b: IDataObject) => {
		const [x, y] = [key(a), key(b)];
		const primary = x === y ? 0 : x === null ? 1 : y === null ? -1 : x < y ? -direction : direction;
		return primary || (String(a.sessionId) < String(b.sessionId) ? -1 : 1);
	};
}
