import type { IDataObject } from 'n8n-workflow';

import type { RequestFailure } from '../errors/failure';
import { MALFORMED_RESPONSE } from '../errors/failure';
import { UUID_PATTERN, listSessionsLimitText } from '../helpers/constants';
import type { RateLimitState } from './answerHeaders';
import type { UsedUpWords, CallPolicy } from './call';
import { callAirSign } from './call';
import type { OffsetPage } from './offsetPages';
import type { AirSignContext, ApiAnswer } from './request';

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

export interface Pagination {
	total: number;
	limit: number;
	offset: number;
	hasMore: boolean;
}

export interface SessionsPage {
	sessions: IDataObject[];
	pagination: Pagination;
	rateLimit: RateLimitState;
	/** The service's clock, from its Date header (whole seconds), when it sent one. */
	serverTime?: number;
}

/** List Sessions has its own hourly budget (LIST_SESSIONS_HOURLY_BUDGET), shared with every trigger. */
const LIST_SESSIONS_USED_UP: UsedUpWords = {
	name: 'List Sessions budget',
	explain: listSessionsLimitText,
	advice: 'Run again after the reset, use "Limit" instead of "Return All", or poll less often.',
};

/** How a page is asked for: the call policy of a read, with its retries said outright. */
export type RetryPolicy = Pick<CallPolicy, 'maxRateLimitWaitMs' | 'onRateLimit'> &
	Required<Pick<CallPolicy, 'transientRetries'>>;

/**
 * Fetches one page. A 429 is waited out when its Retry-After is within the policy;
 * 5xx answers, dropped connections and malformed bodies are retried a few times
 * (List Sessions only reads, so a retry is safe). Anything else fails at once with a
 * NodeApiError.
 */
export async function fetchSessionsPage(
	ctx: AirSignContext,
	query: SessionsQuery,
	page: { limit: number; offset: number },
	itemIndex: number,
	policy: RetryPolicy,
): Promise<SessionsPage> {
	const answer = await callAirSign(
		ctx,
		{
			method: 'GET',
			path: '/Sessions',
			qs: { ...withoutEmpty(query), limit: page.limit, offset: page.offset },
			itemIndex,
		},
		{ ...policy, failures: {}, usedUp: LIST_SESSIONS_USED_UP, unusable: malformedPage },
	);
	const { sessions, pagination } = answer.body as {
		sessions: IDataObject[];
		pagination: Pagination;
	};
	return { sessions, pagination, rateLimit: answer.rateLimit, serverTime: answer.serverTime };
}

/** List Sessions as the offset pager reads it (transport/offsetPages.ts). */
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

function malformedPage(answer: ApiAnswer): RequestFailure | undefined {
	const body = answer.body as
		| { sessions?: unknown; pagination?: { hasMore?: unknown } }
		| undefined;
	if (
		Array.isArray(body?.sessions) &&
		typeof body?.pagination?.hasMore === 'boolean' &&
		body.sessions.every(isReadableSession)
	)
		return undefined;
	return { status: answer.statusCode, code: MALFORMED_RESPONSE };
}

/**
 * A session the trigger can place and a workflow can use: an object with its ID and a time (and
 * recipients, if any, that are objects: the trigger reads them to tell states apart). One
 * that is not makes the whole page unreadable: skipping it would let the cursor pass it unseen.
 */
function isReadableSession(session: unknown): boolean {
	if (session === null || typeof session !== 'object' || Array.isArray(session)) return false;
	const { sessionId, updatedAt, recipients } = session as IDataObject;
	const isObject = (value: unknown) =>
		value !== null && typeof value === 'object' && !Array.isArray(value);
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

function withoutEmpty(query: SessionsQuery): IDataObject {
	const result: IDataObject = {};
	for (const [key, value] of Object.entries(query)) {
		if (value !== undefined && value !== '') result[key] = value;
	}
	return result;
}
