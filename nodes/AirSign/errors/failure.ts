import type { RateLimitState } from '../transport/answerHeaders';
import type { DeclaredFailure } from './declaredFailure';
import { declaredFailureOf } from './declaredFailure';
import { readServiceErrorCode, readServiceMessage } from './serviceBody';

/**
 * What went wrong with one request, stripped of everything but what a message may show: never
 * a header, so never a token.
 */
export interface RequestFailure {
	/** HTTP status; undefined when no answer came. */
	status?: number;
	/** The service's error code (NOT_A_DRAFT, …), or MALFORMED_RESPONSE for an unusable answer. */
	code?: string;
	serviceMessage?: string;
	/** Node's network error code (ECONNREFUSED, …) when no answer came. */
	networkCode?: string;
	/** A message raised before any answer, e.g. by the credential's token request. */
	otherMessage?: string;
	/** The cause a failure before any answer declared itself (the credential's token request). */
	declared?: DeclaredFailure;
	/** A 429's Retry-After, in ms. */
	retryAfterMs?: number;
	/** A 429's budget reset (X-RateLimit-Reset), as epoch ms on this machine's clock. */
	resetsAtEpochMs?: number;
}

export const MALFORMED_RESPONSE = 'MALFORMED_RESPONSE';

/**
 * A non-2xx answer, or a 2xx answer that is not the JSON object the spec promises. A 429 keeps
 * AirSign's wait hints (read from its headers) for the cause the error declares.
 */
export function failureFromAnswer(
	status: number,
	body: unknown,
	rateLimit: RateLimitState = {},
): RequestFailure | undefined {
	if (status >= 200 && status < 300) {
		if (body !== null && typeof body === 'object') return undefined;
		return { status, code: MALFORMED_RESPONSE };
	}
	return {
		status,
		code: readServiceErrorCode(body),
		serviceMessage: readServiceMessage(body),
		...(status === 429 && waitHints(rateLimit)),
	};
}

/** Retry-After as it came; the reset as a time on this machine's clock (immune to skew). */
function waitHints({ retryAfterMs, msUntilReset }: RateLimitState) {
	return {
		...(retryAfterMs !== undefined && { retryAfterMs }),
		...(msUntilReset !== undefined && { resetsAtEpochMs: Date.now() + msUntilReset }),
	};
}

/**
 * A request that got no answer: a network error, a timeout, or a failed token request. n8n 2.x
 * keeps the network code on the error's cause; n8n-core 1.x puts it in the NodeApiError's
 * `httpCode` ("ECONNREFUSED").
 */
export function failureWithoutAnswer(error: unknown): RequestFailure {
	const thrown = error as {
		message?: string;
		code?: string;
		httpCode?: string | null;
		cause?: { code?: string };
	};
	const networkCode = thrown.cause?.code ?? thrown.code ?? thrown.httpCode;
	if (typeof networkCode === 'string' && /^E[A-Z_]+$/.test(networkCode)) return { networkCode };
	const declared = declaredFailureOf(error) ?? declaredFailureOf(thrown.cause);
	return { otherMessage: thrown.message, ...(declared && { declared }) };
}

/**
 * A failure that may pass by itself and that a read may retry: no answer, a 5xx, or an
 * answer that is not JSON. A write is never retried on these: it may have reached AirSign.
 */
export function isTransient(failure: RequestFailure): boolean {
	if (failure.status === undefined) return failure.networkCode !== undefined;
	return failure.status >= 500 || failure.code === MALFORMED_RESPONSE;
}
