/** Every date the node reads or writes: parameters in, AirSign's timestamps out, as ISO 8601 UTC. */

import { tryToParseDateTime } from 'n8n-workflow';

import type { Fail } from '../errors/nodeError';
import { TIMESTAMP_FIELDS } from './constants';
import { shownValue } from './validation';

export function dateParameterAsUtcIso(
	value: unknown,
	parameterLabel: string,
	timezone: string,
	fail: Fail,
): string {
	try {
		if (!isCalendarDay(value) || Array.isArray(value)) throw new Error('not a date');
		const input = typeof value === 'number' ? new Date(value) : value;
		const parsed = tryToParseDateTime(input, timezone);
		const iso = parsed.isValid ? parsed.toUTC().toISO() : null;
		// Years 0000 to 9999 only: AirSign reads ISO 8601 dates, not "-1723900101-…" or "+275760-…".
		if (iso && /^\d{4}-/.test(iso)) return iso;
	} catch {
		// Reported below with the parameter's name.
	}
	throw fail(
		`'${parameterLabel}' is not a valid date: ${shownValue(value)}`,
		"Use an ISO 8601 date such as 2025-06-16T14:22:00Z, or pick a date in the date picker. A date without a timezone is read in the workflow's timezone.",
	);
}

// 2025-02-30 is no day: n8n's parser would quietly roll it over to 2025-03-02.
function isCalendarDay(value: unknown): boolean {
	if (typeof value !== 'string') return true;
	const match = /^\s*(\d{4})-(\d{2})-(\d{2})/.exec(value);
	if (!match) return true;
	const [year, month, day] = match.slice(1).map(Number);
	const date = new Date(Date.UTC(year, month - 1, day));
	return (
		date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
	);
}

export function dateVariableAsDay(value: unknown, timezone: string): string | null {
	try {
		const parsed = tryToParseDateTime(value as string, timezone);
		return parsed.isValid && isCalendarDay(value) ? parsed.setZone(timezone).toISODate() : null;
	} catch {
		return null;
	}
}

/** A query's ISO bound in ms since the epoch, `absent` when it has none. */
export function msOfBound(iso: string | undefined, absent: number): number {
	return iso === undefined ? absent : Date.parse(iso);
}

export function utcIsoFromMs(ms: number): string {
	return new Date(ms).toISOString();
}

export function utcTimeOfDay(ms: number): string {
	return new Date(ms).toISOString().slice(11, 19);
}

const TIMESTAMP = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d(?::\d\d(?:\.\d+)?)?)(Z|[+-]\d\d:?\d\d)?$/i;

// AirSign writes some timestamps without a zone (Create From Template): those are UTC.
function timestampAsUtcIso(value: string): string {
	const match = TIMESTAMP.exec(value.trim());
	if (!match) return value;
	const [, date, time, zone] = match;
	if (zone?.toUpperCase() === 'Z' && value.includes('T')) return value;
	const ms = Date.parse(`${date}T${time}${zone ?? 'Z'}`);
	return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}

export function withUtcTimestamps<T>(value: T): T {
	if (Array.isArray(value)) return value.map((entry) => withUtcTimestamps(entry)) as T;
	if (value === null || typeof value !== 'object') return value;
	const copy: Record<string, unknown> = {};
	for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
		copy[key] =
			typeof entry === 'string' && TIMESTAMP_FIELDS.includes(key)
				? timestampAsUtcIso(entry)
				: withUtcTimestamps(entry);
	}
	return copy as T;
}
