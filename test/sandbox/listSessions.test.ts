import { describe, expect, it } from 'vitest';
import type { CreateSessionInput, Sandbox, Session } from '../../sandbox';
import { expectError, shown, useApi } from './helpers';

const { sandbox, list } = useApi({ now: '2025-06-16T12:00:00.000Z' });
const ids = (res: { body: { sessions: Array<{ sessionId: string }> } }) =>
	res.body.sessions.map((s) => s.sessionId);
const june = (day: number) => `2025-06-0${day}T00:00:00.000Z`;

/** Sessions with distinct, known times (days of June 2025); returned in creation order. */
function seed(s: Sandbox): Session[] {
	const cy = { name: 'Cy', email: 'cy@example.com' };
	const session = (
		name: string,
		status: CreateSessionInput['status'],
		created: number,
		updated: number,
		extra: CreateSessionInput = {},
	) =>
		s.createSession({ name, status, createdAt: june(created), updatedAt: june(updated), ...extra });
	return [
		session('Alpha lease', 'draft', 1, 5, {
			recipients: [{ name: 'Ann', email: 'Ann@Example.com' }],
		}),
		session('beta NDA', 'pending', 2, 3, {
			recipients: [{ name: 'Bob', email: 'bob@example.com' }, cy],
		}),
		session('Gamma contract', 'completed', 3, 4, { completedDate: june(4), recipients: [cy] }),
		session('delta offer', 'completed', 4, 6, { completedDate: june(2) }),
		session('Epsilon', 'cancelled', 5, 7),
	];
}
/** The seeded sessions at these positions, by ID (in this order where `ordered`). */
const expectListed = async (query: string, positions: number[], ordered = false) => {
	const sessions = seed(sandbox());
	const listed = ids(await list(query));
	const expected = positions.map((i) => sessions[i].sessionId);
	if (ordered) expect(listed).toEqual(expected);
	else expect([...listed].sort()).toEqual([...expected].sort());
};
const [ALPHA, BETA, GAMMA, DELTA, EPSILON] = [0, 1, 2, 3, 4];

describe('List Sessions (docs/api.md#list-sessions): response', () => {
	it('success: sessions and recipients with exactly their documented fields, and pagination', async () => {
		const [alpha] = seed(sandbox());
		const res = await list('name=alpha');
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			sessions: [
				{
					sessionId: alpha.sessionId,
					name: 'Alpha lease',
					status: 'draft',
					selfSignOnly: false,
					createdAt: '2025-06-01T00:00:00.000Z',
					updatedAt: '2025-06-05T00:00:00.000Z',
					completedDate: null,
					expiryDate: null,
					recipients: [
						shown({
							recipientId: alpha.recipients[0].recipientId,
							name: 'Ann',
							email: 'Ann@Example.com',
							status: 'notSent',
						}),
					],
				},
			],
			pagination: { total: 1, limit: 50, offset: 0, hasMore: false },
		});
	});

	it('completedDate is set for completed sessions, null otherwise', async () => {
		seed(sandbox());
		const res = await list('sortBy=createdAt&sortOrder=asc');
		expect(res.body.sessions.map((s: { completedDate: string | null }) => s.completedDate)).toEqual(
			[null, null, june(4), june(2), null],
		);
	});

	it("only the caller's organisation's sessions are listed", async () => {
		const mine = sandbox().createSession({ name: 'mine' });
		sandbox().createSession({ name: 'theirs', orgId: sandbox().other.orgId });
		expect(ids(await list())).toEqual([mine.sessionId]);
		const theirs = await list('', sandbox().other.accessToken);
		expect(theirs.body.sessions.map((s: { name: string }) => s.name)).toEqual(['theirs']);
	});
});

describe('List Sessions (docs/api.md#list-sessions): filters', () => {
	// Titled by the query: status, one or a comma-separated list; created/updated After and Before,
	// strictly (a session at exactly that instant is excluded); name, a case-insensitive substring;
	// recipientEmail, any position, case-insensitive, whole address; filters combine (AND);
	// datetimes with an offset or in whole seconds are ISO 8601 too (+10:00 here is 00:00Z).
	it.each([
		['status=pending', [BETA]],
		['status=draft,pending,cancelled', [ALPHA, BETA, EPSILON]],
		['createdAfter=2025-06-03T00:00:00.000Z', [DELTA, EPSILON]],
		['createdBefore=2025-06-03T00:00:00.000Z', [ALPHA, BETA]],
		['updatedBefore=2025-06-05T00:00:00.000Z', [BETA, GAMMA]],
		['updatedAfter=2025-06-05T00:00:00.000Z', [DELTA, EPSILON]],
		['updatedAfter=2025-06-04T23:59:59.999Z', [ALPHA, DELTA, EPSILON]],
		[`updatedAfter=${encodeURIComponent('2025-06-05T10:00:00+10:00')}`, [DELTA, EPSILON]],
		['updatedAfter=2025-06-05T00:00:00Z', [DELTA, EPSILON]],
		['name=A%20C', [GAMMA]],
		['name=NDA', [BETA]],
		['name=nda', [BETA]],
		['name=zzz', []],
		['recipientEmail=cy%40example.com', [BETA, GAMMA]],
		['recipientEmail=ann%40example.com', [ALPHA]],
		['recipientEmail=example.com', []],
		[
			'status=completed,pending&recipientEmail=cy%40example.com&createdAfter=2025-06-02T00:00:00Z',
			[GAMMA],
		],
	])('%s lists the seeded sessions %j', async (query, positions) => {
		await expectListed(query, positions);
	});

	it('updatedAfter with updatedAfterInclusive: >= (the session at exactly that instant is included)', async () => {
		sandbox().config.updatedAfterInclusive = true;
		await expectListed('updatedAfter=2025-06-05T00:00:00.000Z', [ALPHA, DELTA, EPSILON]);
	});
});

describe('List Sessions (docs/api.md#list-sessions): sorting', () => {
	it.each([
		['sortBy default updatedAt, sortOrder default desc', '', [EPSILON, DELTA, ALPHA, GAMMA, BETA]],
		['sortOrder=asc', 'sortOrder=asc', [BETA, GAMMA, ALPHA, DELTA, EPSILON]],
		['sortBy=createdAt', 'sortBy=createdAt', [EPSILON, DELTA, GAMMA, BETA, ALPHA]],
		[
			'sortBy=name (case-insensitive)',
			'sortBy=name&sortOrder=asc',
			[ALPHA, BETA, DELTA, EPSILON, GAMMA],
		],
	])('%s', async (_title, query, positions) => {
		await expectListed(query, positions, true);
	});

	it('sortBy=completedDate: sessions without one come last in both directions', async () => {
		const [, , gamma, delta] = seed(sandbox());
		const desc = ids(await list('sortBy=completedDate'));
		expect(desc.slice(0, 2)).toEqual([gamma.sessionId, delta.sessionId]);
		const asc = ids(await list('sortBy=completedDate&sortOrder=asc'));
		expect(asc.slice(0, 2)).toEqual([delta.sessionId, gamma.sessionId]);
	});

	it('tieOrder id: equal sort keys are ordered by sessionId, the same on every request', async () => {
		for (let i = 0; i < 6; i++) sandbox().createSession({ updatedAt: '2025-06-10T00:00:00.000Z' });
		const first = ids(await list());
		expect(first).toEqual([...first].sort());
		expect(ids(await list())).toEqual(first);
	});

	it('tieOrder random: equal sort keys come back in varying order', async () => {
		sandbox().config.tieOrder = 'random';
		for (let i = 0; i < 8; i++) sandbox().createSession({ updatedAt: '2025-06-10T00:00:00.000Z' });
		const orders = new Set<string>();
		for (let i = 0; i < 6; i++) orders.add(ids(await list()).join());
		expect(orders.size).toBeGreaterThan(1);
	});
});

describe('List Sessions (docs/api.md#list-sessions): pagination', () => {
	it.each([
		['default limit 50, offset 0', '', 55, 50],
		['limit 100 is the maximum accepted', 'limit=100', 105, 100],
	])('page size: %s', async (_title, query, total, limit) => {
		for (let i = 0; i < total; i++) sandbox().createSession({ name: `s${i}` });
		const res = await list(query);
		expect(res.body.sessions).toHaveLength(limit);
		expect(res.body.pagination).toEqual({ total, limit, offset: 0, hasMore: true });
	});

	it('paging: increasing offset by limit while hasMore visits every session once', async () => {
		for (let i = 0; i < 7; i++)
			sandbox().createSession({
				name: `s${i}`,
				updatedAt: new Date(Date.UTC(2025, 5, 1 + i)).toISOString(),
			});
		const seen: string[] = [];
		for (let offset = 0, more = true; more; offset += 3) {
			const res = await list(`limit=3&offset=${offset}`);
			expect(res.body.pagination).toMatchObject({ total: 7, limit: 3, offset });
			seen.push(...ids(res));
			more = res.body.pagination.hasMore;
		}
		expect(seen).toHaveLength(7);
		expect(new Set(seen).size).toBe(7);
	});

	it('an offset past the end gives no sessions and hasMore false', async () => {
		seed(sandbox());
		expect((await list('offset=10')).body).toEqual({
			sessions: [],
			pagination: { total: 5, limit: 50, offset: 10, hasMore: false },
		});
	});

	it('total counts all matches of the filters, not the page', async () => {
		seed(sandbox());
		expect((await list('status=completed&limit=1')).body.pagination).toEqual({
			total: 2,
			limit: 1,
			offset: 0,
			hasMore: true,
		});
	});

	it('a parameter given twice → 400 VALIDATION_ERROR (status takes a comma list instead)', async () => {
		const res = await list('status=draft&status=pending');
		expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'status' });
	});
});

describe('List Sessions (docs/api.md#list-sessions): a value not allowed → 400 VALIDATION_ERROR on its field', () => {
	it.each([
		// status: the statuses, comma-separated without spaces
		...['archived', 'Draft', 'draft,', 'draft, pending', ''].map((value) => ['status', value]),
		// datetimes: ISO 8601 only
		['createdAfter', 'yesterday'],
		['createdBefore', '2025-06-01'],
		['updatedAfter', '2025-06-05T10:00:00 10:00'],
		['updatedBefore', '2025-02-30T00:00:00Z'],
		['updatedAfter', '1718546520'],
		['sortBy', 'status'],
		['sortBy', 'updatedat'],
		['sortOrder', 'DESC'],
		['sortOrder', 'up'],
		// limit: an integer from 1 to 100; offset: an integer from 0
		...['101', '0', '-1', '1.5', 'ten', ''].map((value) => ['limit', value]),
		...['-1', '2.0', 'x', ''].map((value) => ['offset', value]),
	])('%s=%j', async (field, value) => {
		expectError(
			await list(`${field}=${encodeURIComponent(value)}`),
			400,
			'VALIDATION_ERROR',
			field,
		);
	});
});
