import { describe, expect, it } from 'vitest';
import type { Sandbox, Session } from '../../sandbox';
import { list } from './helpers';
import { useSandbox } from '../harness/sandbox';

const sandbox = useSandbox({ now: '2025-06-16T12:00:00.000Z' });
const ids = (res: { body: { sessions: Array<{ sessionId: string }> } }) =>
	res.body.sessions.map((s) => s.sessionId);
const at = (iso: string) => iso;

/** Sessions with distinct, known times; returned in creation order. */
function seed(s: Sandbox): Session[] {
	return [
		s.createSession({
			name: 'Alpha lease',
			status: 'draft',
			createdAt: at('2025-06-01T00:00:00.000Z'),
			updatedAt: at('2025-06-05T00:00:00.000Z'),
			recipients: [{ name: 'Ann', email: 'Ann@Example.com' }],
		}),
		s.createSession({
			name: 'beta NDA',
			status: 'pending',
			createdAt: at('2025-06-02T00:00:00.000Z'),
			updatedAt: at('2025-06-03T00:00:00.000Z'),
			recipients: [
				{ name: 'Bob', email: 'bob@example.com' },
				{ name: 'Cy', email: 'cy@example.com' },
			],
		}),
		s.createSession({
			name: 'Gamma contract',
			status: 'completed',
			createdAt: at('2025-06-03T00:00:00.000Z'),
			updatedAt: at('2025-06-04T00:00:00.000Z'),
			completedDate: at('2025-06-04T00:00:00.000Z'),
			recipients: [{ name: 'Cy', email: 'cy@example.com' }],
		}),
		s.createSession({
			name: 'delta offer',
			status: 'completed',
			createdAt: at('2025-06-04T00:00:00.000Z'),
			updatedAt: at('2025-06-06T00:00:00.000Z'),
			completedDate: at('2025-06-02T00:00:00.000Z'),
		}),
		s.createSession({
			name: 'Epsilon',
			status: 'cancelled',
			createdAt: at('2025-06-05T00:00:00.000Z'),
			updatedAt: at('2025-06-07T00:00:00.000Z'),
		}),
	];
}

describe('List Sessions (docs/api.md#list-sessions): response', () => {
	it('success: sessions and recipients with exactly their documented fields, and pagination', async () => {
		const [alpha] = seed(sandbox());
		const res = await list(sandbox(), 'name=alpha');
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
						{
							recipientId: alpha.recipients[0].recipientId,
							name: 'Ann',
							email: 'Ann@Example.com',
							status: 'notSent',
							recipientType: 'toCompleteEmail',
							signingOrder: 1,
						},
					],
				},
			],
			pagination: { total: 1, limit: 50, offset: 0, hasMore: false },
		});
	});

	it('completedDate is set for completed sessions, null otherwise', async () => {
		seed(sandbox());
		const res = await list(sandbox(), 'sortBy=createdAt&sortOrder=asc');
		expect(res.body.sessions.map((s: { completedDate: string | null }) => s.completedDate)).toEqual(
			[null, null, '2025-06-04T00:00:00.000Z', '2025-06-02T00:00:00.000Z', null],
		);
	});

	it("only the caller's organisation's sessions are listed", async () => {
		const mine = sandbox().createSession({ name: 'mine' });
		sandbox().createSession({ name: 'theirs', orgId: sandbox().other.orgId });
		expect(ids(await list(sandbox()))).toEqual([mine.sessionId]);
		const theirs = await list(sandbox(), '', sandbox().other.accessToken);
		expect(theirs.body.sessions.map((s: { name: string }) => s.name)).toEqual(['theirs']);
	});

	it('missing or invalid token → 401 (not counted, no rate-limit headers)', async () => {
		const res = await list(sandbox(), '', null);
		expect([res.status, res.body.code]).toEqual([401, 'UNAUTHORIZED']);
		expect((await list(sandbox(), '', 'bogus')).status).toBe(401);
		expect(res.headers.get('x-ratelimit-limit')).toBeNull();
	});

	it('scopes: any valid token may list (AirSign names no scope)', async () => {
		const token = sandbox().issueToken({ scopes: [] });
		expect((await list(sandbox(), '', token)).status).toBe(200);
	});
});

describe('List Sessions (docs/api.md#list-sessions): filters', () => {
	it('status: one status', async () => {
		const [, beta] = seed(sandbox());
		expect(ids(await list(sandbox(), 'status=pending'))).toEqual([beta.sessionId]);
	});

	it('status: a comma-separated list selects several', async () => {
		const [alpha, beta, , , epsilon] = seed(sandbox());
		expect(new Set(ids(await list(sandbox(), 'status=draft,pending,cancelled')))).toEqual(
			new Set([alpha.sessionId, beta.sessionId, epsilon.sessionId]),
		);
	});

	it.each(['archived', 'Draft', 'draft,', 'draft, pending', ''])(
		'status: %j is not an allowed value → 400 VALIDATION_ERROR',
		async (value) => {
			const res = await list(sandbox(), `status=${encodeURIComponent(value)}`);
			expect(res.status).toBe(400);
			expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'status' });
		},
	);

	it('name: case-insensitive substring match', async () => {
		const [, beta, gamma] = seed(sandbox());
		expect(new Set(ids(await list(sandbox(), 'name=A%20C')))).toEqual(new Set([gamma.sessionId]));
		expect(ids(await list(sandbox(), 'name=NDA'))).toEqual([beta.sessionId]);
		expect(ids(await list(sandbox(), 'name=nda'))).toEqual([beta.sessionId]);
		expect(ids(await list(sandbox(), 'name=zzz'))).toEqual([]);
	});

	it('recipientEmail: sessions with a recipient of that email (any position, case-insensitive, whole address)', async () => {
		const [alpha, beta, gamma] = seed(sandbox());
		expect(new Set(ids(await list(sandbox(), 'recipientEmail=cy%40example.com')))).toEqual(
			new Set([beta.sessionId, gamma.sessionId]),
		);
		expect(ids(await list(sandbox(), 'recipientEmail=ann%40example.com'))).toEqual([
			alpha.sessionId,
		]);
		expect(ids(await list(sandbox(), 'recipientEmail=example.com'))).toEqual([]);
	});

	it('createdAfter: strictly after', async () => {
		const [, , , delta, epsilon] = seed(sandbox());
		expect(new Set(ids(await list(sandbox(), 'createdAfter=2025-06-03T00:00:00.000Z')))).toEqual(
			new Set([delta.sessionId, epsilon.sessionId]),
		);
	});

	it('createdBefore: strictly before', async () => {
		const [alpha, beta] = seed(sandbox());
		expect(new Set(ids(await list(sandbox(), 'createdBefore=2025-06-03T00:00:00.000Z')))).toEqual(
			new Set([alpha.sessionId, beta.sessionId]),
		);
	});

	it('updatedAfter: strictly after by default (a session updated at exactly that instant is excluded)', async () => {
		const [alpha, , , delta, epsilon] = seed(sandbox());
		expect(new Set(ids(await list(sandbox(), 'updatedAfter=2025-06-05T00:00:00.000Z')))).toEqual(
			new Set([delta.sessionId, epsilon.sessionId]),
		);
		expect(ids(await list(sandbox(), 'updatedAfter=2025-06-04T23:59:59.999Z'))).toContain(
			alpha.sessionId,
		);
	});

	it('updatedAfter with updatedAfterInclusive: >= (the session at exactly that instant is included)', async () => {
		const [alpha, , , delta, epsilon] = seed(sandbox());
		sandbox().config.updatedAfterInclusive = true;
		expect(new Set(ids(await list(sandbox(), 'updatedAfter=2025-06-05T00:00:00.000Z')))).toEqual(
			new Set([alpha.sessionId, delta.sessionId, epsilon.sessionId]),
		);
	});

	it('updatedBefore: strictly before', async () => {
		const [, beta, gamma] = seed(sandbox());
		expect(new Set(ids(await list(sandbox(), 'updatedBefore=2025-06-05T00:00:00.000Z')))).toEqual(
			new Set([beta.sessionId, gamma.sessionId]),
		);
	});

	it('datetimes: offsets and whole-second forms are ISO 8601 too', async () => {
		const [, , , delta, epsilon] = seed(sandbox());
		// 2025-06-05T10:00:00+10:00 is 2025-06-05T00:00:00Z.
		expect(
			new Set(
				ids(
					await list(sandbox(), `updatedAfter=${encodeURIComponent('2025-06-05T10:00:00+10:00')}`),
				),
			),
		).toEqual(new Set([delta.sessionId, epsilon.sessionId]));
		expect(new Set(ids(await list(sandbox(), 'updatedAfter=2025-06-05T00:00:00Z')))).toEqual(
			new Set([delta.sessionId, epsilon.sessionId]),
		);
	});

	it.each([
		['createdAfter', 'yesterday'],
		['createdBefore', '2025-06-01'],
		['updatedAfter', '2025-06-05T10:00:00 10:00'],
		['updatedBefore', '2025-02-30T00:00:00Z'],
		['updatedAfter', '1718546520'],
	])('%s=%j is not an ISO 8601 datetime → 400 VALIDATION_ERROR', async (field, value) => {
		const res = await list(sandbox(), `${field}=${encodeURIComponent(value)}`);
		expect(res.status).toBe(400);
		expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', field });
	});

	it('filters combine (AND)', async () => {
		const [, , gamma] = seed(sandbox());
		expect(
			ids(
				await list(
					sandbox(),
					'status=completed,pending&recipientEmail=cy%40example.com&createdAfter=2025-06-02T00:00:00Z',
				),
			),
		).toEqual([gamma.sessionId]);
	});
});

describe('List Sessions (docs/api.md#list-sessions): sorting', () => {
	it('sortBy default updatedAt, sortOrder default desc', async () => {
		const [alpha, beta, gamma, delta, epsilon] = seed(sandbox());
		expect(ids(await list(sandbox()))).toEqual(
			[epsilon, delta, alpha, gamma, beta].map((s) => s.sessionId),
		);
	});

	it('sortOrder=asc', async () => {
		const [alpha, beta, gamma, delta, epsilon] = seed(sandbox());
		expect(ids(await list(sandbox(), 'sortOrder=asc'))).toEqual(
			[beta, gamma, alpha, delta, epsilon].map((s) => s.sessionId),
		);
	});

	it('sortBy=createdAt', async () => {
		const sessions = seed(sandbox());
		expect(ids(await list(sandbox(), 'sortBy=createdAt'))).toEqual(
			[...sessions].reverse().map((s) => s.sessionId),
		);
	});

	it('sortBy=name (case-insensitive)', async () => {
		const [alpha, beta, gamma, delta, epsilon] = seed(sandbox());
		expect(ids(await list(sandbox(), 'sortBy=name&sortOrder=asc'))).toEqual(
			[alpha, beta, delta, epsilon, gamma].map((s) => s.sessionId),
		);
	});

	it('sortBy=completedDate: sessions without one come last in both directions', async () => {
		const [, , gamma, delta] = seed(sandbox());
		const desc = ids(await list(sandbox(), 'sortBy=completedDate'));
		expect(desc.slice(0, 2)).toEqual([gamma.sessionId, delta.sessionId]);
		const asc = ids(await list(sandbox(), 'sortBy=completedDate&sortOrder=asc'));
		expect(asc.slice(0, 2)).toEqual([delta.sessionId, gamma.sessionId]);
	});

	it.each([
		['sortBy', 'status'],
		['sortBy', 'updatedat'],
		['sortOrder', 'DESC'],
		['sortOrder', 'up'],
	])('%s=%s is not allowed → 400 VALIDATION_ERROR', async (field, value) => {
		const res = await list(sandbox(), `${field}=${value}`);
		expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', field });
		expect(res.status).toBe(400);
	});

	it('tieOrder id: equal sort keys are ordered by sessionId, the same on every request', async () => {
		for (let i = 0; i < 6; i++) sandbox().createSession({ updatedAt: '2025-06-10T00:00:00.000Z' });
		const first = ids(await list(sandbox()));
		expect(first).toEqual([...first].sort());
		expect(ids(await list(sandbox()))).toEqual(first);
	});

	it('tieOrder random: equal sort keys come back in varying order', async () => {
		sandbox().config.tieOrder = 'random';
		for (let i = 0; i < 8; i++) sandbox().createSession({ updatedAt: '2025-06-10T00:00:00.000Z' });
		const orders = new Set<string>();
		for (let i = 0; i < 6; i++) orders.add(ids(await list(sandbox())).join());
		expect(orders.size).toBeGreaterThan(1);
	});
});

describe('List Sessions (docs/api.md#list-sessions): pagination', () => {
	it('page size: default limit 50, offset 0', async () => {
		for (let i = 0; i < 55; i++) sandbox().createSession({ name: `s${i}` });
		const res = await list(sandbox());
		expect(res.body.sessions).toHaveLength(50);
		expect(res.body.pagination).toEqual({ total: 55, limit: 50, offset: 0, hasMore: true });
	});

	it('page size: limit 100 is the maximum accepted', async () => {
		for (let i = 0; i < 105; i++) sandbox().createSession();
		const res = await list(sandbox(), 'limit=100');
		expect(res.body.sessions).toHaveLength(100);
		expect(res.body.pagination).toMatchObject({ total: 105, limit: 100, hasMore: true });
	});

	it.each(['101', '0', '-1', '1.5', 'ten', ''])(
		'page size: limit=%j → 400 VALIDATION_ERROR',
		async (value) => {
			const res = await list(sandbox(), `limit=${value}`);
			expect([res.status, res.body.code, res.body.field]).toEqual([
				400,
				'VALIDATION_ERROR',
				'limit',
			]);
		},
	);

	it.each(['-1', '2.0', 'x', ''])('offset: offset=%j → 400 VALIDATION_ERROR', async (value) => {
		const res = await list(sandbox(), `offset=${value}`);
		expect([res.status, res.body.code, res.body.field]).toEqual([
			400,
			'VALIDATION_ERROR',
			'offset',
		]);
	});

	it('paging: increasing offset by limit while hasMore visits every session once', async () => {
		for (let i = 0; i < 7; i++)
			sandbox().createSession({
				name: `s${i}`,
				updatedAt: new Date(Date.UTC(2025, 5, 1 + i)).toISOString(),
			});
		const seen: string[] = [];
		let offset = 0;
		for (;;) {
			const res = await list(sandbox(), `limit=3&offset=${offset}`);
			expect(res.body.pagination).toMatchObject({ total: 7, limit: 3, offset });
			seen.push(...ids(res));
			if (!res.body.pagination.hasMore) break;
			offset += 3;
		}
		expect(seen).toHaveLength(7);
		expect(new Set(seen).size).toBe(7);
	});

	it('an offset past the end gives no sessions and hasMore false', async () => {
		seed(sandbox());
		const res = await list(sandbox(), 'offset=10');
		expect(res.body).toEqual({
			sessions: [],
			pagination: { total: 5, limit: 50, offset: 10, hasMore: false },
		});
	});

	it('total counts all matches of the filters, not the page', async () => {
		seed(sandbox());
		expect((await list(sandbox(), 'status=completed&limit=1')).body.pagination).toEqual({
			total: 2,
			limit: 1,
			offset: 0,
			hasMore: true,
		});
	});

	it('a parameter given twice → 400 VALIDATION_ERROR (status takes a comma list instead)', async () => {
		const res = await list(sandbox(), 'status=draft&status=pending');
		expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'status' });
	});
});
