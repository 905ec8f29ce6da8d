import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { NODE_DEFECT } from '../errors/causes';

import { MAX_PAGE_SIZE } from '../helpers/constants';
import { msOfBound, utcIsoFromMs } from '../helpers/dates';
import { readByOffset } from './offsetPages';
import type { AirSignContext } from './request';
import type { RetryPolicy, SessionsPage, SessionsQuery } from './sessionPages';
import { fetchSessionsPage } from './sessionPages';

/** No further request may start in this read: the paging stops as if the list ended here. */
export class Stop extends Error {}

/** The trigger's poll deadline: a request starts only if allowed, and is timed. */
export interface ReadDeadline {
	endsAt: number;
	allowsRequest(at?: number): boolean;
	timed<T>(request: () => Promise<T>): Promise<T>;
}

/** How a reader asks (its item, its retries) and what it may spend; no cap when none is given. */
export interface ReaderOptions extends Omit<RetryPolicy, 'deadline'> {
	itemIndex?: number;
	maxRequests?: number;
	/** Stop once AirSign's answer leaves no more than this of the budget. */
	reserve?: number;
	deadline?: ReadDeadline;
}

/** One read's List Sessions pages: the trigger's poll, or Get Many's Return All. */
export class PageReader {
	requests = 0;
	serverTime?: number;
	/** AirSign's last answer left no more than the reserve. */
	private low = false;

	constructor(
		private readonly ctx: AirSignContext,
		private readonly options: ReaderOptions,
		/**
		 * A full page that says `hasMore: false` ends the read (Get Many: nothing follows it). The
		 * trigger reads on: its cursor would pass whatever a wrong `hasMore` hid.
		 */
		readonly fullPageMayEnd = false,
	) {}

	async page(query: SessionsQuery, offset = 0, limit = MAX_PAGE_SIZE): Promise<SessionsPage> {
		const { itemIndex = 0, maxRequests = Infinity, reserve = -1, ...policy } = this.options;
		const { deadline } = policy;
		if (this.low || this.requests >= maxRequests || deadline?.allowsRequest() === false)
			throw new Stop();
		this.requests++;
		const request = () => fetchSessionsPage(this.ctx, query, { limit, offset }, itemIndex, policy);
		const page = deadline ? await deadline.timed(request) : await request();
		this.serverTime = page.serverTime ?? this.serverTime;
		this.low = page.rateLimit.remaining !== undefined && page.rateLimit.remaining <= reserve;
		return page;
	}
}

export type KeyField = 'updatedAt' | 'createdAt';

/** Where a keyset read stands, saved: the newest instant, and whether or where its rows are read. */
export interface Position {
	at?: number;
	past?: boolean;
	group?: Position | Passes;
}

/** Rows that share every key, read by offsets: where the pass is and what it has seen. */
export interface Passes {
	offset: number;
	/** Session IDs seen since AirSign last changed its count of the rows. */
	seen: string[];
	total?: number;
	/** Rows first seen in this pass. */
	added?: number;
}

const timeOf = (session: IDataObject, field: KeyField) => Date.parse(String(session[field]));

/**
 * Reads every row of `query` from `position` on, ascending by `fields[0]`, each page from the
 * newest instant read, 1 ms early (a strict or an inclusive "after" both work; `take` drops what
 * it has): unlike offsets, a list that changes while it is read cannot skip a row. A tie larger
 * than a page is read by the next field, past the last by offsets. Throws `Stop` when out of
 * requests, with `position` where the next poll goes on.
 */
export async function readByKeys(
	reader: PageReader,
	query: SessionsQuery,
	fields: KeyField[],
	position: Position,
	take: (session: IDataObject) => void,
): Promise<void> {
	const [field, ...next] = fields;
	// List Sessions names the bounds updatedAfter, createdBefore, …
	const [after, before] = [`${field.slice(0, -2)}After`, `${field.slice(0, -2)}Before`];
	// The query's own bounds (Get Many's Created After and Before) hold on every page.
	const own = (bound: string) => query[bound as keyof SessionsQuery];
	const [floor, ceiling] = [msOfBound(own(after), -Infinity), msOfBound(own(before), Infinity)];
	let inclusive = false;
	for (;;) {
		if (position.group) {
			const group = {
				...query,
				[after]: utcIsoFromMs(Math.max(position.at! - 1, floor)),
				[before]: utcIsoFromMs(Math.min(position.at! + 1, ceiling)),
			};
			if (next.length) await readByKeys(reader, group, next, position.group as Position, take);
			else await readByOffsets(reader, group, position.group as Passes, take);
			delete position.group;
			position.past = true;
		}
		const { at, past } = position;
		const from = at === undefined ? undefined : at + (!past ? -1 : inclusive ? 1 : 0);
		const page = await reader.page({
			...query,
			[after]: from === undefined ? own(after) : utcIsoFromMs(Math.max(from, floor)),
			sortBy: field,
			sortOrder: 'asc',
		});
		page.sessions.forEach(take);
		const newest = Math.max(
			...page.sessions.map((s) => timeOf(s, field)).filter((t) => !Number.isNaN(t)),
		);
		const moved = newest > (at ?? Number.NEGATIVE_INFINITY);
		if (moved) Object.assign(position, { at: newest, past: false });
		const full = page.sessions.length === MAX_PAGE_SIZE;
		if (!page.pagination.hasMore && (!full || reader.fullPageMayEnd)) return;
		if (page.sessions.length === 0) return;
		if (moved) continue;
		// The rows at this instant came back although "after" named it: "after" is inclusive here.
		if (past) inclusive = true;
		else position.group = next.length ? {} : { offset: 0, seen: [] };
	}
}

/**
 * Rows that share every key, pass after pass by offsets: nothing promises that equal rows come
 * in the same order on every request, and a row that leaves the group shifts the rest. Done once
 * every row AirSign counts was seen since its count last changed, or a whole pass brought none.
 */
async function readByOffsets(
	reader: PageReader,
	query: SessionsQuery,
	passes: Passes,
	take: (session: IDataObject) => void,
): Promise<void> {
	let seen = new Set(passes.seen);
	const fetchPage = async (_limit: number, offset: number) => {
		const page = await reader.page(query, offset);
		if (page.pagination.total !== passes.total) {
			seen = new Set();
			Object.assign(passes, { seen: [], total: page.pagination.total });
		}
		passes.offset = offset + page.sessions.length;
		return { rows: page.sessions, hasMore: page.pagination.hasMore };
	};
	const keep = (session: IDataObject) => {
		take(session);
		const id = String(session.sessionId);
		if (!seen.has(id)) {
			seen.add(id);
			passes.seen.push(id);
			passes.added = (passes.added ?? 0) + 1;
		}
		return false;
	};
	for (;;) {
		const paging = { limit: Infinity, pageSize: MAX_PAGE_SIZE, idField: 'sessionId' };
		await readByOffset(fetchPage, { ...paging, offset: passes.offset, keep });
		if (!passes.added || seen.size >= passes.total!) return;
		Object.assign(passes, { offset: 0, added: 0 });
	}
}

/** A request failure, or nothing when the read ran out of requests or time; a bug surfaces. */
export function faultOf(ctx: AirSignContext, error: unknown): NodeApiError | undefined {
	if (error instanceof NodeApiError) return error;
	if (error instanceof Stop) return undefined;
	throw new NodeOperationError(ctx.getNode(), error as Error, { failure: NODE_DEFECT });
}
