import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { RequestFailure } from '../errors/failure';
import { MALFORMED_RESPONSE, isTransient } from '../errors/failure';
import { toNodeError } from '../errors/nodeError';
import type { FailureMessages } from '../errors/wording';
import { MAX_PAGE_SIZE, listSessionsBudgetText } from '../helpers/constants';
import type { RateLimitState } from './answerHeaders';
import { isCancelled, MAX_RATE_LIMIT_RETRIES, TRANSIENT_BACKOFF_MS } from './call';
import type { AirSignContext, ApiAnswer } from './request';
import { tryApiRequest } from './request';

/** Query parameters of List Sessions (spec 4.3) other than limit and offset. */
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

export interface RetryPolicy {
	/** Longest wait for a 429's Retry-After; a longer one fails with the reset time. 0: never wait. */
	maxRateLimitWaitMs: number;
	/** Extra attempts after a 5xx, a dropped connection or a non-JSON answer. */
	transientRetries: number;
	/** Told what every answer, a 429 included, said about the budget (the trigger keeps it). */
	onRateLimit?: (rateLimit: RateLimitState) => void;
}

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
	let transientAttempts = 0;
	let rateLimitAttempts = 0;
	for (;;) {
		const answer = await tryApiRequest(ctx, {
			method: 'GET',
			path: '/Sessions',
			qs: { ...withoutEmpty(query), limit: page.limit, offset: page.offset },
			itemIndex,
		});
		if (answer.statusCode !== undefined) policy.onRateLimit?.(answer.rateLimit);
		const failure = answer.failure ?? malformedPage(answer);
		if (!failure) {
			const { sessions, pagination } = answer.body as {
				sessions: IDataObject[];
				pagination: Pagination;
			};
			return { sessions, pagination, rateLimit: answer.rateLimit, serverTime: answer.serverTime };
		}

		if (failure.status === 429) {
			const waitMs = answer.rateLimit.retryAfterMs ?? answer.rateLimit.msUntilReset;
			if (
				waitMs !== undefined &&
				waitMs <= policy.maxRateLimitWaitMs &&
				rateLimitAttempts < MAX_RATE_LIMIT_RETRIES &&
				!isCancelled(ctx)
			) {
				rateLimitAttempts++;
				await sleep(Math.max(waitMs, 250));
				continue;
			}
			throw await toNodeError(
				ctx,
				failure,
				itemIndex,
				budgetUsedUp(answer.rateLimit, policy, waitMs),
			);
		}
		if (isTransient(failure) && transientAttempts < policy.transientRetries && !isCancelled(ctx)) {
			await sleep(
				TRANSIENT_BACKOFF_MS[Math.min(transientAttempts, TRANSIENT_BACKOFF_MS.length - 1)],
			);
			transientAttempts++;
			continue;
		}
		throw await toNodeError(ctx, failure, itemIndex, {});
	}
}

/**
 * Get Many: pages by offset with the largest page the service allows (Return All)
 * or exactly what the limit still needs, until hasMore is false.
 */
export async function listSessions(
	ctx: AirSignContext,
	query: SessionsQuery,
	options: { returnAll: boolean; limit: number },
	itemIndex: number,
	policy: RetryPolicy,
): Promise<IDataObject[]> {
	const wanted = options.returnAll ? Number.POSITIVE_INFINITY : options.limit;
	const sessions: IDataObject[] = [];
	// Offset paging over a list that changes while it is read can show a row twice;
	// one item per session is what a workflow expects.
	const seen = new Set<unknown>();
	let offset = 0;
	while (sessions.length < wanted) {
		const pageSize = Math.min(MAX_PAGE_SIZE, wanted - sessions.length);
		const page = await fetchSessionsPage(
			ctx,
			query,
			{ limit: pageSize, offset },
			itemIndex,
			policy,
		);
		for (const session of page.sessions) {
			if (seen.has(session.sessionId)) continue;
			seen.add(session.sessionId);
			sessions.push(session);
		}
		if (!page.pagination.hasMore || page.sessions.length === 0) break;
		offset += page.sessions.length;
	}
	return sessions.slice(0, wanted);
}

function budgetUsedUp(
	rateLimit: RateLimitState,
	policy: RetryPolicy,
	waitMs: number | undefined,
): FailureMessages {
	const reset =
		rateLimit.resetAt !== undefined
			? ` It resets at ${new Date(rateLimit.resetAt).toISOString().slice(11, 19)} UTC`
			: '';
	const inMinutes =
		waitMs !== undefined ? ` (in ${Math.max(1, Math.ceil(waitMs / 60_000))} min)` : '';
	const waited =
		policy.maxRateLimitWaitMs > 0
			? `This node waits at most ${Math.round(policy.maxRateLimitWaitMs / 1000)} s for the budget (option "Max Wait on Rate Limit"). `
			: '';
	return {
		429: {
			message: `AirSign's List Sessions budget is used up.${reset}${inMinutes}`,
			description: `${listSessionsBudgetText(rateLimit.limit)}. ${waited}Run again after the reset, use "Limit" instead of "Return All", or poll less often.`,
		},
	};
}

function malformedPage(answer: ApiAnswer): RequestFailure | undefined {
	const body = answer.body as
		| { sessions?: unknown; pagination?: { hasMore?: unknown } }
		| undefined;
	if (Array.isArray(body?.sessions) && typeof body?.pagination?.hasMore === 'boolean')
		return undefined;
	return { status: answer.statusCode, code: MALFORMED_RESPONSE };
}

function withoutEmpty(query: SessionsQuery): IDataObject {
	const result: IDataObject = {};
	for (const [key, value] of Object.entries(query)) {
		if (value !== undefined && value !== '') result[key] = value;
	}
	return result;
}
