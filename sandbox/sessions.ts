import type { Call } from './context';
import { ApiProblem, checkTexts, invalid, isBlank, json, pageParams, paginate } from './http';
import type { Reply } from './http';
import type { SignInput } from './publicTypes';
import { bodyObject } from './creates';
import { DAY_MS, type SessionRecord, type Store } from './store';
import { SESSION_STATUSES, type Recipient, type SessionStatus } from './types';

/** A session as docs/api.md#list-sessions shows it: no orgId, sentAt, expiryDays or files. */
export function sessionListItem(store: Store, s: SessionRecord) {
	return {
		sessionId: s.sessionId,
		name: s.name,
		status: s.status,
		selfSignOnly: s.selfSignOnly,
		createdAt: store.iso(s.createdAt),
		updatedAt: store.iso(s.updatedAt),
		completedDate: store.isoOrNull(s.completedDate),
		expiryDate: store.isoOrNull(s.expiryDate),
		recipients: s.recipients.map((r) => ({ ...r })),
	};
}

/** Get Session (docs/api.md#get-session): the list item plus its type and files. */
export function sessionDetail(store: Store, s: SessionRecord) {
	return {
		...sessionListItem(store, s),
		sessionType: s.sessionType,
		files: s.files.map((f) => ({
			fileId: f.fileId,
			fileName: f.fileName ?? store.files.get(f.fileId)?.fileName ?? null,
			fileType: 'application/pdf',
		})),
	};
}

/** The answer of Create Session and Create From Template: the session, plus draftUrl while a draft. */
export function createdSession(store: Store, baseUrl: string, s: SessionRecord) {
	return {
		...sessionDetail(store, s),
		...(s.sentAt !== null && { sentAt: store.iso(s.sentAt) }),
		// Where a draft is reviewed (docs/api.md#create-session); the sandbox serves a page there.
		...(s.status === 'draft' && { draftUrl: `${baseUrl}/app/sessions/${s.sessionId}/edit` }),
	};
}

const ISO_TIMESTAMP = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(\.\d+)?Z$/;

/** As the older Create From Template page: `2025-07-02 16:19:36` (no T, no zone), so clients prove they read UTC. */
export function withZonelessTimes<T extends Record<string, unknown>>(answer: T): T {
	const copy: Record<string, unknown> = { ...answer };
	for (const key of ['createdAt', 'updatedAt', 'completedDate', 'expiryDate', 'sentAt'])
		if (typeof copy[key] === 'string')
			copy[key] = String(copy[key]).replace(ISO_TIMESTAMP, '$1 $2');
	return copy as T;
}

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
	const statusList = `status must be a comma-separated list of ${SESSION_STATUSES.join(', ')}`;
	const statuses = status?.split(',').map((item) => {
		if (!(SESSION_STATUSES as readonly string[]).includes(item))
			throw invalid('status', statusList);
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

/** ISO 8601 date-time, exact to the fraction; no date alone; no offset: UTC; a raw `+` (a space) is refused. */
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
	/** `time` after `after` (or at it, when inclusive) and before `before`; a null bound is none. */
	const within = (time: number, after: number | null, before: number | null, inclusive = false) =>
		(after === null || time > after || (inclusive && time === after)) &&
		(before === null || time < before);
	const matches = ctx.store
		.sessionsOfOrg(orgId)
		.filter(
			(s) =>
				(query.statuses === null || query.statuses.includes(s.status)) &&
				(nameNeedle === null || s.name.toLowerCase().includes(nameNeedle)) &&
				(emailNeedle === null ||
					s.recipients.some((r) => r.email?.toLowerCase() === emailNeedle)) &&
				within(s.createdAt, query.createdAfter, query.createdBefore) &&
				within(s.updatedAt, query.updatedAfter, query.updatedBefore, config.updatedAfterInclusive),
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

const ACTIVE = new Set(['pending', 'inProgress']);
const SIGNED = 'completed';

/** docs/api.md#send-session: the draft → pending transition, its rules checked in their order. */
export function sendSession({ ctx, orgId, id }: Call): Reply {
	const session = ctx.store.findForOrg(id, orgId);
	const refuse = (code: string, message: string) => new ApiProblem(400, code, message);
	if (session.status !== 'draft')
		throw refuse('NOT_A_DRAFT', `The session is ${session.status}; only a draft can be sent`);
	if (session.recipients.length === 0)
		throw refuse('NO_RECIPIENTS', 'The session has no recipients');
	if (session.recipients.some((r) => isBlank(r.name) || isBlank(r.email)))
		throw refuse(
			'INCOMPLETE_RECIPIENTS',
			'Some recipients lack a name or an email; finish the draft in the editor',
		);
	if (session.selfSignOnly)
		throw refuse('SELF_SIGN_ONLY', 'A self-sign only session cannot be sent');
	markSent(ctx.store, session);
	// recipients carry only these four fields
	const recipients = session.recipients.map(({ recipientId, name, email, signingOrder }) => ({
		recipientId,
		name,
		email,
		signingOrder,
	}));
	const { sessionId, status } = session;
	return json(200, { sessionId, status, sentAt: ctx.store.iso(session.sentAt!), recipients });
}

/** What sending does: pending, sentAt, expiry counting, one invitation per recipient. */
export function markSent(store: Store, session: SessionRecord): void {
	const sentAt = store.stamp();
	session.status = 'pending';
	session.sentAt = sentAt;
	session.updatedAt = sentAt;
	if (session.expiryDays !== null) session.expiryDate = sentAt + session.expiryDays * DAY_MS;
	for (const recipient of session.recipients) {
		recipient.status = 'sent';
		invite(store, session, recipient, sentAt);
	}
}

const invite = (store: Store, s: SessionRecord, r: Recipient, at: number, reminder = false) =>
	store.outbox.push({
		to: r.email!,
		name: r.name!,
		sessionId: s.sessionId,
		sessionName: s.name,
		sentAt: store.iso(at),
		...(reminder && { reminder: true as const }),
	});

/** docs/api.md#send-invitation: the invitation again to one recipient; updatedAt does not move. */
export function sendInvitation({ ctx, orgId, id: sessionId, body }: Call): Reply {
	const session = ctx.store.findForOrg(sessionId, orgId);
	const { recipientId, recipientEmail } = bodyObject(body);
	checkTexts({ recipientId, recipientEmail });
	if (recipientId !== undefined && recipientEmail !== undefined)
		throw invalid('recipientId', 'Give recipientId or recipientEmail, not both');
	if (!ACTIVE.has(session.status)) {
		const message = `The session is ${session.status}; invitations are sent again only while it is pending or inProgress`;
		throw new ApiProblem(400, 'SESSION_NOT_ACTIVE', message);
	}
	const recipient = pickRecipient(session, { recipientId, email: recipientEmail } as SignInput);
	const sentAt = ctx.store.stamp();
	invite(ctx.store, session, recipient, sentAt, true);
	return json(200, {
		success: true,
		sessionId: session.sessionId,
		recipientId: recipient.recipientId,
		recipientEmail: recipient.email,
		sentAt: ctx.store.iso(sentAt),
	});
}

/** docs/api.md#get-session: the session with its type and files. */
export function getSession({ ctx, orgId, id }: Call): Reply {
	return json(200, sessionDetail(ctx.store, ctx.store.findForOrg(id, orgId)));
}

/** The recipient named, or the next (by signing order) who has not signed. */
function pickRecipient(session: SessionRecord, pick: SignInput): Recipient {
	if (pick.recipientId === undefined && pick.email === undefined) {
		const next = session.recipients.find((r) => r.status !== SIGNED);
		if (!next) throw new ApiProblem(400, 'SESSION_NOT_ACTIVE', 'Every recipient has signed');
		return next;
	}
	const recipient = session.recipients.find((r) =>
		pick.recipientId !== undefined
			? r.recipientId.toLowerCase() === pick.recipientId.toLowerCase()
			: r.email?.toLowerCase() === pick.email!.trim().toLowerCase(),
	);
	if (!recipient) {
		const who = pick.recipientId ?? pick.email;
		throw new ApiProblem(404, 'RECIPIENT_NOT_FOUND', `The session has no recipient ${who}`);
	}
	if (recipient.status === SIGNED)
		throw new ApiProblem(400, 'RECIPIENT_ALREADY_SIGNED', 'This recipient has already signed');
	return recipient;
}

const assertSent = (session: SessionRecord, what: string) => {
	if (!ACTIVE.has(session.status))
		throw new Error(`The session is ${session.status}; only a sent session can be ${what}`);
};

/** Control plane: one recipient signs; the session goes inProgress, or completed once all have signed. */
export function signRecipient(store: Store, session: SessionRecord, pick: SignInput) {
	assertSent(session, 'signed');
	const recipient = pickRecipient(session, pick);
	recipient.status = SIGNED;
	session.updatedAt = store.stamp();
	const done = session.recipients.every((r) => r.status === SIGNED);
	session.status = done ? 'completed' : 'inProgress';
	if (done) session.completedDate = session.updatedAt;
	return session;
}

/** Control plane: every recipient left signs at once, so no signer stays `sent` in a completed session. */
export function completeSession(store: Store, session: SessionRecord) {
	assertSent(session, 'completed');
	for (const recipient of session.recipients) recipient.status = SIGNED;
	session.status = 'completed';
	session.updatedAt = session.completedDate = store.stamp();
	return session;
}
