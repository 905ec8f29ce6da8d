import { sleep } from 'n8n-workflow';

import type { RequestFailure } from '../errors/failure';
import { isTransient, mayHaveReachedAirSign } from '../errors/failure';
import type { FailureMessages } from '../errors/messages';
import { lostWriteText } from '../errors/messages';
import { toNodeError } from '../errors/nodeError';
import { listSessionsLimitText, requestLimitText } from '../helpers/constants';
import { utcTimeOfDay } from '../helpers/dates';
import type { RateLimitState } from './answerHeaders';
import { poolOf } from './pool';
import type { AirSignContext, ApiAnswer, ApiRequest } from './request';
import { tryApiRequest } from './request';

const TRANSIENT_BACKOFF_MS = [500, 2000, 5000];
const READ_TRANSIENT_RETRIES = 2;
/** Bounds a service answering 429 with Retry-After 0 for ever; Max Wait bounds the rest. */
const MAX_RATE_LIMIT_RETRIES = 20;

export interface CallPolicy {
	/** The operation's words for its failures; a function reads them off the failed answer. */
	failures: FailureMessages | ((answer: ApiAnswer) => FailureMessages);
	/** Longest wait for the rate limit (option "Max Wait on Rate Limit"); 0: never wait. */
	maxRateLimitWaitMs: number;
	/** Not sent again after a failure that may have reached AirSign; `mayExist` words the error. */
	write?: { mayExist?: string };
	// For the list readers: a read's retries, a 2xx they cannot use, every answer's budget.
	transientRetries?: number;
	unusable?: (answer: ApiAnswer) => RequestFailure | undefined;
	onRateLimit?: (rateLimit: RateLimitState) => void;
	/** A poll's end: each attempt's timeout is the time left, and a retry starts only if allowed. */
	deadline?: { endsAt: number; allowsRequest(at: number): boolean };
}

/**
 * One call to AirSign. A 429 was not processed, so any call waits out its Retry-After within the
 * policy; a read also retries 5xx, dropped connections and unreadable answers; a write never does.
 */
export async function callAirSign(
	ctx: AirSignContext,
	request: ApiRequest,
	policy: CallPolicy,
): Promise<ApiAnswer> {
	let transientAttempts = 0;
	let rateLimitAttempts = 0;
	let rateLimitWaitedMs = 0;
	const pool = poolOf(ctx);
	for (;;) {
		const pausesBefore = await pool?.turn(request.itemIndex, policy.maxRateLimitWaitMs);
		let answer: ApiAnswer | undefined;
		const timeoutMs = policy.deadline && Math.max(1, policy.deadline.endsAt - Date.now());
		try {
			answer = await tryApiRequest(ctx, timeoutMs ? { ...request, timeoutMs } : request);
		} finally {
			const answered = answer?.statusCode !== undefined;
			pool?.answered(answered ? answer!.rateLimit : undefined, answered && !answer!.failure);
		}
		if (answer.statusCode !== undefined) policy.onRateLimit?.(answer.rateLimit);
		const failure = answer.failure ?? policy.unusable?.(answer);
		if (!failure) return answer;
		const messages =
			typeof policy.failures === 'function' ? policy.failures(answer) : policy.failures;

		if (failure.status === 429) {
			const waitMs = answer.rateLimit.retryAfterMs ?? answer.rateLimit.msUntilReset;
			if (
				waitMs !== undefined &&
				rateLimitWaitedMs + waitMs <= policy.maxRateLimitWaitMs &&
				rateLimitAttempts < MAX_RATE_LIMIT_RETRIES &&
				!isCancelled(ctx)
			) {
				rateLimitAttempts++;
				const pauseMs = Math.max(waitMs, 250);
				rateLimitWaitedMs += pauseMs;
				// In a pool every request of the execution waits, this one in its next turn.
				if (pool) pool.rateLimited(pauseMs, pausesBefore!);
				else await sleep(pauseMs);
				continue;
			}
			const usedUp = usedUpText(request, answer.rateLimit, policy.maxRateLimitWaitMs, waitMs);
			throw await toNodeError(ctx, failure, request.itemIndex, { ...messages, 429: usedUp });
		}
		const mayExist = policy.write?.mayExist;
		if (mayExist !== undefined && mayHaveReachedAirSign(failure)) {
			const text = lostWriteText(failure, mayExist);
			throw await toNodeError(ctx, failure, request.itemIndex, messages, text);
		}
		const retries = policy.write ? 0 : (policy.transientRetries ?? READ_TRANSIENT_RETRIES);
		const backoffMs =
			TRANSIENT_BACKOFF_MS[Math.min(transientAttempts, TRANSIENT_BACKOFF_MS.length - 1)];
		if (
			isTransient(failure) &&
			transientAttempts < retries &&
			!isCancelled(ctx) &&
			policy.deadline?.allowsRequest(Date.now() + backoffMs) !== false
		) {
			transientAttempts++;
			await sleep(backoffMs);
			continue;
		}
		throw await toNodeError(ctx, failure, request.itemIndex, messages);
	}
}

/** The 429 message: whose budget (List Sessions has its own), when it resets, how long we waited. */
function usedUpText(
	{ method, path }: ApiRequest,
	{ limit, resetAt }: RateLimitState,
	maxRateLimitWaitMs: number,
	waitMs: number | undefined,
) {
	const listSessions = method === 'GET' && path === '/Sessions';
	const reset = resetAt !== undefined ? ` It resets at ${utcTimeOfDay(resetAt)} UTC` : '';
	const inMinutes =
		waitMs !== undefined ? ` (in ${Math.max(1, Math.ceil(waitMs / 60_000))} min)` : '';
	const waited =
		maxRateLimitWaitMs > 0
			? `This node waits at most ${Math.round(maxRateLimitWaitMs / 1000)} s for the budget (option 'Max Wait on Rate Limit'). `
			: '';
	return listSessions
		? {
				message: `AirSign's List Sessions budget is used up.${reset}${inMinutes}`,
				description: `${listSessionsLimitText(limit)}. ${waited}Run again after the reset, use 'Limit' instead of 'Return All', or poll less often.`,
			}
		: {
				message: `AirSign's request budget is used up.${reset}${inMinutes}`,
				description: `${requestLimitText(limit)}. ${waited}Run again after the reset.`,
			};
}

function isCancelled(ctx: AirSignContext): boolean {
	return 'getExecutionCancelSignal' in ctx && ctx.getExecutionCancelSignal()?.aborted === true;
}
