import {
	binaryItem,
	createTestEnvironment,
	runNode,
	setSsrfProtection,
	type CredentialRef,
	type TestEnvironment,
} from './index';

import { NodeApiError } from 'n8n-workflow';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { AirSignApi } from '../../credentials/AirSignApi.credentials';
import { engineDifferences } from './engine';
import { startStub, type StubAnswer, type StubServer } from './fixtures/stubServer';
import { ProbeNode } from './fixtures/ProbeNode.node';

let server: StubServer;
let env: TestEnvironment;
let cred: CredentialRef;
/** The answer to requests under a path; any other request gets its method, URL and Authorization back. */
const answers = new Map<string, StubAnswer>();

beforeAll(async () => {
	server = await startStub(
		(r) =>
			[...answers].find(([prefix]) => r.url.startsWith(prefix))?.[1] ?? {
				status: 200,
				body: {
					echo: { method: r.method, url: r.url, authorization: r.headers.authorization ?? null },
				},
			},
	);
});
afterAll(async () => {
	await server.close();
});
beforeEach(async () => {
	server.requests.length = 0;
	answers.clear();
	env = createTestEnvironment({ credentialTypes: [new AirSignApi()] });
	cred = await env.addCredential('airSignApi', {
		authentication: 'accessToken',
		accessToken: 'tok-good',
		baseUrl: server.baseUrl,
	});
});

describe('runNode', () => {
	it('resolves expressions per item and authenticates through the credentials helper', async () => {
		const result = await runNode({
			env,
			nodeType: new ProbeNode(),
			parameters: { value: '={{ $json.name.toUpperCase() }}-{{ $itemIndex }}' },
			credentials: { airSignApi: cred },
			input: [{ json: { name: 'ann' } }, { json: { name: 'bob' } }, { json: { name: 'cy' } }],
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.value)).toEqual(['ANN-0', 'BOB-1', 'CY-2']);
		expect(server.requests.map((r) => r.url)).toEqual([
			'/api/v1/Sessions?value=ANN-0',
			'/api/v1/Sessions?value=BOB-1',
			'/api/v1/Sessions?value=CY-2',
		]);
		expect(server.requests.every((r) => r.headers.authorization === 'Bearer tok-good')).toBe(true);
		expect(result.run.status).toBe('success');
		expect(env.store.counters.authenticate).toBe(3);
	});

	it('uses the latest version by default, or nodeTypeVersion, and the workflow timezone', async () => {
		const base = { env, nodeType: new ProbeNode(), credentials: { airSignApi: cred } };
		const latest = await runNode({ ...base, parameters: { skipRequest: true } });
		expect(latest.items[0].json.typeVersion).toBe(2);
		expect(latest.items[0].json.timezone).toBe('UTC');
		const v1 = await runNode({
			...base,
			nodeTypeVersion: 1,
			timezone: 'Australia/Sydney',
			parameters: { skipRequest: true, value: '={{ $now.toFormat("z") }}' },
		});
		expect(v1.items[0].json.typeVersion).toBe(1);
		expect(v1.items[0].json.timezone).toBe('Australia/Sydney');
		expect(v1.items[0].json.value).toBe('Australia/Sydney');
	});

	it('returns the real NodeApiError when the API fails, and the stored copy', async () => {
		answers.set('/api/v1/fail', { status: 422, body: { code: 'BAD', message: 'nope' } });
		const result = await runNode({
			env,
			nodeType: new ProbeNode(),
			parameters: { path: '/api/v1/fail' },
			credentials: { airSignApi: cred },
		});
		expect(result.items).toEqual([]);
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect(result.error!.httpCode).toBe('422');
		expect(result.storedError?.message).toBe(result.error!.message);
		expect(result.run.status).toBe('error');
	});

	it('continueOnFail: errors become items, the workflow goes on', async () => {
		answers.set('/api/v1/fail', { status: 500, body: { code: 'INTERNAL', message: 'boom' } });
		const result = await runNode({
			env,
			nodeType: new ProbeNode(),
			parameters: { path: '={{ $json.path }}' },
			credentials: { airSignApi: cred },
			continueOnFail: true,
			input: [{ json: { path: '/api/v1/ok' } }, { json: { path: '/api/v1/fail' } }],
		});
		expect(result.error).toBeUndefined();
		expect(result.node.onError).toBe('continueRegularOutput');
		expect(result.items).toHaveLength(2);
		expect(result.items[0].json.response).toBeDefined();
		expect(result.items[1].json.error).toEqual(expect.any(String));
		expect(result.items[1].error).toBeInstanceOf(NodeApiError);

		const legacy = await runNode({
			env,
			nodeType: new ProbeNode(),
			parameters: { path: '/api/v1/fail' },
			credentials: { airSignApi: cred },
			continueOnFail: 'legacy',
		});
		expect(legacy.node.continueOnFail).toBe(true);
		expect(legacy.items[0].json.error).toEqual(expect.any(String));
	});

	it("continueErrorOutput: failed items go to the node's error output", async () => {
		answers.set('/api/v1/fail', { status: 500, body: { code: 'INTERNAL', message: 'boom' } });
		const result = await runNode({
			env,
			nodeType: new ProbeNode(),
			parameters: { path: '={{ $json.path }}' },
			credentials: { airSignApi: cred },
			continueOnFail: 'continueErrorOutput',
			input: [{ json: { path: '/api/v1/ok' } }, { json: { path: '/api/v1/fail' } }],
		});
		expect(result.error).toBeUndefined();
		expect(result.outputs[0]).toHaveLength(1);
		expect(result.outputs[1]).toHaveLength(1);
		expect(result.outputs[1][0].json.error).toEqual(expect.any(String));
	});

	for (const binaryDataMode of ['default', 'filesystem'] as const) {
		it(`binary input in ${binaryDataMode} mode reads back the same bytes`, async () => {
			const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from([0, 1, 2, 254, 255])]);
			const result = await runNode({
				env,
				binaryDataMode,
				nodeType: new ProbeNode(),
				parameters: { binaryPropertyName: 'data', skipRequest: true },
				credentials: { airSignApi: cred },
				input: [
					binaryItem(bytes, {
						fileName: 'contract.pdf',
						mimeType: 'application/pdf',
						json: { n: 1 },
					}),
				],
			});
			expect(result.error).toBeUndefined();
			const seen = result.items[0].json.binary as Record<string, unknown>;
			expect(Buffer.from(seen.bytesBase64 as string, 'base64').equals(bytes)).toBe(true);
			expect(seen).toMatchObject({
				fileName: 'contract.pdf',
				mimeType: 'application/pdf',
				length: bytes.length,
			});
			if (binaryDataMode === 'filesystem') {
				expect(seen.storedAs).toBe('reference');
				expect(seen.dataField).not.toBe(bytes.toString('base64'));
			} else {
				expect(seen.storedAs).toBe('inline');
				expect(seen.dataField).toBe(bytes.toString('base64'));
			}
		});
	}

	it('credential data can be passed inline instead of a stored ref', async () => {
		const result = await runNode({
			nodeType: new ProbeNode(),
			credentialTypes: [new AirSignApi()],
			credentials: {
				airSignApi: {
					authentication: 'accessToken',
					accessToken: 'inline-tok',
					baseUrl: server.baseUrl,
				},
			},
		});
		expect(result.error).toBeUndefined();
		expect(server.requests[0].headers.authorization).toBe('Bearer inline-tok');
	});

	it.skipIf(!engineDifferences.hasSsrfProtection)(
		"n8n's own SSRF protection, when switched on, blocks loopback (default install: off)",
		async () => {
			await setSsrfProtection(true);
			try {
				const result = await runNode({
					env,
					nodeType: new ProbeNode(),
					credentials: { airSignApi: cred },
				});
				expect(result.error).toBeDefined();
				expect(server.requests).toHaveLength(0);
			} finally {
				await setSsrfProtection(false);
			}
			const again = await runNode({
				env,
				nodeType: new ProbeNode(),
				credentials: { airSignApi: cred },
			});
			expect(again.error).toBeUndefined();
		},
	);
});
