import { createPollingHarness, createTestEnvironment, type TestEnvironment } from './index';

import { NodeApiError } from 'n8n-workflow';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { AirSignApi } from '../../credentials/AirSignApi.credentials';
import { startEchoServer, type EchoServer } from './fixtures/echoServer';
import { ProbeTrigger } from './fixtures/ProbeTrigger.node';

let server: EchoServer;
let env: TestEnvironment;

beforeAll(async () => {
	server = await startEchoServer();
});
afterAll(async () => {
	await server.close();
});
beforeEach(() => {
	server.requests.length = 0;
	env = createTestEnvironment({ credentialTypes: [new AirSignApi()] });
});

describe('createPollingHarness', () => {
	it('runs poll() through PollContext; static data persists between ticks and across a restart', async () => {
		const trigger = createPollingHarness({
			env,
			nodeType: new ProbeTrigger(),
			parameters: { tag: '={{ "t-" + $workflow.active }}' },
			credentials: {
				airSignApi: {
					authentication: 'accessToken',
					accessToken: 'poll-tok',
					baseUrl: server.baseUrl,
				},
			},
		});

		server.respond('/poll', 200, { items: [], cursor: 'c1' });
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(first.response).toBeNull();
		expect(first.emitted).toBe(false);
		expect(trigger.nodeStaticData).toMatchObject({ polls: 1, cursor: 'c1' });

		server.respond('/poll', 200, { items: [{ id: 'a' }, { id: 'b' }], cursor: 'c2' });
		const second = await trigger.poll();
		expect(second.emitted).toBe(true);
		expect(second.items.map((i) => i.json.id)).toEqual(['a', 'b']);
		expect(trigger.nodeStaticData).toMatchObject({ polls: 2, cursor: 'c2' });

		trigger.restart();
		await trigger.poll();
		expect(trigger.nodeStaticData).toMatchObject({ polls: 3 });

		expect(server.requests.map((r) => r.url)).toEqual([
			'/poll?since=&tag=t-true&mode=trigger',
			'/poll?since=c1&tag=t-true&mode=trigger',
			'/poll?since=c2&tag=t-true&mode=trigger',
		]);
		expect(server.requests.every((r) => r.headers.authorization === 'Bearer poll-tok')).toBe(true);
		expect(trigger.polls).toBe(3);
	});

	it('returns the error poll() threw, in trigger and manual mode', async () => {
		server.respond('/poll', 500, { code: 'INTERNAL', message: 'down' });
		for (const mode of ['trigger', 'manual'] as const) {
			const trigger = createPollingHarness({
				env,
				mode,
				nodeType: new ProbeTrigger(),
				credentials: {
					airSignApi: {
						authentication: 'accessToken',
						accessToken: 'poll-tok',
						baseUrl: server.baseUrl,
					},
				},
			});
			const result = await trigger.poll();
			expect(result.error).toBeInstanceOf(NodeApiError);
			expect((result.error as NodeApiError).httpCode).toBe('500');
			expect(result.emitted).toBe(false);
		}
		expect(server.requests.at(-1)?.url).toContain('mode=manual');
	});
});
