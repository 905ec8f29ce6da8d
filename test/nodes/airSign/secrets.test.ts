import '../../harness';
import { binaryItem, type RunNodeResult } from '../../harness';

import { describe, expect, it } from 'vitest';

import {
	captureOutput,
	clientCredential,
	closedPort,
	pdf,
	getManyParams,
	tokenCredential,
	recordSleeps,
	runAirSign,
	sendParams,
	serialise,
	type TestContext,
	uploadParams,
	useAirSign,
} from './helpers';

const ctx = useAirSign();
const recipients = [{ name: 'Ann', email: 'ann@example.com' }];
const UNKNOWN = '3f2b8a1e-7c4d-4e8f-9a0b-1c2d3e4f5a6b';
const WRONG_TOKEN = 'wrong-token-SECRET-a1b2c3d4e5';
const WRONG_SECRET = 'wrong-client-secret-SECRET-9f8e7d';

interface Scenario {
	name: string;
	/** Sets up the credential and the sandbox, returns the node parameters and input. */
	arrange: (
		ctx: TestContext,
	) => Promise<{ params: Record<string, unknown>; input?: unknown[]; secrets: string[] }>;
	/** What the error message must say (to be sure the scenario fails the intended way). */
	expected: RegExp;
}

const withToken = async (c: TestContext, token: string, baseUrl?: string) => {
	c.cred = await tokenCredential(c, token, baseUrl);
	return [token];
};
const withClient = async (
	c: TestContext,
	secret = c.sandbox.demo.clientSecret,
	baseUrl?: string,
) => {
	c.cred = await clientCredential(c, secret, baseUrl);
	return [secret, Buffer.from(`${c.sandbox.demo.clientId}:${secret}`).toString('base64')];
};

const scenarios: Scenario[] = [
	{
		name: '401 wrong access token (Send)',
		arrange: async (c) => ({
			params: sendParams(c.sandbox.createSession({ recipients }).sessionId),
			secrets: await withToken(c, WRONG_TOKEN),
		}),
		expected: /rejected the credential \[HTTP 401/,
	},
	{
		name: '401 wrong access token (Get Many)',
		arrange: async (c) => ({ params: getManyParams(), secrets: await withToken(c, WRONG_TOKEN) }),
		expected: /rejected the credential \[HTTP 401/,
	},
	{
		name: '403 missing scope',
		arrange: async (c) => ({
			params: sendParams(c.sandbox.createSession({ recipients }).sessionId),
			secrets: await withToken(c, c.sandbox.issueToken({ scopes: ['write:files'] })),
		}),
		expected: /not allowed to do this \[HTTP 403/,
	},
	{
		name: '404 unknown session',
		arrange: async (c) => ({
			params: sendParams(UNKNOWN),
			secrets: await withToken(c, c.sandbox.issueToken()),
		}),
		expected: /no session with this ID/,
	},
	{
		name: '400 NOT_A_DRAFT',
		arrange: async (c) => ({
			params: sendParams(c.sandbox.createSession({ recipients, status: 'completed' }).sessionId),
			secrets: await withToken(c, c.sandbox.issueToken()),
		}),
		expected: /NOT_A_DRAFT/,
	},
	{
		name: '413 FILE_TOO_LARGE',
		arrange: async (c) => {
			c.sandbox.config.maxFileBytes = 1000;
			return {
				params: uploadParams(),
				input: [binaryItem(pdf(5000))],
				secrets: await withToken(c, c.sandbox.issueToken()),
			};
		},
		expected: /FILE_TOO_LARGE/,
	},
	{
		name: '500 on Send',
		arrange: async (c) => {
			c.sandbox.injectFault({ kind: 'status', status: 500, path: '/api/v1/Session' });
			return { params: sendParams(UNKNOWN), secrets: await withToken(c, c.sandbox.issueToken()) };
		},
		expected: /could not finish the request \[HTTP 500\]/,
	},
	{
		name: '503 on Get Many after retries',
		arrange: async (c) => {
			c.sandbox.injectFault({ kind: 'status', status: 503, path: '/api/v1/Sessions', count: 3 });
			return { params: getManyParams(), secrets: await withToken(c, c.sandbox.issueToken()) };
		},
		expected: /could not finish the request \[HTTP 503\]/,
	},
	{
		name: 'malformed body',
		arrange: async (c) => {
			c.sandbox.injectFault({ kind: 'malformed', path: '/api/v1/Sessions', count: 3 });
			return { params: getManyParams(), secrets: await withToken(c, c.sandbox.issueToken()) };
		},
		expected: /not JSON/,
	},
	{
		name: 'dropped connection',
		arrange: async (c) => {
			c.sandbox.injectFault({ kind: 'drop', path: '/api/v1/Session' });
			return { params: sendParams(UNKNOWN), secrets: await withToken(c, c.sandbox.issueToken()) };
		},
		expected: /Could not reach AirSign/,
	},
	{
		name: 'network error (closed port)',
		arrange: async (c) => ({
			params: sendParams(UNKNOWN),
			secrets: await withToken(c, c.sandbox.issueToken(), await closedPort()),
		}),
		expected: /Could not reach AirSign: connection refused/,
	},
	{
		name: '429 long Retry-After',
		arrange: async (c) => {
			c.sandbox.injectFault({ kind: 'rateLimit', path: '/api/v1/Sessions', retryAfter: 3600 });
			return { params: getManyParams(), secrets: await withToken(c, c.sandbox.issueToken()) };
		},
		expected: /budget is used up/,
	},
	{
		name: 'token fetch: wrong client secret',
		arrange: async (c) => ({
			params: sendParams(UNKNOWN),
			secrets: await withClient(c, WRONG_SECRET),
		}),
		expected: /rejected the client ID or client secret/,
	},
	{
		name: 'token fetch: token endpoint 500',
		arrange: async (c) => {
			c.sandbox.injectFault({ kind: 'status', status: 500, path: '/oidc/token' });
			return { params: getManyParams(), secrets: await withClient(c) };
		},
		expected: /could not issue an access token \(HTTP 500\)/,
	},
	{
		name: 'token fetch: closed port',
		arrange: async (c) => ({
			params: getManyParams(),
			secrets: await withClient(c, c.sandbox.demo.clientSecret, await closedPort()),
		}),
		expected: /Could not reach http:\/\/127\.0\.0\.1:\d+\/oidc\/token \(connection refused\)/,
	},
	{
		name: 'client credentials: 404 after a good token fetch',
		arrange: async (c) => ({ params: sendParams(UNKNOWN), secrets: await withClient(c) }),
		expected: /no session with this ID/,
	},
	{
		name: 'client credentials: stale stored token, then 403',
		arrange: async (c) => {
			const secrets = await withClient(c);
			await c.env.store.patch(c.cred.id, { sessionToken: 'stale-session-token-SECRET-77' });
			return {
				params: sendParams(UNKNOWN),
				secrets: [...secrets, 'stale-session-token-SECRET-77'],
			};
		},
		expected: /no session with this ID/,
	},
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
	for (const scenario of scenarios) {
		for (const continueOnFail of [false, true]) {
			it(`${scenario.name}${continueOnFail ? ' (continueOnFail)' : ''}`, async () => {
				recordSleeps();
				const { params, input, secrets } = await scenario.arrange(ctx);
				const capture = captureOutput();
				let result: RunNodeResult;
				try {
					result = await runAirSign(ctx, params as never, {
						input: input as never,
						continueOnFail,
					});
				} finally {
					capture.restore();
				}
				const shown = continueOnFail ? String(result.items[0]?.json.error) : result.error?.message;
				expect(shown).toMatch(scenario.expected);
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
		}
	}

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
