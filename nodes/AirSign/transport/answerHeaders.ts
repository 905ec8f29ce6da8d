import type { IDataObject } from 'n8n-workflow';

import { RATE_LIMIT_WINDOW_MS } from '../helpers/constants';

/** What one answer's headers said about AirSign's hourly budget (either of them). */
export interface RateLimitState {
	limit?: number;
	remaining?: number;
	/** The reset as AirSign stated it, in epoch ms. */
	resetAt?: number;
	/** From AirSign's "now" until the reset: immune to clock skew. */
	msUntilReset?: number;
	/** A 429's Retry-After (seconds or an HTTP date), in ms. */
	retryAfterMs?: number;
}

export interface AnswerHeaders {
	rateLimit: RateLimitState;
	/** AirSign's clock (its Date header), when it sent one. */
	serverTime?: number;
}

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
			// At most the hourly window: a Reset further off (a proxy's garbage, a clock years off)
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

/** Plain objects and axios' header objects alike, names in any case. */
function lowerCaseKeys(headers: unknown): IDataObject {
	if (headers === null || typeof headers !== 'object') return {};
	const { toJSON } = headers as { toJSON?: () => IDataObject };
	const source = typeof toJSON === 'function' ? toJSON.call(headers) : (headers as IDataObject);
	return Object.fromEntries(
		Object.entries(source).map(([key, value]) => [key.toLowerCase(), value]),
	);
}
