import {
	createTestEnvironment,
	runNode,
	testCredential,
	type CredentialRef,
	type TestEnvironment,
} from '../harness';

import { NodeApiError, type ICredentialDataDecryptedObject } from 'n8n-workflow';
import { beforeEach, describe, expect, it } from 'vitest';

import { AirSignApi } from '../../credentials/AirSignApi.credentials';
import type { Sandbox } from '../../sandbox';
import { engineDifferences } from '../harness/engine';
import { ProbeNode } from '../harness/fixtures/ProbeNode.node';
import { clientCredential, tokenCredential, useSandbox } from '../harness/sandbox';

const fileSandbox = useSandbox({ seedDemoData: false });
let sandbox: Sandbox;
let env: TestEnvironment;

beforeEach(() => {
	sandbox = fileSandbox();
	env = createTestEnvironment({ credentialTypes: [new AirSignApi()] });
});

const calls = () => sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`);
const listSessions = (credential: CredentialRef) =>
	runNode({ env, nodeType: new ProbeNode(), credentials: { airSignApi: credential } });
const tokenCreds = (token?: string, baseUrl?: string) => tokenCredential(sandbox, token, baseUrl);
const clientCreds = (secret?: string, baseUrl?: string) =>
	clientCredential(sandbox, secret, baseUrl);
const tokenOf = async (cred: CredentialRef) => (await env.store.getData(cred.id)).sessionToken;
const testCred = (credentials: ICredentialDataDecryptedObject) =>
	testCredential({ env, type: 'airSignApi', credentials });

describe('airSignApi credential, access token mode', () => {
	it('sends Authorization: Bearer <token> (the sandbox accepts it for the demo org)', async () => {
		const result = await listSessions(await env.addCredential('airSignApi', tokenCreds()));
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0]).toMatchObject({
			method: 'GET',
			path: '/api/v1/Sessions',
			status: 200,
			orgId: sandbox.demo.orgId,
		});
		expect(env.store.counters.updateCredentials).toBe(0);
	});

	it('a wrong token gives a clear 401 error that does not leak the token', async () => {
		const token = 'wrong-token-7f3a9c1d2e';
		const result = await listSessions(await env.addCredential('airSignApi', tokenCreds(token)));
		const error = result.error as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.httpCode).toBe('401');
		expect(error.message).toMatch(/authori[sz]/i);
		for (const text of [
			error.message,
			String(error.description),
			JSON.stringify(error),
			JSON.stringify(result.storedError),
			JSON.stringify(result.runData),
		])
			expect(text).not.toContain(token);
		// n8n-core retries a 401 once after asking preAuthentication for a fresh token; with a
		// pasted token there is nothing to fetch, so 2 requests.
		expect(calls()).toEqual(['GET /api/v1/Sessions 401', 'GET /api/v1/Sessions 401']);
	});
});

describe('airSignApi credential, client credentials mode', () => {
	it('fetches a token once, persists it, and reuses it across executions', async () => {
		const cred = await env.addCredential('airSignApi', clientCreds());
		for (let i = 0; i < 3; i++) expect((await listSessions(cred)).error).toBeUndefined();
		expect(calls()).toEqual(['POST /oidc/token 200', ...Array(3).fill('GET /api/v1/Sessions 200')]);
		expect(env.store.counters.preAuthentication).toBe(1);
		expect(env.store.counters.updateCredentials).toBe(1);
		expect(await tokenOf(cred)).toEqual(expect.any(String));
		expect(await tokenOf(cred)).not.toBe('');
	});

	it('after the token expires, fetches a new one and the execution still succeeds', async () => {
		const cred = await env.addCredential('airSignApi', clientCreds());
		expect((await listSessions(cred)).error).toBeUndefined();
		const firstToken = await tokenOf(cred);

		sandbox.clock.advance(3601 * 1000);
		sandbox.clearRequests();
		const afterExpiry = await listSessions(cred);
		expect(afterExpiry.error).toBeUndefined();
		expect(afterExpiry.run.status).toBe('success');
		// The expired token is only discovered by the 401; n8n-core then calls
		// preAuthentication(credentialsExpired = true) and retries once.
		expect(calls()).toEqual([
			'GET /api/v1/Sessions 401',
			'POST /oidc/token 200',
			'GET /api/v1/Sessions 200',
		]);
		expect(await tokenOf(cred)).not.toBe(firstToken);
		expect(env.store.counters.preAuthentication).toBe(2);
		expect(env.store.counters.updateCredentials).toBe(2);

		sandbox.clearRequests();
		expect((await listSessions(cred)).error).toBeUndefined();
		expect(calls()).toEqual(['GET /api/v1/Sessions 200']);
	});

	it('a wrong secret fails with a clear message and without leaking the secret', async () => {
		const secret = 'not-the-secret-5b8e';
		const cred = await env.addCredential('airSignApi', clientCreds(secret));
		const result = await listSessions(cred);
		expect(result.error).toBeDefined();
		expect(result.error!.message).toMatch(/client ID or client secret/);
		expect(JSON.stringify(result.storedError)).not.toContain(secret);
		expect(JSON.stringify(result.error)).not.toContain(secret);
		expect(calls()).toEqual(['POST /oidc/token 401']);
	});
});

describe('airSignApi credential test (the Test button)', () => {
	it('OK for good client credentials: one token request plus one List Sessions', async () => {
		const result = await testCred(clientCreds());
		expect(result).toMatchObject({ status: 'OK', message: 'Connection successful!' });
		expect(calls()).toEqual(['POST /oidc/token 200', 'GET /api/v1/Sessions 200']);
		expect(sandbox.requests[1].query).toEqual({ limit: '1' });
		// The CLI persists the token the test fetched.
		expect(await tokenOf(result.credential)).not.toBe('');
	});

	it('OK for a good access token: one request', async () => {
		expect((await testCred(tokenCreds())).status).toBe('OK');
		expect(calls()).toEqual(['GET /api/v1/Sessions 200']);
	});

	it('wrong secret, wrong token, wrong base URL and unreachable host give different clear messages', async () => {
		const wrongSecret = await testCred(clientCreds('nope'));
		const wrongUrl = await testCred(clientCreds(undefined, `${sandbox.baseUrl}/v2`));
		const unreachable = await testCred(clientCreds(undefined, 'http://127.0.0.1:9'));
		const wrongToken = await testCred(tokenCreds('bad'));
		const wrongUrlToken = await testCred(tokenCreds('bad', `${sandbox.baseUrl}/v2`));
		const messages = { wrongSecret, wrongUrl, unreachable, wrongToken, wrongUrlToken };
		for (const result of Object.values(messages)) expect(result.status).toBe('Error');
		expect(wrongSecret.message).toMatch(/client ID or client secret/);
		expect(wrongUrl.message).toMatch(/Base URL/);
		expect(unreachable.message).toBe(
			'Could not reach http://127.0.0.1:9/oidc/token (connection refused). Check the Base URL of the AirSign credential.',
		);
		// n8n 1.x shows its own words for these statuses (see test/harness/engine.ts).
		const [tokenMessage, urlMessage] = engineDifferences.credentialTestRulesApply
			? [
					'AirSign rejected the access token: it is wrong, revoked or expired',
					'No AirSign API answered at this Base URL: check the address',
				]
			: [
					'Authorization failed - please check your credentials',
					'The resource you are requesting could not be found',
				];
		expect([wrongToken.message, wrongUrlToken.message]).toEqual([tokenMessage, urlMessage]);
		expect(new Set(Object.values(messages).map((m) => m.message)).size).toBe(5);
		expect(calls()).toEqual([
			'POST /oidc/token 401',
			'POST /v2/oidc/token 404',
			'GET /api/v1/Sessions 401',
			'GET /api/v1/Sessions 401',
			'GET /v2/api/v1/Sessions 404',
		]);
	});
});
