import { binaryItem } from '../../harness';
import { engineDifferences } from '../../harness/engine';

import { beforeEach, describe, expect, it } from 'vitest';

import {
	clientCredential,
	pdf,
	getManyParams,
	tokenRequests,
	seedSessions,
	sendParams,
	uploadParams,
	useAirSign,
	idItems,
} from './helpers';

/** 401 answers per expired token on the engine under test (test/harness/engine.ts). */
const STALE = engineDifferences.unauthorizedPerRenewal;

// Tokens live 60 s on the sandbox clock, which is frozen and moved by the tests.
const ctx = useAirSign({ tokenTtlSeconds: 60, now: '2025-06-16T00:00:00Z' });
const recipients = [{ name: 'Ann', email: 'ann@example.com' }];
// Every test runs on client credentials (the last one with a wrong secret).
beforeEach(async () => {
	ctx.cred = await clientCredential(ctx);
});

describe('client credentials: tokens renewed during long runs', () => {
	it('first call fetches a token, persists it, and later executions reuse it while it lives', async () => {
		for (let i = 0; i < 3; i++) {
			await ctx.ok(getManyParams());
			ctx.sandbox.clock.advance(10_000);
		}
		expect(tokenRequests(ctx.sandbox)).toHaveLength(1);
		expect(ctx.env.store.counters.preAuthentication).toBe(1);
		expect(ctx.env.store.counters.updateCredentials).toBe(1);
		expect((await ctx.env.store.getData(ctx.cred.id)).sessionToken).toEqual(expect.any(String));
		expect(ctx.apiRequests().every((r) => r.status === 200)).toBe(true);
	});

	it('ten executions, each after the last token expired: every call succeeds, one new token each time', async () => {
		const draftIds = Array.from(
			{ length: 10 },
			() => ctx.sandbox.createSession({ recipients }).sessionId,
		);
		for (const [i, id] of draftIds.entries()) {
			const op = i % 2 === 0 ? sendParams(id) : getManyParams();
			await ctx.ok(op);
			ctx.sandbox.clock.advance(61_000);
		}
		expect(tokenRequests(ctx.sandbox)).toHaveLength(10);
		expect(ctx.env.store.counters.preAuthentication).toBe(10);
		// Each stale token costs its 401s (one on n8n 2.9+), answered by n8n's refresh-and-retry;
		// never a failed item.
		const api = ctx.apiRequests();
		expect(api.filter((r) => r.status === 401)).toHaveLength(9 * STALE);
		expect(api.filter((r) => r.status === 200)).toHaveLength(10);
		for (const [i, r] of api.entries()) {
			if (r.status === 401) expect(api[i + 1]).toMatchObject({ path: r.path });
			if (r.status === 401 && api[i + 1].status !== 401) expect(api[i + 1].status).toBe(200);
		}
	});

	it('one execution over many items outliving several tokens (Send ×8, 25 s per request)', async () => {
		const drafts = Array.from({ length: 8 }, () => ctx.sandbox.createSession({ recipients }));
		// Every API request takes 25 s of sandbox time: a token (60 s) lasts about two items.
		ctx.sandbox.onRequest(({ path }) => {
			if (path.startsWith('/api/v1')) ctx.sandbox.clock.advance(25_000);
		});
		// One item after another (Items at Once 1): the sandbox's clock moves 25 s per request as if
		// each came after the last; several in flight would each move it as if alone.
		const oneAtATime = { ...sendParams('={{ $json.id }}'), options: { itemsAtOnce: 1 } };
		const result = await ctx.ok(oneAtATime, { input: idItems(drafts) });
		expect(result.items.map((i) => i.json.status)).toEqual(Array(8).fill('pending'));
		expect(ctx.sandbox.outbox).toHaveLength(8);
		const fetches = tokenRequests(ctx.sandbox).length;
		expect(fetches).toBeGreaterThanOrEqual(3);
		expect(ctx.env.store.counters.preAuthentication).toBe(fetches);
		expect(ctx.apiRequests().filter((r) => r.status === 401)).toHaveLength((fetches - 1) * STALE);
	});

	it('Return All over 400 sessions with the token expiring between pages', async () => {
		seedSessions(ctx.sandbox, 400);
		ctx.sandbox.onRequest(({ path }) => {
			if (path === '/api/v1/Sessions') ctx.sandbox.clock.advance(40_000);
		});
		const result = await ctx.ok(getManyParams({ returnAll: true }));
		expect(result.items).toHaveLength(400);
		const listed = ctx.apiRequests();
		// Five pages by keys (100, then 99 new each), then what changed while they were read
		// (docs/operations.md#session--get-many).
		const answered = listed.filter((r) => r.status === 200);
		expect(answered.map((r) => r.query.updatedAfter !== undefined)).toEqual([
			...Array(5).fill(false),
			true,
		]);
		expect(tokenRequests(ctx.sandbox).length).toBeGreaterThanOrEqual(2);
	});

	it.each(['default', 'filesystem'] as const)(
		'an upload after expiry (binary mode %s) ends in one upload: sent again whole, from a fresh stream, with the new token',
		async (binaryDataMode) => {
			expect((await ctx.run(getManyParams())).error).toBeUndefined();
			ctx.sandbox.clock.advance(120_000);
			const bytes = pdf(500_000);
			const result = await ctx.ok(uploadParams(), {
				input: [binaryItem(bytes, { fileName: 'a.pdf' })],
				binaryDataMode,
			});
			expect(ctx.sandbox.files.size).toBe(1);
			expect(
				ctx.sandbox.files.get(result.items[0].json.fileId as string)?.bytes.equals(bytes),
			).toBe(true);
			// The body is read afresh when n8n repeats the request after renewing the token (a
			// Blob-shaped body, not a stream, which n8n never sends twice).
			expect(ctx.apiRequests().map((r) => [r.path, r.status])).toEqual([
				['/api/v1/Sessions', 200],
				...Array(STALE).fill(['/api/v1/File', 401]),
				['/api/v1/File', 200],
			]);
			expect(tokenRequests(ctx.sandbox)).toHaveLength(2);
		},
	);

	it('a revoked stored token (sandbox reset) is replaced the same way', async () => {
		await ctx.env.store.patch(ctx.cred.id, { sessionToken: 'stale-token-from-yesterday' });
		await ctx.ok(getManyParams());
		expect(ctx.apiRequests().map((r) => r.status)).toEqual([...Array(STALE).fill(401), 200]);
		expect((await ctx.env.store.getData(ctx.cred.id)).sessionToken).not.toBe(
			'stale-token-from-yesterday',
		);
	});

	it('a wrong client secret fails with the credential message, and no API call succeeds', async () => {
		ctx.cred = await clientCredential(ctx, 'wrong-secret-0123456789');
		const result = await ctx.run(getManyParams());
		expect(result.error?.message).toBe(
			'AirSign rejected the client ID or client secret. Check both in the AirSign credential.',
		);
		expect(tokenRequests(ctx.sandbox).every((r) => r.status === 401)).toBe(true);
		expect(ctx.apiRequests()).toEqual([]);
	});
});
