import type { Call } from './context';
import { invalid, json, pageParams, paginate, type Reply } from './http';
import { sessionListItem } from './responses';
import type { SessionRecord } from './store';
import { SESSION_STATUSES, type SessionStatus } from './types';

const SORT_FIELDS = ['createdAt', 'updatedAt', 'completedDate', 'name'] as const;
type SortField = (typeof SORT_FIELDS)[number];

const DATE_FIELDS = ['createdAfter', 'createdBefore', 'updatedAfter', 'updatedBefore'] as const;
const KNOWN_FIELDS = ['status', 'name', 'recipientEmail', ...DATE_FIELDS, 'sortBy', 'sortOrder'];

/** Every parameter checked; the first invalid one (docs/api.md#list-sessions order) is reported. */
function parseListQuery(params: URLSearchParams) {
	for (const field of [...KNOWN_FIELDS, 'limit', 'offset']) {
		const hint = field === 'status' ? '; use a comma-separated list' : '';
		if (params.getAll(field).length > 1)
			throw invalid(field, `${field} is given more than once${hint}`);
	}
	const status = params.get('status');
	const statuses = status?.split(',').map((item) => {
		if (!(SESSION_STATUSES as readonly string[]).includes(item))
			throw invalid(
				'status',
				`status must be a comma-separated list of ${SESSION_STATUSES.join(', ')}`,
			);
		return item as SessionStatus;
	});
	const recipientEmail = params.get('recipientEmail');
	if (recipientEmail?.trim() === '')
		throw invalid('recipientEmail', 'recipientEmail must not be empty');
	const dates = {} as Record<(typeof DATE_FIELDS)[number], number | null>;
	for (const field of DATE_FIELDS) {
		const value = params.get(field);
		dates[field] = value === null ? null : parseIsoDateTime(value, field);
	}
	const sortBy = params.get('sortBy') ?? 'updatedAt';
	if (!(SORT_FIELDS as readonly string[]).includes(sortBy))
		throw invalid('sortBy', `sortBy must be one of ${SORT_FIELDS.join(', ')}`);
	const sortOrder = params.get('sortOrder') ?? 'desc';
	if (sortOrder !== 'asc' && sortOrder !== 'desc')
		throw invalid('sortOrder', 'sortOrder must be asc or desc');
	return {
		statuses: statuses ?? null,
		name: params.get('name'),
		recipientEmail,
		...dates,
		sortBy: sortBy as SortField,
		sortOrder,
		...pageParams(params),
	};
}

const ISO_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * ISO 8601 date-time, exact to the fraction given. A date alone is refused (it is
 * not a datetime); no offset means UTC. A `+` offset must be percent-encoded in a
 * query string: a raw `+` arrives as a space and is refused, as a form decoder would.
 */
function parseIsoDateTime(value: string, field: string): number {
	const match = ISO_DATE_TIME.exec(value);
	const fail = () =>
		invalid(field, `${field} must be an ISO 8601 datetime, e.g. 2025-06-16T14:22:00.000Z`);
	if (!match) throw fail();
	const [, y, mo, d, h, mi, s = '00', fraction = '', zone = 'Z'] = match;
	const wholeSeconds = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
	// Out-of-range fields (Feb 30, 24:00, :60) roll over: the instant no longer prints as given.
	const printed = new Date(wholeSeconds).toISOString().slice(0, 19);
	if (printed !== `${y}-${mo}-${d}T${h}:${mi}:${s}`) throw fail();
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

/** docs/api.md#list-sessions: every parameter checked, then filters, sort and one page. */
export function listSessions({ ctx, orgId, params }: Call): Reply {
	const query = parseListQuery(params);
	const { config } = ctx;
	const nameNeedle = query.name?.toLowerCase() ?? null;
	const emailNeedle = query.recipientEmail?.toLowerCase() ?? null;
	const matches = ctx.store
		.sessionsOfOrg(orgId)
		.filter(
			(s) =>
				(query.statuses === null || query.statuses.includes(s.status)) &&
				(nameNeedle === null || s.name.toLowerCase().includes(nameNeedle)) &&
				(emailNeedle === null ||
					s.recipients.some((r) => r.email?.toLowerCase() === emailNeedle)) &&
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
	const random = config.tieOrder === 'random';
	const tieKey = new Map(matches.map((s) => [s.sessionId, random ? ctx.tieRandom() : 0]));
	const sorted = [...matches].sort((a, b) => {
		const primary = compareByField(a, b, query.sortBy, direction);
		if (primary !== 0) return primary;
		if (random) return tieKey.get(a.sessionId)! - tieKey.get(b.sessionId)!;
		return a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0;
	});
	const { page, pagination } = paginate(sorted, query);
	return json(200, { sessions: page.map((s) => sessionListItem(ctx.store, s)), pagination });
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
