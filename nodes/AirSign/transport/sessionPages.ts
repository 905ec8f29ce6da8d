import type { IDataObject } from 'n8n-workflow';

import { MALFORMED_RESPONSE } from '../errors/failure';
import { notFound } from '../errors/messages';
import { UUID_PATTERN } from '../helpers/constants';
import type { RateLimitState } from './answerHeaders';
import type { CallPolicy } from './call';
import { callAirSign } from './call';
import type { OffsetPage } from './offsetPages';
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
