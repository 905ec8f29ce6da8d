import {
	binaryItem,
	createPollingHarness,
	createTestEnvironment,
	runNode,
	setSsrfProtection,
	type CredentialRef,
	type PollingHarnessOptions,
	type RunNodeOptions,
	type TestEnvironment,
} from './index';

import type { IDataObject, INodeExecutionData, INodeType, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes } from 'n8n-workflow';
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

/**
 * The test trigger: counts its polls in static data, asks `{baseUrl}/poll?since=<cursor>` and
 * emits the answer's `items` (null when none).
 */
class ProbeTrigger implements INodeType {
	description: INodeType['description'] = {
		displayName: 'Harness Probe Trigger',
		name: 'harnessProbeTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Test-only polling trigger',
		defaults: { name: 'Harness Probe Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'airSignApi', required: true }],
		properties: [{ displayName: 'Tag', name: 'tag', type: 'string', default: '' }],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const state = this.getWorkflowStaticData('node');
		state.polls = ((state.polls as number) ?? 0) + 1;
		const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('airSignApi');
		const response = (await this.helpers.httpRequestWithAuthentication.call(this, 'airSignApi', {
			method: 'GET',
			url: `${baseUrl}/poll`,
			qs: { since: state.cursor ?? '', tag: this.getNodeParameter('tag'), mode: this.getMode() },
			json: true,
		})) as { items?: IDataObject[]; cursor?: string };
		if (response.cursor) state.cursor = response.cursor;
		if (!response.items?.length) return null;
		return [this.helpers.returnJsonArray(response.items)];
	}
}

/** The probe trigger with an access token for the stub. */
const probe = (options: Partial<PollingHarnessOptions> = {}) =>
	createPollingHarness({
		env,
		nodeType: new ProbeTrigger(),
		credentials: {
			airSignApi: {
				authentication: 'accessToken',
				accessToken: 'poll-tok',
				baseUrl: stub().baseUrl,
			},
		},
		...options,
	});

describe('createPollingHarness', () => {
	it('runs poll() through PollContext; static data persists between ticks and across a restart', async () => {
		const trigger = probe({ parameters: { tag: '={{ "t-" + $workflow.active }}' } });

		answers.set('/poll', { status: 200, body: { items: [], cursor: 'c1' } });
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(first.response).toBeNull();
		expect(first.emitted).toBe(false);
		expect(trigger.nodeStaticData).toMatchObject({ polls: 1, cursor: 'c1' });

		answers.set('/poll', {
			status: 200,
			body: { items: [{ id: 'a' }, { id: 'b' }], cursor: 'c2' },
		});
		const second = await trigger.poll();
		expect(second.emitted).toBe(true);
		expect(second.items.map((i) => i.json.id)).toEqual(['a', 'b']);
		expect(trigger.nodeStaticData).toMatchObject({ polls: 2, cursor: 'c2' });

		trigger.restart();
		await trigger.poll();
		expect(trigger.nodeStaticData).toMatchObject({ polls: 3 });

		expect(stub().requests.map((r) => r.url)).toEqual(
			['', 'c1', 'c2'].map((since) => `/poll?since=${since}&tag=t-true&mode=trigger`),
		);
		expect(stub().requests.every((r) => r.headers.authorization === 'Bearer poll-tok')).toBe(true);
		expect(trigger.polls).toBe(3);
	});

	it('returns the error poll() threw, in trigger and manual mode', async () => {
		answers.set('/poll', failing);
		for (const mode of ['trigger', 'manual'] as const) {
			const result = await probe({ mode }).poll();
			expect(result.error).toBeInstanceOf(NodeApiError);
			expect((result.error as NodeApiError).httpCode).toBe('500');
			expect(result.emitted).toBe(false);
		}
		expect(stub().requests.at(-1)?.url).toContain('mode=manual');
	});
});

/**
 * The probe trigger recording the context of each poll and emitting the poll's number; poll n
 * waits for `gates[n - 1]` when there is one, after calling `arrived`.
 */
function contextProbe() {
	const probe = {
		contexts: [] as IPollFunctions[],
		gates: [] as Array<Promise<void>>,
		arrived: () => {},
		nodeType: Object.assign(new ProbeTrigger(), {
			async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
				probe.contexts.push(this);
				const n = probe.contexts.length;
				probe.arrived();
				await probe.gates[n - 1];
				return [[{ json: { n } }]];
			},
		}),
	};
	return probe;
}

describe('createPollingHarness: the poll context', () => {
	it('is one per activation, as in n8n: every poll until restart() gets the same', async () => {
		const probe = contextProbe();
		const trigger = createPollingHarness({ env, nodeType: probe.nodeType });
		expect((await trigger.poll()).items).toEqual([{ json: { n: 1 } }]);
		expect((await trigger.poll()).items).toEqual([{ json: { n: 2 } }]);
		trigger.restart();
		expect((await trigger.poll()).items).toEqual([{ json: { n: 3 } }]);
		expect((await trigger.poll()).items).toEqual([{ json: { n: 4 } }]);
		const [first, second, third, fourth] = probe.contexts;
		expect(second).toBe(first);
		expect(third).not.toBe(first);
		expect(fourth).toBe(third);
	});

	it('gives each of two polls in flight at once its own result', async () => {
		const probe = contextProbe();
		const trigger = createPollingHarness({ env, nodeType: probe.nodeType });
		let releaseFirst!: () => void;
		probe.gates.push(new Promise<void>((resolve) => (releaseFirst = resolve)));
		const firstArrived = new Promise<void>((resolve) => (probe.arrived = resolve));
		const first = trigger.poll();
		await firstArrived;
		const second = await trigger.poll();
		releaseFirst();
		expect(second.items).toEqual([{ json: { n: 2 } }]);
		expect((await first).items).toEqual([{ json: { n: 1 } }]);
		expect(probe.contexts[1]).toBe(probe.contexts[0]);
	});

	it('is one per poll under pollHooks (the database-backed scheduler) and in manual mode', async () => {
		for (const options of [{ pollHooks: () => ({}) }, { mode: 'manual' as const }]) {
			const probe = contextProbe();
			const trigger = createPollingHarness({ env, nodeType: probe.nodeType, ...options });
			await trigger.poll();
			await trigger.poll();
			expect(probe.contexts[1]).not.toBe(probe.contexts[0]);
		}
	});
});
