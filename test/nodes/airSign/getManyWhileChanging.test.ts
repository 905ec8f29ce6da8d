/** Return All while the list changes between pages, by a hook on the sandbox's requests. */
import '../../harness';

import { NodeOperationError, type IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { Session } from '../../../sandbox';
import { expectError, getManyParams, seedTemplates, useAirSign } from './helpers';

const ctx = useAirSign({ now: '2026-01-01T00:00:00.000Z' });
const requestsTo = (path: string) => ctx.apiRequests().filter((r) => r.path === path);
/** Calls `change(n)` as the n-th request to `path` (from 1) arrives, before it is answered. */
const onRequestTo = (path: string, change: (n: number) => unknown) => {
	let n = 0;
	ctx.sandbox.onRequest((request) => {
		if (request.path === path) change(++n);
	});
};

const N = 250;
const DAY = 86_400_000;
const BASE = Date.parse('2025-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(ms).toISOString();

/** 250 sessions whose four sort keys order them four different ways; every third not completed. */
function seed() {
	return Array.from({ length: N }, (_, i) =>
		ctx.sandbox.createSession({
			name: `${i % 2 ? 'session' : 'Session'} ${String((i * 7) % N).padStart(3, '0')}`,
			status: i % 3 ? 'completed' : 'inProgress',
			createdAt: at(BASE + i * 1000),
			updatedAt: at(BASE + DAY + ((i * 13) % N) * 1000),
			completedDate: i % 3 ? at(BASE + 2 * DAY + ((i * 11) % N) * 1000) : null,
		}),
	);
}

/** Before List Sessions' 2nd and 3rd requests: 15 sessions spread over the list change, 5 are created. */
function changeBetweenPages(ids: string[]) {
	onRequestTo('/api/v1/Sessions', (request) => {
		if (request !== 2 && request !== 3) return;
		for (let j = 0; j < 15; j++) {
			ctx.sandbox.clock.advance(1000);
			const id = ids[(request * 7 + j * 16) % N];
			if (j % 3 === 0)
				ctx.sandbox.updateSession(id, { name: `${j % 2 ? 'Z' : 'A'} renamed ${request}-${j}` });
			else if (j % 3 === 1) ctx.sandbox.updateSession(id, { status: 'completed' });
			else ctx.sandbox.updateSession(id, { touch: true });
		}
		for (let k = 0; k < 5; k++) {
			ctx.sandbox.clock.advance(1000);
			ctx.sandbox.createSession({ name: `New ${request}-${k}`, status: 'pending' });
		}
	});
}

/** The order docs/operations.md states: not completed last, names without case, ties by session ID. */
function inOrder(sessions: IDataObject[], sortBy: string, sortOrder: string) {
	const direction = sortOrder === 'asc' ? 1 : -1;
	const key = (s: IDataObject) =>
		sortBy === 'name'
			? String(s.name).toLowerCase()
			: s[sortBy] === null
				? null
				: Date.parse(String(s[sortBy]));
	const byId = (a: IDataObject, b: IDataObject) =>
		String(a.sessionId) < String(b.sessionId) ? -1 : 1;
	return [...sessions].sort((a, b) => {
		const [x, y] = [key(a), key(b)];
		if (x === null || y === null) return x === y ? byId(a, b) : x === null ? 1 : -1;
		return x < y ? -direction : x > y ? direction : byId(a, b);
	});
}

const state = (s: IDataObject | Session) => ({
	name: s.name,
	status: s.status,
	updatedAt: Date.parse(String(s.updatedAt)),
	completedDate: s.completedDate === null ? null : Date.parse(String(s.completedDate)),
});

// Every Sort By × Sort Order (a collection of its own: docs/n8n-guidelines.md), and the default.
describe('Session → Get Many, Return All while sessions are updated and created between pages', () => {
	const sorts: Array<[string, Record<string, string>, string, string]> = [
		['the default (Updated At, descending)', {}, 'updatedAt', 'desc'],
	];
	for (const sortBy of ['createdAt', 'updatedAt', 'completedDate', 'name'])
		for (const sortOrder of ['asc', 'desc'])
			sorts.push([`${sortBy} ${sortOrder}`, { sortBy, sortOrder }, sortBy, sortOrder]);

	it.each(sorts)(
		'%s: every session once, as it is now, in order; at most ⌈N/100⌉ + 1 requests',
		async (_label, sort, sortBy, sortOrder) => {
			const existing = seed().map((s) => s.sessionId);
			changeBetweenPages(existing);
			const result = await ctx.ok(getManyParams({ returnAll: true, sort }));
			const out = result.items.map((i) => i.json);
			const ids = out.map((s) => String(s.sessionId));
			// Nothing twice (a session created during the read at most once), nothing missing.
			expect(new Set(ids).size).toBe(ids.length);
			expect(ids.filter((id) => existing.includes(id)).sort()).toEqual([...existing].sort());
			// The newest state: the read ended after the last change.
			const now = new Map(ctx.sandbox.listAllSessions().map((s) => [s.sessionId, s]));
			for (const s of out) expect(state(s)).toEqual(state(now.get(String(s.sessionId))!));
			expect(ids).toEqual(inOrder(out, sortBy, sortOrder).map((s) => s.sessionId));
			const requests = requestsTo('/api/v1/Sessions');
			// Return All reads by creation time and sorts itself (docs/operations.md#session--get-many).
			expect(requests[0].query).toMatchObject({ sortBy: 'createdAt', sortOrder: 'asc' });
			expect(requests.length).toBeLessThanOrEqual(Math.ceil(out.length / 100) + 1);
		},
	);

	it('the issue: 250 sessions, 15 updated before each of two later pages, none missing', async () => {
		const existing = seed().map((s) => s.sessionId);
		onRequestTo('/api/v1/Sessions', (request) => {
			if (request < 2 || request > 3) return;
			for (let j = 0; j < 15; j++) {
				ctx.sandbox.clock.advance(1000);
				ctx.sandbox.updateSession(existing[request * 50 + j], { touch: true });
			}
		});
		const result = await ctx.run(getManyParams({ returnAll: true }));
		expect(result.items.map((i) => i.json.sessionId).sort()).toEqual([...existing].sort());
		expect(requestsTo('/api/v1/Sessions')).toHaveLength(4);
	});

	it("pages by creation time from the newest read, 1 ms early; the catch-up carries the filters, from the first answer less 2 s on AirSign's clock", async () => {
		const matching = seed().filter(
			(s) => s.status === 'completed' && s.createdAt > at(BASE + 5000),
		);
		const start = ctx.sandbox.clock.now();
		const filters = { status: ['completed'], createdAfter: at(BASE + 5000) };
		const result = await ctx.ok(getManyParams({ returnAll: true, filters }));
		expect(result.items).toHaveLength(162);
		const queries = requestsTo('/api/v1/Sessions').map((r) => r.query);
		// The second page from the first page's newest (its 100th session), 1 ms early.
		const second = at(Date.parse(matching[99].createdAt) - 1);
		expect(queries.map((q) => [q.offset, q.sortBy, q.sortOrder, q.status, q.createdAfter])).toEqual(
			[at(BASE + 5000), second, at(BASE + 5000)].map((after) => [
				'0',
				'createdAt',
				'asc',
				'completed',
				after,
			]),
		);
		expect(queries.map((q) => q.updatedAfter)).toEqual([undefined, undefined, at(start - 2000)]);
	});

	it("Limit keeps AirSign's sort, every one, and makes no catch-up request", async () => {
		seed();
		for (const [, sort] of sorts) {
			ctx.sandbox.clearRequests();
			const result = await ctx.run(getManyParams({ returnAll: false, limit: 150, sort }));
			expect(result.items).toHaveLength(150);
			expect(requestsTo('/api/v1/Sessions').map((r) => r.query)).toEqual([
				{ limit: '100', offset: '0', ...sort },
				{ limit: '50', offset: '100', ...sort },
			]);
		}
	});
});

describe('Session → Get Many, Return All by keys: sessions that stop matching, sessions created at one instant', () => {
	/** 250 pending sessions (one signer each), one second apart. */
	const seedPending = () =>
		Array.from({ length: N }, (_, i) =>
			ctx.sandbox.createSession({
				name: `Pending ${String(i).padStart(3, '0')}`,
				status: 'pending',
				createdAt: at(BASE + i * 1000),
				recipients: [{ name: `Signer ${i}`, email: `signer${i}@example.com` }],
			}),
		);

	it('Status Pending while signers start sessions on pages already read: every session pending throughout, once', async () => {
		const ids = seedPending().map((s) => s.sessionId);
		// Before the 2nd and 3rd requests, 10 sessions of the page just read become inProgress.
		const started = new Set<string>();
		onRequestTo('/api/v1/Sessions', (request) => {
			if (request < 2 || request > 3) return;
			for (let j = 0; j < 10; j++) {
				ctx.sandbox.clock.advance(1000);
				const id = ids[(request - 2) * 100 + j * 7];
				ctx.sandbox.signRecipient(id);
				started.add(id);
			}
		});
		const result = await ctx.ok(
			getManyParams({ returnAll: true, filters: { status: ['pending'] } }),
		);
		const out = result.items.map((i) => String(i.json.sessionId));
		expect(new Set(out).size).toBe(out.length);
		const pendingThroughout = ids.filter((id) => !started.has(id));
		expect(out.filter((id) => !started.has(id)).sort()).toEqual(pendingThroughout.sort());
		expect(requestsTo('/api/v1/Sessions').length).toBeLessThanOrEqual(Math.ceil(N / 100) + 1);
	});

	// Sessions from..to-1 were created at one instant: 20 across the first page's end, then more
	// than a page of them; AirSign gives equal rows in another order on each request.
	it.each([
		{ what: 'equal createdAt across a page boundary', from: 90, to: 110 },
		{ what: 'more than a page created at one instant', from: 50, to: 200 },
	])('$what, in another order on each request: every session once', async ({ from, to }) => {
		ctx.sandbox.config.tieOrder = 'random';
		const ids = Array.from({ length: N }, (_, i) =>
			ctx.sandbox.createSession({
				name: `Session ${String(i).padStart(3, '0')}`,
				status: 'completed',
				createdAt: at(BASE + (i >= from && i < to ? from : i) * 1000),
			}),
		).map((s) => s.sessionId);
		const result = await ctx.ok(getManyParams({ returnAll: true }));
		const out = result.items.map((i) => String(i.json.sessionId));
		expect(out.length).toBe(N);
		expect([...out].sort()).toEqual([...ids].sort());
	});
});

// Unchanged, it reads every template once: templates.test.ts.
describe('Template → Get Many, Return All while the list changes between pages', () => {
	const params = (status: string) =>
		getManyParams({ resource: 'template', returnAll: true, status });
	const beforeSecondPage = (change: () => void) =>
		onRequestTo('/api/v1/Templates', (n) => n === 2 && change());

	it('a template leaving the list (activated while drafts are read) fails the item, not one skipped in silence', async () => {
		const seeded = seedTemplates(ctx.sandbox, N, 'draft');
		beforeSecondPage(() => ctx.sandbox.activateTemplate(seeded[10].templateId));
		const result = await ctx.run(params('draft'));
		expectError(result, /changed while it was read/, { type: NodeOperationError });
		expect(requestsTo('/api/v1/Templates')).toHaveLength(3);
	});

	it("a template added onto a page already read fails the item too (a shift AirSign's order does not explain)", async () => {
		seedTemplates(ctx.sandbox, N, 'active');
		beforeSecondPage(() =>
			ctx.sandbox.createTemplate({ name: 'A new template', status: 'active' }),
		);
		const result = await ctx.run(params('active'));
		expectError(result, /changed while it was read/, { type: NodeOperationError });
	});
});
