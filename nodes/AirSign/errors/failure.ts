import type { IDataObject } from 'n8n-workflow';

import type { RateLimitState } from '../transport/answerHeaders';
import type { DeclaredFailure } from './causes';
import {
	CONFIGURATION_INVALID,
	CREDENTIAL_INVALID,
	declaredFailureOf,
	TEMPORARILY_UNAVAILABLE,
} from './causes';

/** What a message may show of one failed request: never a header, so never a token. */
export interface RequestFailure {
	/** Undefined when no answer came. */
	status?: number;
	/** AirSign's error code (NOT_A_DRAFT, …), or MALFORMED_RESPONSE for an unusable answer. */
	code?: string;
	serviceMessage?: string;
	/** Node's network error code (ECONNREFUSED, …) when no answer came. */
	networkCode?: string;
	/** Raised before any answer (the credential's token request). */
	otherMessage?: string;
	/** The cause it carries: a 429's wait hints, or what the token request declared. */
	declared?: DeclaredFailure;
}

export const MALFORMED_RESPONSE = 'MALFORMED_RESPONSE';

/** A non-2xx answer, or a 2xx answer that is not a JSON object. */
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
		...(status === 429 && {
			declared: {
				cause: 'rate-limited',
				...(retryAfterMs !== undefined && { retryAfterMs }),
				// On this machine's clock, so immune to skew.
				...(msUntilReset !== undefined && { resetsAtEpochMs: Date.now() + msUntilReset }),
			},
		}),
	};
}

/** No answer: a network error, a timeout, or a failed token request. */
export function failureWithoutAnswer(error: unknown): RequestFailure {
	const thrown = error as {
		message?: string;
		code?: string;
		httpCode?: string | null;
		cause?: { code?: string };
	};
	// Where the network code is kept depends on the n8n version (docs/compatibility.md).
	const networkCode = thrown.cause?.code ?? thrown.code ?? thrown.httpCode;
	if (typeof networkCode === 'string' && /^E[A-Z_]+$/.test(networkCode)) return { networkCode };
	const declared = declaredFailureOf(error) ?? declaredFailureOf(thrown.cause);
	return { otherMessage: thrown.message, ...(declared && { declared }) };
}

/** No answer, a 5xx, or an unreadable answer: may pass by itself, so a read retries it. */
export function isTransient(failure: RequestFailure): boolean {
	if (failure.status === undefined) return failure.networkCode !== undefined;
	return failure.status >= 500 || failure.code === MALFORMED_RESPONSE;
}

/** Network failures before the request left: nothing reached AirSign. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** AirSign may have done the work: a write is never sent again (a second session could exist). */
export function mayHaveReachedAirSign(failure: RequestFailure): boolean {
	return isTransient(failure) && !NOT_SENT.has(failure.networkCode?.toUpperCase() ?? '');
}

export function causeOfRequestFailure(failure: RequestFailure): DeclaredFailure {
	const { status } = failure;
	if (failure.declared) return failure.declared;
	if (status === undefined) {
		if (failure.networkCode !== undefined) return TEMPORARILY_UNAVAILABLE;
		// n8n refused to send it (a blocked private address, a domain the credential does not allow).
		return CONFIGURATION_INVALID;
	}
	if (failure.code === MALFORMED_RESPONSE || status >= 500 || status === 408)
		return TEMPORARILY_UNAVAILABLE;
	return status === 401 ? CREDENTIAL_INVALID : CONFIGURATION_INVALID;
}

/** AirSign does not document its error body: the code is looked for where JSON APIs put it. */
export function readServiceErrorCode(body: unknown): string | undefined {
	const data = asObject(body);
	const error = asObject(data?.error);
	const candidates: unknown[] = [
		data?.code,
		data?.errorCode,
		data?.error_code,
		typeof data?.error === 'string' ? data.error : error?.code,
		error?.errorCode,
		Array.isArray(data?.errors) ? asObject(data.errors[0])?.code : undefined,
		codeFromProblemType(data?.type),
	];
	for (const candidate of candidates) {
		if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.trim();
		if (typeof candidate === 'number') return String(candidate);
	}
	return undefined;
}

export function readServiceMessage(body: unknown): string | undefined {
	const data = asObject(body);
	const candidates: unknown[] = [
		data?.message,
		data?.detail,
		data?.error_description,
		asObject(data?.error)?.message,
		Array.isArray(data?.errors) ? asObject(data.errors[0])?.message : undefined,
		data?.title,
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

/** A problem body's `type` URI (".../errors/not-a-draft", "urn:…:NotADraft") as NOT_A_DRAFT. */
function codeFromProblemType(type: unknown): string | undefined {
	if (typeof type !== 'string' || type === 'about:blank') return undefined;
	const lastSegment = type.split(/[/#:]/).filter(Boolean).pop();
	return lastSegment
		?.replace(/([a-z0-9])([A-Z])/g, '$1_$2')
		.replace(/([A-Z])([A-Z][a-z])/g, '$1_$2') // NotADraft → Not_A_Draft, not Not_ADraft
		.replace(/[-\s.]+/g, '_')
		.toUpperCase();
}
