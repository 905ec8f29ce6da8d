/** The action node's credentials: tokens renewed during long runs, secrets never shown. */
import { binaryItem, type HarnessInputItem, type RunNodeResult } from '../../harness';
import { engineDifferences } from '../../harness/engine';

import type { INodeParameters } from 'n8n-workflow';
import { beforeEach, describe, expect, it } from 'vitest';

import type { Fault } from '../../../sandbox';
import {
	captureOutput,
	clientCredential,
	closedPort,
	drafts,
	getManyParams,
	idItems,
	pdf,
	recordSleeps,
	seedSessions,
	sendEach,
	sendParams,
	serialise,
	type TestContext,
	tokenCredential,
	tokenRequests,
	UNKNOWN_ID,
	uploadParams,
	useAirSign,
} from './helpers';

const recipients = [{ name: 'Ann', email: 'ann@example.com' }];
const WRONG_TOKEN = 'wrong-token-SECRET-a1b2c3d4e5';
const WRONG_SECRET = 'wrong-client-secret-SECRET-9f8e7d';
const STALE_TOKEN = 'stale-session-token-SECRET-77';
const [SESSION, SESSIONS] = ['/api/v1/Session', '/api/v1/Sessions'];

/** Sets the context's credential; returns its secrets. */
type Credential = (c: TestContext) => Promise<string[]>;
/** An access token (one the sandbox issues, with these scopes, unless given), on a closed port if asked. */
const token =
	(given?: string, { scopes, closed }: { scopes?: string[]; closed?: boolean } = {}): Credential =>
	async (c) => {
		const value = given ?? c.sandbox.issueToken(scopes ? { scopes } : {});
		c.cred = await tokenCredential(c, value, closed ? await closedPort() : undefined);
		return [value];
	};
/** Client credentials (the demo's secret unless given), on a closed port if asked. */
const client =
	(secret?: string, closed = false): Credential =>
	async (c) => {
		const value = secret ?? c.sandbox.demo.clientSecret;
		c.cred = await clientCredential(c, value, closed ? await closedPort() : undefined);
		return [value, Buffer.from(`${c.sandbox.demo.clientId}:${value}`).toString('base64')];
	};
const staleClient: Credential = async (c) => {
	const secrets = await client()(c);
	await c.env.store.patch(c.cred.id, { sessionToken: STALE_TOKEN });
	return [...secrets, STALE_TOKEN];
};

/** The node's parameters and input. */
type Call = (c: TestContext) => { params: INodeParameters; input?: HarnessInputItem[] };
const sendDraft: Call = (c) => ({
	params: sendParams(c.sandbox.createSession({ recipients }).sessionId),
});
const sendCompleted: Call = (c) => ({
	params: sendParams(c.sandbox.createSession({ recipients, status: 'completed' }).sessionId),
});
const sendUnknown: Call = () => ({ params: sendParams(UNKNOWN_ID) });
const getMany: Call = () => ({ params: getManyParams() });
const uploadLarge: Call = (c) => {
	c.sandbox.config.maxFileBytes = 1000;
	return { params: uploadParams(), input: [binaryItem(pdf(5000))] };
};

const REJECTED = /rejected the credential \[HTTP 401/;
const FORBIDDEN = /not allowed to do this \[HTTP 403/;
const NO_SESSION = /no session with this ID/;
const REFUSED = /Could not reach AirSign: connection refused/;
const BAD_CLIENT = /rejected the client ID or client secret/;
const NO_TOKEN = /could not issue an access token \(HTTP 500\)/;
const UNFINISHED = (status: number) =>
	new RegExp(`could not finish the request \\[HTTP ${status}\\]`);
const failing = (status: number, path: string, count?: number): Fault => ({
	kind: 'status',
	status,
	path,
	count,
});
const drop: Fault = { kind: 'drop', path: SESSION };
const longWait: Fault = { kind: 'rateLimit', path: SESSIONS, retryAfter: 3600 };
const UNREACHABLE_TOKEN =
	/Could not reach http:\/\/127\.0\.0\.1:\d+\/oidc\/token \(connection refused\)/;

/** Name, credential, call, what the error must say (it fails the intended way), a fault first. */
const scenarios: Array<[string, Credential, Call, RegExp, Fault?]> = [
	['401 wrong access token (Send)', token(WRONG_TOKEN), sendDraft, REJECTED],
	['401 wrong access token (Get Many)', token(WRONG_TOKEN), getMany, REJECTED],
	['403 missing scope', token(undefined, { scopes: ['write:files'] }), sendDraft, FORBIDDEN],
	['404 unknown session', token(), sendUnknown, NO_SESSION],
	['400 NOT_A_DRAFT', token(), sendCompleted, /NOT_A_DRAFT/],
	['413 FILE_TOO_LARGE', token(), uploadLarge, /FILE_TOO_LARGE/],
	['500 on Send', token(), sendUnknown, UNFINISHED(500), failing(500, SESSION)],
	['503 on Get Many after retries', token(), getMany, UNFINISHED(503), failing(503, SESSIONS, 3)],
	['malformed body', token(), getMany, /not JSON/, { kind: 'malformed', path: SESSIONS, count: 3 }],
	['dropped connection', token(), sendUnknown, /Could not reach AirSign/, drop],
	['network error (closed port)', token(undefined, { closed: true }), sendUnknown, REFUSED],
	['429 long Retry-After', token(), getMany, /budget is used up/, longWait],
	['token fetch: wrong client secret', client(WRONG_SECRET), sendUnknown, BAD_CLIENT],
	['token fetch: token endpoint 500', client(), getMany, NO_TOKEN, failing(500, '/oidc/token')],
	['token fetch: closed port', client(undefined, true), getMany, UNREACHABLE_TOKEN],
	['client credentials: 404 after a good token fetch', client(), sendUnknown, NO_SESSION],
	['client credentials: stale stored token, then 403', staleClient, sendUnknown, NO_SESSION],
];

/** Everything a user, a log or the execution store could see of a run. */
function visible(result: RunNodeResult, logs: string): string {
	const error = result.error;
	return [
		JSON.stringify(result.items),
		serialise(result.items.map((i) => i.error)),
		String(error?.message ?? ''),
		String(error?.description ?? ''),
		serialise(error),
		serialise((error as { cause?: unknown } | undefined)?.cause),
		serialise(error?.context),
		serialise(result.storedError),
		JSON.stringify(result.runData),
		logs,
	].join('\n');
}

describe('secrets never appear in output, errors or logs', () => {
	const ctx = useAirSign();
	describe.each([false, true])('continueOnFail %s', (continueOnFail) => {
		it.each(scenarios)('%s', async (_name, credential, call, expected, fault) => {
			recordSleeps();
			if (fault) ctx.sandbox.injectFault(fault);
			const { params, input } = call(ctx);
			const secrets = await credential(ctx);
			const capture = captureOutput();
			let result: RunNodeResult;
			try {
				result = await ctx.run(params, { input, continueOnFail });
			} finally {
				capture.restore();
			}
			const shown = continueOnFail ? String(result.items[0]?.json.error) : result.error?.message;
			expect(shown).toMatch(expected);
			// The token n8n fetched and persisted (client credentials) is a secret too.
			const stored = (await ctx.env.store.getData(ctx.cred.id)).sessionToken;
			const all = [...secrets, ...(typeof stored === 'string' && stored ? [stored] : [])];
			const haystack = visible(result, capture.text());
			// The log spy really listened: n8n logs every failed node run.
			if (!continueOnFail) expect(capture.text()).toContain('finished with error');
			for (const secret of all) {
				expect(secret.length).toBeGreaterThan(8);
				expect(haystack).not.toContain(secret);
			}
		});
	});

	it('the serialiser reaches nested causes (sanity check)', () => {
		const inner = Object.assign(new Error('inner'), {
			config: { headers: { Authorization: 'Bearer deep-secret-42' } },
		});
		expect(serialise(new Error('outer', { cause: inner }))).toContain('deep-secret-42');
	});

	it('the capture does see what n8n logs (sanity check of the log spy)', async () => {
		const capture = captureOutput();
		try {
			const { LoggerProxy } = await import('n8n-workflow');
			LoggerProxy.error('probe-line-123', { x: 1 });
		} finally {
			capture.restore();
		}
		expect(capture.text()).toContain('probe-line-123');
	});
});

/** 401 answers per expired token on the engine under test (test/harness/engine.ts). */
const STALE = engineDifferences.unauthorizedPerRenewal;

describe('client credentials: tokens renewed during long runs', () => {
	// Tokens live 60 s on the sandbox clock, which is frozen and moved by the tests.
	const ctx = useAirSign({ tokenTtlSeconds: 60, now: '2025-06-16T00:00:00Z' });
	// Every test runs on client credentials (the last one with a wrong secret).
	beforeEach(async () => {
		ctx.cred = await clientCredential(ctx);
	});

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
		const draftIds = drafts(ctx.sandbox, 10).map((d) => d.sessionId);
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
		const sessions = drafts(ctx.sandbox, 8);
		// Every API request takes 25 s of sandbox time: a token (60 s) lasts about two items.
		ctx.sandbox.onRequest(({ path }) => {
			if (path.startsWith('/api/v1')) ctx.sandbox.clock.advance(25_000);
		});
		// One item after another (Items at Once 1): the sandbox's clock moves 25 s per request as if
		// each came after the last; several in flight would each move it as if alone.
		const result = await ctx.ok(sendEach(1), { input: idItems(sessions) });
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
