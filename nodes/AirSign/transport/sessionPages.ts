import type { IDataObject } from 'n8n-workflow';

import { MALFORMED_RESPONSE } from '../errors/failure';
import { notFound } from '../errors/messages';
import { MAX_PAGE_SIZE, UUID_PATTERN } from '../helpers/constants';
import { utcIsoFromMs } from '../helpers/dates';
import type { RateLimitState } from './answerHeaders';
import type { CallPolicy } from './call';
import { callAirSign } from './call';
import type { OffsetPage } from './offsetPages';
import { readByOffset } from './offsetPages';
import type { AirSignContext, ApiAnswer } from './request';

/** Get Session (a read: retried on 5xx and dropped connections): Session → Get, and the editor's list of its recipients. */
export async function getSession(
	ctx: AirSignContext,
	sessionId: string,
	itemIndex: number,
	maxRateLimitWaitMs: number,
): Promise<IDataObject> {
	const { body } = await callAirSign(
		ctx,
		{ method: 'GET', path: `/Session/${encodeURIComponent(sessionId)}`, itemIndex },
		{ failures: { 404: notFound('session') }, maxRateLimitWaitMs },
	);
	return body as IDataObject;
}

/** Query parameters of List Sessions other than limit and offset. */
export interface SessionsQuery {
	status?: string;
	name?: string;
	recipientEmail?: string;
	createdAfter?: string;
	createdBefore?: string;
	updatedAfter?: string;
	updatedBefore?: string;
	sortBy?: string;
	sortOrder?: string;
}

export interface SessionsPage {
	sessions: IDataObject[];
	pagination: { total: number; limit: number; offset: number; hasMore: boolean };
	rateLimit: RateLimitState;
	serverTime?: number;
}

export type RetryPolicy = Pick<
	CallPolicy,
	'maxRateLimitWaitMs' | 'transientRetries' | 'deadline' | 'onRateLimit'
>;

/** One page of List Sessions (a read: retried on 5xx and dropped connections). */
export async function fetchSessionsPage(
	ctx: AirSignContext,
	query: SessionsQuery,
	page: { limit: number; offset: number },
	itemIndex: number,
	policy: RetryPolicy,
): Promise<SessionsPage> {
	const set = Object.entries(query).filter(([, value]) => value !== undefined && value !== '');
	const answer = await callAirSign(
		ctx,
		{ method: 'GET', path: '/Sessions', qs: { ...Object.fromEntries(set), ...page }, itemIndex },
		{ ...policy, failures: {}, unusable: malformedPage },
	);
	const { sessions, pagination } = answer.body as SessionsPage;
	return { sessions, pagination, rateLimit: answer.rateLimit, serverTime: answer.serverTime };
}

/** List Sessions as the offset pager reads it. */
export function sessionPages(
	ctx: AirSignContext,
	query: SessionsQuery,
	itemIndex: number,
	policy: RetryPolicy,
): (limit: number, offset: number) => Promise<OffsetPage> {
	return async (limit, offset) => {
		const page = await fetchSessionsPage(ctx, query, { limit, offset }, itemIndex, policy);
		return { rows: page.sessions, hasMore: page.pagination.hasMore };
	};
}

/** As the trigger, the catch-up starts this much before AirSign's clock: an update may show late. */
const CATCH_UP_MARGIN_MS = 2_000;

/**
 * Return All (docs/operations.md#session--get-many). Read by creation time, where an update never
 * moves a session and a creation only adds one at the end, no page boundary skips a session; when
 * that took more than one page, the sessions updated since the first answer (2 s early, so a
 * strict or an inclusive "after" both work) replace the states read before. Then in `query`'s order.
 */
export async function readAllSessions(
	ctx: AirSignContext,
	query: SessionsQuery,
	itemIndex: number,
	policy: RetryPolicy,
): Promise<IDataObject[]> {
	const byCreation: SessionsQuery = { ...query, sortBy: 'createdAt', sortOrder: 'asc' };
	const answers: SessionsPage[] = [];
	const read = async (pagesQuery: SessionsQuery) => {
		const pages = async (limit: number, offset: number) => {
			const page = await fetchSessionsPage(ctx, pagesQuery, { limit, offset }, itemIndex, policy);
			answers.push(page);
			return { rows: page.sessions, hasMore: page.pagination.hasMore };
		};
		const paging = { limit: Infinity, pageSize: MAX_PAGE_SIZE, idField: 'sessionId' };
		return (await readByOffset(pages, paging)).rows;
	};
	const sessions = new Map((await read(byCreation)).map((s) => [s.sessionId, s]));
	if (answers.length > 1) {
		// Without a Date header: the newest update the first page shows, which came before it.
		const [first] = answers;
		const start = first.serverTime ?? Math.max(...first.sessions.map(updatedAtOf));
		const after = Math.max(start - CATCH_UP_MARGIN_MS, timeOf(query.updatedAfter));
		// An answer later than every page's holds each session's newest state.
		if (after < timeOf(query.updatedBefore, Infinity))
			for (const s of await read({ ...byCreation, updatedAfter: utcIsoFromMs(after) }))
				sessions.set(s.sessionId, s);
	}
	return [...sessions.values()].sort(inSortOrder(query));
}

const timeOf = (iso: string | undefined, absent = -Infinity) =>
	iso === undefined ? absent : Date.parse(iso);
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

/**
 * Every session must have its ID, a time, and recipients (if any) that are objects: skipping
 * one the trigger cannot place would let its cursor pass it unseen, so the page is unreadable.
 */
function malformedPage({ body, statusCode }: ApiAnswer) {
	const page = body as { sessions?: unknown; pagination?: { hasMore?: unknown } } | undefined;
	const readable =
		Array.isArray(page?.sessions) &&
		typeof page?.pagination?.hasMore === 'boolean' &&
		page.sessions.every(isReadableSession);
	return readable ? undefined : { status: statusCode, code: MALFORMED_RESPONSE };
}

const isObject = (value: unknown) =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

function isReadableSession(session: unknown): boolean {
	if (!isObject(session)) return false;
	const { sessionId, updatedAt, recipients } = session as IDataObject;
	return (
		(recipients === undefined ||
			recipients === null ||
			(Array.isArray(recipients) && recipients.every(isObject))) &&
		typeof sessionId === 'string' &&
		UUID_PATTERN.test(sessionId) &&
		typeof updatedAt === 'string' &&
		!Number.isNaN(Date.parse(updatedAt))
	);
}
