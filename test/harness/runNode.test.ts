import {
	binaryItem,
	createTestEnvironment,
	runNode,
	setSsrfProtection,
	type CredentialRef,
	type RunNodeOptions,
	type TestEnvironment,
} from './index';

import { NodeApiError } from 'n8n-workflow';
import { beforeEach, describe, expect, it } from 'vitest';

import { AirSignApi } from '../../credentials/AirSignApi.credentials';
import { engineDifferences } from './engine';
import { useStub, type StubAnswer } from './fixtures/stubServer';
import { ProbeNode } from './fixtures/ProbeNode.node';

let env: TestEnvironment;
let cred: CredentialRef;
/** The answer to requests under a path; any other request gets its method, URL and Authorization back. */
const answers = new Map<string, StubAnswer>();
const stub = useStub(
	(r) =>
		[...answers].find(([prefix]) => r.url.startsWith(prefix))?.[1] ?? {
			status: 200,
			body: {
				echo: { method: r.method, url: r.url, authorization: r.headers.authorization ?? null },
			},
		},
);
const failing = { status: 500, body: { code: 'INTERNAL', message: 'boom' } };

beforeEach(async () => {
	answers.clear();
	env = createTestEnvironment({ credentialTypes: [new AirSignApi()] });
	cred = await env.addCredential('airSignApi', {
		authentication: 'accessToken',
		accessToken: 'tok-good',
		baseUrl: stub().baseUrl,
	});
});

/** The probe node with the stored credential. */
const run = (options: Partial<RunNodeOptions> = {}) =>
	runNode({ env, nodeType: new ProbeNode(), credentials: { airSignApi: cred }, ...options });

describe('runNode', () => {
	it('resolves expressions per item and authenticates through the credentials helper', async () => {
		const result = await run({
			parameters: { value: '={{ $json.name.toUpperCase() }}-{{ $itemIndex }}' },
			input: [{ json: { name: 'ann' } }, { json: { name: 'bob' } }, { json: { name: 'cy' } }],
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.value)).toEqual(['ANN-0', 'BOB-1', 'CY-2']);
		expect(stub().requests.map((r) => r.url)).toEqual(
			['ANN-0', 'BOB-1', 'CY-2'].map((value) => `/api/v1/Sessions?value=${value}`),
		);
		expect(stub().requests.every((r) => r.headers.authorization === 'Bearer tok-good')).toBe(true);
		expect(result.run.status).toBe('success');
		expect(env.store.counters.authenticate).toBe(3);
	});

	it('uses the latest version by default, or nodeTypeVersion, and the workflow timezone', async () => {
		const latest = await run({ parameters: { skipRequest: true } });
		expect(latest.items[0].json.typeVersion).toBe(2);
		expect(latest.items[0].json.timezone).toBe('UTC');
		const v1 = await run({
			nodeTypeVersion: 1,
			timezone: 'Australia/Sydney',
			parameters: { skipRequest: true, value: '={{ $now.toFormat("z") }}' },
		});
		expect(v1.items[0].json).toMatchObject({
			typeVersion: 1,
			timezone: 'Australia/Sydney',
			value: 'Australia/Sydney',
		});
	});

	it('returns the real NodeApiError when the API fails, and the stored copy', async () => {
		answers.set('/api/v1/fail', { status: 422, body: { code: 'BAD', message: 'nope' } });
		const result = await run({ parameters: { path: '/api/v1/fail' } });
		expect(result.items).toEqual([]);
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect(result.error!.httpCode).toBe('422');
		expect(result.storedError?.message).toBe(result.error!.message);
		expect(result.run.status).toBe('error');
	});

	/** One item whose request succeeds, then one whose request fails. */
	const okThenFail = (continueOnFail: RunNodeOptions['continueOnFail']) => {
		answers.set('/api/v1/fail', failing);
		const input = [{ json: { path: '/api/v1/ok' } }, { json: { path: '/api/v1/fail' } }];
		return run({ parameters: { path: '={{ $json.path }}' }, continueOnFail, input });
	};

	it('continueOnFail: errors become items, the workflow goes on', async () => {
		const result = await okThenFail(true);
		expect(result.error).toBeUndefined();
		expect(result.node.onError).toBe('continueRegularOutput');
		expect(result.items).toHaveLength(2);
		expect(result.items[0].json.response).toBeDefined();
		expect(result.items[1].json.error).toEqual(expect.any(String));
		expect(result.items[1].error).toBeInstanceOf(NodeApiError);

		const legacy = await run({ parameters: { path: '/api/v1/fail' }, continueOnFail: 'legacy' });
		expect(legacy.node.continueOnFail).toBe(true);
		expect(legacy.items[0].json.error).toEqual(expect.any(String));
	});

	it("continueErrorOutput: failed items go to the node's error output", async () => {
		const result = await okThenFail('continueErrorOutput');
		expect(result.error).toBeUndefined();
		expect(result.outputs[0]).toHaveLength(1);
		expect(result.outputs[1]).toHaveLength(1);
		expect(result.outputs[1][0].json.error).toEqual(expect.any(String));
	});

	it.each(['default', 'filesystem'] as const)(
		'binary input in %s mode reads back the same bytes',
		async (binaryDataMode) => {
			const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from([0, 1, 2, 254, 255])]);
			const result = await run({
				binaryDataMode,
				parameters: { binaryPropertyName: 'data', skipRequest: true },
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
			const inline = binaryDataMode === 'default';
			expect(seen.storedAs).toBe(inline ? 'inline' : 'reference');
			if (inline) expect(seen.dataField).toBe(bytes.toString('base64'));
			else expect(seen.dataField).not.toBe(bytes.toString('base64'));
		},
	);

	it('credential data can be passed inline instead of a stored ref', async () => {
		const result = await runNode({
			nodeType: new ProbeNode(),
			credentialTypes: [new AirSignApi()],
			credentials: {
				airSignApi: {
					authentication: 'accessToken',
					accessToken: 'inline-tok',
					baseUrl: stub().baseUrl,
				},
			},
		});
		expect(result.error).toBeUndefined();
		expect(stub().requests[0].headers.authorization).toBe('Bearer inline-tok');
	});

	it.skipIf(!engineDifferences.hasSsrfProtection)(
		"n8n's own SSRF protection, when switched on, blocks loopback (default install: off)",
		async () => {
			await setSsrfProtection(true);
			try {
				expect((await run()).error).toBeDefined();
				expect(stub().requests).toHaveLength(0);
			} finally {
				await setSsrfProtection(false);
			}
			expect((await run()).error).toBeUndefined();
		},
	);
});
