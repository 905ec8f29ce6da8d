import {
	createPollingHarness,
	createTestEnvironment,
	type PollingHarnessOptions,
	type TestEnvironment,
} from './index';

import type { IDataObject, INodeExecutionData, INodeType, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes } from 'n8n-workflow';
import { beforeEach, describe, expect, it } from 'vitest';

import { AirSignApi } from '../../credentials/AirSignApi.credentials';
import { useStub, type StubAnswer } from './fixtures/stubServer';

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

let env: TestEnvironment;
/** What the probe trigger's poll is answered. */
let pollAnswer: StubAnswer;
const stub = useStub(() => pollAnswer);
beforeEach(() => {
	env = createTestEnvironment({ credentialTypes: [new AirSignApi()] });
});

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

		pollAnswer = { status: 200, body: { items: [], cursor: 'c1' } };
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(first.response).toBeNull();
		expect(first.emitted).toBe(false);
		expect(trigger.nodeStaticData).toMatchObject({ polls: 1, cursor: 'c1' });

		pollAnswer = { status: 200, body: { items: [{ id: 'a' }, { id: 'b' }], cursor: 'c2' } };
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
		pollAnswer = { status: 500, body: { code: 'INTERNAL', message: 'down' } };
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
