import { sleep } from 'n8n-workflow';

import type { RequestFailure } from '../errors/failure';
import { isTransient, mayHaveReachedAirSign } from '../errors/failure';
import type { FailureMessages } from '../errors/messages';
import { lostWriteText } from '../errors/messages';
import { toNodeError } from '../errors/nodeError';
import { requestLimitText } from '../helpers/constants';
import { utcTimeOfDay } from '../helpers/dates';
import type { RateLimitState } from './answerHeaders';
import { poolOf } from './pool';
import type { AirSignContext, ApiAnswer, ApiRequest } from './request';
import { tryApiRequest } from './request';

/** Waits between attempts of a read after a transient failure (as Get Many does). */
const TRANSIENT_BACKOFF_MS = [500, 2000, 5000];
/** Extra attempts of a read after a transient failure. */
export const READ_TRANSIENT_RETRIES = 2;
/**
 * Most 429s one call waits out: a call waits as long as its waits add up to no more than Max
 * Wait on Rate Limit; this only bounds a service answering 429 with Retry-After 0 for ever.
 */
const MAX_RATE_LIMIT_RETRIES = 20;

/** The words of a 429's message: whose hourly budget (requests an hour) is used up. */
export interface UsedUpWords {
	/** "request budget", "List Sessions budget". */
	name: string;
	/** The budget in a sentence, given the limit AirSign announced. */
	explain: (limit?: number) => string;
	/** What the builder can do about it. */
	advice: string;
}

/** The budget of every request but List Sessions (sessions by ID, templates, invitations, creation). */
export const REQUESTS_USED_UP: UsedUpWords = {
	name: 'request budget',
	explain: requestLimitText,
	advice: 'Run again after the reset.',
};

export interface CallPolicy {
	/** The operation's words for its failures; a function reads them off the failed answer. */
	failures: FailureMessages | ((answer: ApiAnswer) => FailureMessages);
	/** Longest wait for a 429's Retry-After; a longer one fails with the reset time. 0: never wait. */
	maxRateLimitWaitMs: number;
	/**
	 * A write (not idempotent): never repeated after a failure that may have reached AirSign,
	 * and the error says what may exist ("the session may exist"; without it, the operation's
	 * own words). Absent: a read, whose transient failures are retried.
	 */
	write?: { mayExist?: string };
	/** A read's extra attempts after a transient failure (default {@link READ_TRANSIENT_RETRIES}). */
	transientRetries?: number;
	/** The words of a 429's message (default {@link REQUESTS_USED_UP}). */
	usedUp?: UsedUpWords;
	/** Told what every answer, a failed one too, said about the budget (the trigger keeps it). */
	onRateLimit?: (rateLimit: RateLimitState) => void;
	/** A 2xx answer the caller cannot use, as a failure (then handled as an unreadable answer). */
	unusable?: (answer: ApiAnswer) => RequestFailure | undefined;
}

/**
 * One call to AirSign for an operation. A 429 was not processed, so any call waits out its
 * Retry-After within the policy and tries again; a read also retries 5xx, dropped connections
 * and unreadable answers; a write never does. Anything else throws a NodeApiError in the
 * operation's words.
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
		try {
			answer = await tryApiRequest(ctx, request);
		} finally {
			// A 429's own statement is its Retry-After, which pauses the pool below.
			const stated = answer?.statusCode !== undefined && answer.statusCode !== 429;
			pool?.answered(stated ? answer!.rateLimit : undefined, stated && !answer!.failure);
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
				if (pool) pool.pauseFor(pauseMs, pausesBefore);
				else await sleep(pauseMs);
				continue;
			}
			throw await toNodeError(ctx, failure, request.itemIndex, {
				...messages,
				429: usedUpText(answer.rateLimit, policy, waitMs),
			});
		}
		if (policy.write) {
			if (mayHaveReachedAirSign(failure) && policy.write.mayExist !== undefined) {
				const text = lostWriteText(failure, policy.write.mayExist);
				throw await toNodeError(ctx, failure, request.itemIndex, messages, text);
			}
		} else if (
			isTransient(failure) &&
			transientAttempts < (policy.transientRetries ?? READ_TRANSIENT_RETRIES) &&
			!isCancelled(ctx)
		) {
			await sleep(
				TRANSIENT_BACKOFF_MS[Math.min(transientAttempts, TRANSIENT_BACKOFF_MS.length - 1)],
			);
			transientAttempts++;
			continue;
		}
		throw await toNodeError(ctx, failure, request.itemIndex, messages);
	}
}

/** The 429 message: whose budget, when it resets, and how long this node would have waited. */
function usedUpText(
	rateLimit: RateLimitState,
	{ maxRateLimitWaitMs, usedUp = REQUESTS_USED_UP }: CallPolicy,
	waitMs: number | undefined,
) {
	const reset =
		rateLimit.resetAt !== undefined ? ` It resets at ${utcTimeOfDay(rateLimit.resetAt)} UTC` : '';
	const inMinutes =
		waitMs !== undefined ? ` (in ${Math.max(1, Math.ceil(waitMs / 60_000))} min)` : '';
	const waited =
		maxRateLimitWaitMs > 0
			? `This node waits at most ${Math.round(maxRateLimitWaitMs / 1000)} s for the budget (option "Max Wait on Rate Limit"). `
			: '';
	return {
		message: `AirSign's ${usedUp.name} is used up.${reset}${inMinutes}`,
		description: `${usedUp.explain(rateLimit.limit)}. ${waited}${usedUp.advice}`,
	};
}

function isCancelled(ctx: AirSignContext): boolean {
	return 'getExecutionCancelSignal' in ctx && ctx.getExecutionCancelSignal()?.aborted === true;
}
