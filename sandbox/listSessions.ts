import type { SessionRecord } from './store';
import { SESSION_STATUSES, type SandboxConfig, type SessionStatus } from './types';

export const SORT_FIELDS = ['createdAt', 'updatedAt', 'completedDate', 'name'] as const;
type SortField = (typeof SORT_FIELDS)[number];

export interface ListQuery {
	statuses: SessionStatus[] | null;
	name: string | null;
	recipientEmail: string | null;
	createdAfter: number | null;
	createdBefore: number | null;
	updatedAfter: number | null;
	updatedBefore: number | null;
	sortBy: SortField;
	sortOrder: 'asc' | 'desc';
	limit: number;
	offset: number;
}

export class QueryError extends Error {
	constructor(
		readonly field: string,
		message: string,
	) {
		super(message);
	}
}

const DATE_FIELDS = ['createdAfter', 'createdBefore', 'updatedAfter', 'updatedBefore'] as const;
const KNOWN_FIELDS = [
	'status',
	'name',
	'recipientEmail',
	...DATE_FIELDS,
	'sortBy',
	'sortOrder',
	'limit',
	'offset',
];

/** Every parameter checked; the first invalid one (docs/api.md#list-sessions order) is reported. */
export function parseListQuery(params: URLSearchParams): ListQuery {
	for (const field of KNOWN_FIELDS) {
		if (params.getAll(field).length > 1) {
			throw new QueryError(
				field,
				`${field} is given more than once${field === 'status' ? '; use a comma-separated list' : ''}`,
			);
		}
	}
	const get = (field: string) => params.get(field);

	let statuses: SessionStatus[] | null = null;
	const status = get('status');
	if (status !== null) {
		statuses = status.split(',').map((item) => {
			if (!(SESSION_STATUSES as readonly string[]).includes(item)) {
				throw new QueryError(
					'status',
					`status must be a comma-separated list of ${SESSION_STATUSES.join(', ')}`,
				);
			}
			return item as SessionStatus;
		});
	}

	const name = get('name');
	const recipientEmail = get('recipientEmail');
	if (recipientEmail !== null && recipientEmail.trim() === '') {
		throw new QueryError('recipientEmail', 'recipientEmail must not be empty');
	}

	const dates = {} as Record<(typeof DATE_FIELDS)[number], number | null>;
	for (const field of DATE_FIELDS) {
		const value = get(field);
		dates[field] = value === null ? null : parseIsoDateTime(value, field);
	}

	const sortBy = get('sortBy') ?? 'updatedAt';
	if (!(SORT_FIELDS as readonly string[]).includes(sortBy)) {
		throw new QueryError('sortBy', `sortBy must be one of ${SORT_FIELDS.join(', ')}`);
	}
	const sortOrder = get('sortOrder') ?? 'desc';
	if (sortOrder !== 'asc' && sortOrder !== 'desc') {
		throw new QueryError('sortOrder', 'sortOrder must be asc or desc');
	}
	const limit = parseInteger(get('limit'), 'limit', 50);
	if (limit < 1 || limit > 100)
		throw new QueryError('limit', 'limit must be an integer from 1 to 100');
	const offset = parseInteger(get('offset'), 'offset', 0);

	return {
		statuses,
		name,
		recipientEmail,
		...dates,
		sortBy: sortBy as SortField,
		sortOrder,
		limit,
		offset,
	};
}

function parseInteger(value: string | null, field: string, fallback: number): number {
	if (value === null) return fallback;
	if (!/^\d{1,15}$/.test(value))
		throw new QueryError(field, `${field} must be a non-negative integer`);
	return Number(value);
}

const ISO_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * ISO 8601 date-time, exact to the fraction given. A date alone is refused (it is
 * not a datetime); no offset means UTC. A `+` offset must be percent-encoded in a
 * query string: a raw `+` arrives as a space and is refused, as a form decoder would.
 */
export function parseIsoDateTime(value: string, field: string): number {
	const match = ISO_DATE_TIME.exec(value);
	const fail = () =>
		new QueryError(field, `${field} must be an ISO 8601 datetime, e.g. 2025-06-16T14:22:00.000Z`);
	if (!match) throw fail();
	const [, y, mo, d, h, mi, s = '00', fraction = '', zone = 'Z'] = match;
	const wholeSeconds = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
	const check = new Date(wholeSeconds);
	if (
		check.getUTCFullYear() !== +y ||
		check.getUTCMonth() !== +mo - 1 ||
		check.getUTCDate() !== +d ||
		check.getUTCHours() !== +h ||
		check.getUTCMinutes() !== +mi ||
		+s > 59
	) {
		throw fail();
	}
	const fractionMs = fraction === '' ? 0 : Number(`0.${fraction}`) * 1000;
	let offsetMs = 0;
	if (zone.toUpperCase() !== 'Z') {
		const digits = zone.replace(':', '');
		const hours = +digits.slice(1, 3);
		const minutes = +digits.slice(3, 5);
		if (hours > 23 || minutes > 59) throw fail();
		offsetMs = (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000;
	}
	return wholeSeconds + fractionMs - offsetMs;
}

export interface ListResult {
	page: SessionRecord[];
	pagination: { total: number; limit: number; offset: number; hasMore: boolean };
}

export function listSessions(
	sessions: SessionRecord[],
	query: ListQuery,
	config: SandboxConfig,
	tieRandom: () => number,
): ListResult {
	const nameNeedle = query.name?.toLowerCase() ?? null;
	const emailNeedle = query.recipientEmail?.toLowerCase() ?? null;
	const matches = sessions.filter(
		(s) =>
			(query.statuses === null || query.statuses.includes(s.status)) &&
			(nameNeedle === null || s.name.toLowerCase().includes(nameNeedle)) &&
			(emailNeedle === null || s.recipients.some((r) => r.email?.toLowerCase() === emailNeedle)) &&
			(query.createdAfter === null || s.createdAt > query.createdAfter) &&
			(query.createdBefore === null || s.createdAt < query.createdBefore) &&
			(query.updatedAfter === null ||
				(config.updatedAfterInclusive
					? s.updatedAt >= query.updatedAfter
					: s.updatedAt > query.updatedAfter)) &&
			(query.updatedBefore === null || s.updatedAt < query.updatedBefore),
	);

	const direction = query.sortOrder === 'asc' ? 1 : -1;
	// Random tie keys are drawn per request, so a client cannot rely on tie order.
	const tieKey = new Map(
		matches.map((s) => [s.sessionId, config.tieOrder === 'random' ? tieRandom() : 0]),
	);
	const sorted = [...matches].sort((a, b) => {
		const primary = compareByField(a, b, query.sortBy, direction);
		if (primary !== 0) return primary;
		if (config.tieOrder === 'random') return tieKey.get(a.sessionId)! - tieKey.get(b.sessionId)!;
		return a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0;
	});

	const page = sorted.slice(query.offset, query.offset + query.limit);
	return {
		page,
		pagination: {
			total: sorted.length,
			limit: query.limit,
			offset: query.offset,
			hasMore: query.offset + page.length < sorted.length,
		},
	};
}

function compareByField(
	a: SessionRecord,
	b: SessionRecord,
	field: SortField,
	direction: number,
): number {
	if (field === 'name') {
		const x = a.name.toLowerCase();
		const y = b.name.toLowerCase();
		return x < y ? -direction : x > y ? direction : 0;
	}
	const x = a[field];
	const y = b[field];
	// Sessions without a completedDate go last in both directions.
	if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
	return (x - y) * direction;
}
