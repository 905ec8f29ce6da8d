import type { IDataObject } from 'n8n-workflow';

import type { RateLimitState } from '../transport/answerHeaders';
import type { DeclaredFailure } from './causes';
import {
	CONFIGURATION_INVALID,
	CREDENTIAL_INVALID,
	declaredFailureOf,
	TEMPORARILY_UNAVAILABLE,
} from './causes';

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
 * A non-2xx answer, or a 2xx answer that is not a JSON object. A 429 keeps AirSign's wait hints:
 * Retry-After as it came, the reset as a time on this machine's clock (immune to skew).
 */
export function failureFromAnswer(
	status: number,
	body: unknown,
	{ retryAfterMs, msUntilReset }: RateLimitState = {},
): RequestFailure | undefined {
	if (status >= 200 && status < 300) {
		if (body !== null && typeof body === 'object') return undefined;
		return { status, code: MALFORMED_RESPONSE };
	}
	return {
		status,
		code: readServiceErrorCode(body),
		serviceMessage: readServiceMessage(body),
		...(status === 429 && retryAfterMs !== undefined && { retryAfterMs }),
		...(status === 429 &&
			msUntilReset !== undefined && { resetsAtEpochMs: Date.now() + msUntilReset }),
	};
}

/**
 * A request that got no answer: a network error, a timeout, or a failed token request. Where
 * the network code is kept depends on the n8n version (docs/compatibility.md).
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

/** Network failures that happen before a request leaves: nothing reached AirSign. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * A failure after which AirSign may have done the work: the connection dropped or timed out
 * after sending, a 5xx, or an answer that could not be read. A write is never repeated after
 * one of these, since that could create a second session.
 */
export function mayHaveReachedAirSign(failure: RequestFailure): boolean {
	if (failure.status !== undefined)
		return failure.status >= 500 || failure.code === MALFORMED_RESPONSE;
	if (failure.networkCode === undefined) return false;
	return !NOT_SENT.has(failure.networkCode.toUpperCase());
}

/** The cause of a failed request, from its status (or its absence). */
export function causeOfRequestFailure(failure: RequestFailure): DeclaredFailure {
	const { status } = failure;
	if (status === undefined) {
		// The credential's token request declares its own (see AirSignApi.credentials.ts).
		if (failure.declared) return failure.declared;
		// No answer: refused, dropped, timed out, host not found.
		if (failure.networkCode !== undefined) return TEMPORARILY_UNAVAILABLE;
		// n8n refused to send it (a blocked private address, a domain the credential does not allow).
		return CONFIGURATION_INVALID;
	}
	if (status === 429) {
		return {
			cause: 'rate-limited',
			...(failure.retryAfterMs !== undefined && { retryAfterMs: failure.retryAfterMs }),
			...(failure.resetsAtEpochMs !== undefined && { resetsAtEpochMs: failure.resetsAtEpochMs }),
		};
	}
	// An answer that is not JSON (a proxy page, a cut body), a 5xx or a 408 may pass.
	if (failure.code === MALFORMED_RESPONSE || status >= 500 || status === 408)
		return TEMPORARILY_UNAVAILABLE;
	if (status === 401) return CREDENTIAL_INVALID;
	return CONFIGURATION_INVALID;
}

/**
 * AirSign's error code in an error body. AirSign does not document the body's shape, so the code
 * is looked for wherever JSON APIs commonly put it; the node depends on nothing but it and the
 * HTTP status.
 */
export function readServiceErrorCode(body: unknown): string | undefined {
	const data = asObject(body);
	if (!data) return undefined;
	const candidates: unknown[] = [
		data.code,
		data.errorCode,
		data.error_code,
		typeof data.error === 'string' ? data.error : asObject(data.error)?.code,
		asObject(data.error)?.errorCode,
		Array.isArray(data.errors) ? asObject(data.errors[0])?.code : undefined,
		codeFromProblemType(data.type),
	];
	for (const candidate of candidates) {
		if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.trim();
		if (typeof candidate === 'number') return String(candidate);
	}
	return undefined;
}

/** The service's own words, shown as a detail under the node's message. */
export function readServiceMessage(body: unknown): string | undefined {
	const data = asObject(body);
	if (!data) return undefined;
	const error = asObject(data.error);
	const candidates: unknown[] = [
		data.message,
		data.detail,
		data.error_description,
		error?.message,
		Array.isArray(data.errors) ? asObject(data.errors[0])?.message : undefined,
		data.title,
	];
	const found = candidates.find((c) => typeof c === 'string' && c.trim() !== '');
	return typeof found === 'string' ? found.trim().slice(0, 500) : undefined;
}

function asObject(value: unknown): IDataObject | undefined {
	if (typeof value === 'string') {
		try {
			return asObject(JSON.parse(value));
		} catch {
			return undefined;
		}
	}
	return value !== null && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

/**
 * RFC 7807 problem bodies name the problem by a URI in `type`, e.g. ".../errors/not-a-draft":
 * its last segment, spelt as AirSign's codes are (NOT_A_DRAFT).
 */
function codeFromProblemType(type: unknown): string | undefined {
	if (typeof type !== 'string' || type === 'about:blank') return undefined;
	// A URN (urn:problem:not-a-draft) separates its segments with ":".
	const lastSegment = type.split(/[/#:]/).filter(Boolean).pop();
	if (!lastSegment) return undefined;
	return (
		lastSegment
			.replace(/([a-z0-9])([A-Z])/g, '$1_$2')
			// A one-letter word in PascalCase: NotADraft → Not_A_Draft, not Not_ADraft.
			.replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
			.replace(/[-\s.]+/g, '_')
			.toUpperCase()
	);
}
