import type { IDataObject } from 'n8n-workflow';

import { RATE_LIMIT_WINDOW_MS } from '../helpers/constants';

/** What AirSign said about its hourly budget (either of them) in one answer's headers. */
export interface RateLimitState {
	limit?: number;
	remaining?: number;
	/** Epoch milliseconds at which the window resets, as the service stated it. */
	resetAt?: number;
	/** Milliseconds from the service's "now" until the reset (immune to clock skew). */
	msUntilReset?: number;
	/** Retry-After in milliseconds (delay-seconds or an HTTP date), on a 429. */
	retryAfterMs?: number;
}

export interface AnswerHeaders {
	rateLimit: RateLimitState;
	/** The service's clock, from its Date header (whole seconds), when it sent one. */
	serverTime?: number;
}

/** Reads the headers of one answer (names in any case) into what the callers use. */
export function readAnswerHeaders(rawHeaders: unknown): AnswerHeaders {
	const headers = lowerCaseKeys(rawHeaders);
	const serverTime = readDate(headers.date);
	const reference = serverTime ?? Date.now();
	const resetSeconds = readNumber(headers['x-ratelimit-reset']);
	const resetAt = resetSeconds === undefined ? undefined : resetSeconds * 1000;
	return {
		serverTime,
		rateLimit: {
			limit: readNumber(headers['x-ratelimit-limit']),
			remaining: readNumber(headers['x-ratelimit-remaining']),
			resetAt,
			// Within the hourly window: a Reset further away (a proxy's garbage, a clock years off)
			// would stop the trigger reading for that long.
			msUntilReset:
				resetAt === undefined
					? undefined
					: Math.min(Math.max(0, resetAt - reference), RATE_LIMIT_WINDOW_MS),
			retryAfterMs: readRetryAfterMs(headers['retry-after'], reference),
		},
	};
}

function readRetryAfterMs(value: unknown, reference: number): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = readDate(value);
	return date === undefined ? undefined : Math.max(0, date - reference);
}

function readDate(value: unknown): number | undefined {
	const parsed = Date.parse(String(value ?? ''));
	return Number.isNaN(parsed) ? undefined : parsed;
}

function readNumber(value: unknown): number | undefined {
	const first = Array.isArray(value) ? value[0] : value;
	if (first === undefined || first === null || first === '') return undefined;
	const parsed = Number(first);
	return Number.isFinite(parsed) ? parsed : undefined;
}

/** Plain objects and axios' header objects alike (both enumerate their own entries). */
function lowerCaseKeys(headers: unknown): IDataObject {
	const result: IDataObject = {};
	if (headers === null || typeof headers !== 'object') return result;
	const source =
		typeof (headers as { toJSON?: unknown }).toJSON === 'function'
			? (headers as { toJSON: () => IDataObject }).toJSON()
			: (headers as IDataObject);
	for (const [key, value] of Object.entries(source)) result[key.toLowerCase()] = value;
	return result;
}
