import { binaryItem, type HarnessInputItem, type RunNodeResult } from '../../harness';

import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { Fault } from '../../../sandbox';

import {
	captureOutput,
	clientCredential,
	closedPort,
	pdf,
	getManyParams,
	tokenCredential,
	recordSleeps,
	sendParams,
	serialise,
	type TestContext,
	UNKNOWN_ID,
	uploadParams,
	useAirSign,
} from './helpers';

const ctx = useAirSign();
const recipients = [{ name: 'Ann', email: 'ann@example.com' }];
const WRONG_TOKEN = 'wrong-token-SECRET-a1b2c3d4e5';
const WRONG_SECRET = 'wrong-client-secret-SECRET-9f8e7d';
const STALE = 'stale-session-token-SECRET-77';
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
	await c.env.store.patch(c.cred.id, { sessionToken: STALE });
	return [...secrets, STALE];
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
const failing = (status: number, path: string, count?: number): Fault => {
	return { kind: 'status', status, path, count };
};
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
