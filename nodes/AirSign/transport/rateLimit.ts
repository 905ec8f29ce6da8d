import type { IDataObject } from 'n8n-workflow';

export interface RateLimitState {
	limit?: number;
	remaining?: number;
	/** Epoch milliseconds at which the window resets, as the service stated it. */
	resetAt?: number;
	/** Milliseconds from the service's "now" until the reset (immune to clock skew). */
	msUntilReset?: number;
}

export function readRateLimit(headers: IDataObject): RateLimitState {
	const limit = readNumber(headers['x-ratelimit-limit']);
	const remaining = readNumber(headers['x-ratelimit-remaining']);
	const resetSeconds = readNumber(headers['x-ratelimit-reset']);
	const resetAt = resetSeconds === undefined ? undefined : resetSeconds * 1000;
	const serverNow = Date.parse(String(headers.date ?? ''));
	const reference = Number.isNaN(serverNow) ? Date.now() : serverNow;
	return {
		limit,
		remaining,
		resetAt,
		msUntilReset: resetAt === undefined ? undefined : Math.max(0, resetAt - reference),
	};
}

/** Retry-After in milliseconds: delay-seconds or an HTTP date. */
export function readRetryAfterMs(headers: IDataObject): number | undefined {
	const value = headers['retry-after'];
	if (value === undefined || value === null || value === '') return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(String(value));
	if (Number.isNaN(date)) return undefined;
	const serverNow = Date.parse(String(headers.date ?? ''));
	return Math.max(0, date - (Number.isNaN(serverNow) ? Date.now() : serverNow));
}

function readNumber(value: unknown): number | undefined {
	const first = Array.isArray(value) ? value[0] : value;
	if (first === undefined || first === null || first === '') return undefined;
	const parsed = Number(first);
	return Number.isFinite(parsed) ? parsed : undefined;
}
