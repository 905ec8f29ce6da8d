import '../../harness';

import { describe, expect, it } from 'vitest';

import type { Sandbox } from '../../../sandbox';
import { listRequests, newTrigger, SESSIONS, useTriggerSandbox } from './helpers';

const getSandbox = useTriggerSandbox();

/**
 * Holds the first List Sessions request until `release()`: AirSign is slow, and the poll of one tick
 * is still waiting when n8n starts the next tick's poll. No timing: `arrived` resolves when the
 * first request is at the sandbox.
 */
function holdListSessions(sandbox: Sandbox) {
	let release!: () => void;
	const released = new Promise<void>((resolve) => (release = resolve));
	let arrive!: () => void;
	const arrived = new Promise<void>((resolve) => (arrive = resolve));
	const hold = { arrived, arrivals: 0, release: () => (release(), off()) };
	const off = sandbox.onRequest(async ({ path }) => {
		if (path !== SESSIONS) return;
		// Only the first is held: a second one (the bug) would go through and deliver again.
		if (++hold.arrivals > 1) return;
		arrive();
		await released;
	});
	return hold;
}

describe('AirSign Trigger: n8n starts a poll while the previous one is still running', () => {
	it('the second poll does nothing; the running one delivers each update once', async () => {
		const sandbox = getSandbox();
		const trigger = newTrigger(sandbox);
		expect((await trigger.poll()).emitted).toBe(false); // activation: the cursor is "now"
		sandbox.clock.advance(5_000);
		const session = sandbox.createSession({ name: 'Signed contract' });
		sandbox.clock.advance(5_000);

		const hold = holdListSessions(sandbox);
		const running = trigger.poll();
		await hold.arrived;
		const overlapping = await trigger.poll();
		expect(overlapping).toMatchObject({ emitted: false, items: [] });
		expect(overlapping.error).toBeUndefined();
		// The overlapping poll sent nothing: only the running poll's request reached AirSign.
		expect(hold.arrivals).toBe(1);

		hold.release();
		const first = await running;
		expect(first.items.map((item) => item.json.sessionId)).toEqual([session.sessionId]);

		const requestsAfterFirst = listRequests(sandbox).length;
		// Once it has ended, the next tick polls again, and the update does not come back.
		sandbox.clock.advance(60_000);
		const next = await trigger.poll();
		expect(next.error).toBeUndefined();
		expect(next.items).toEqual([]);
		expect(listRequests(sandbox).length).toBeGreaterThan(requestsAfterFirst);
	});

	it('a poll that failed lets the next one run', async () => {
		const sandbox = getSandbox();
		const trigger = newTrigger(sandbox);
		await trigger.poll();
		sandbox.clock.advance(5_000);
		sandbox.injectFault({ kind: 'status', status: 403, path: SESSIONS, count: 1 });
		expect((await trigger.poll()).error).toBeDefined();

		const session = sandbox.createSession({ name: 'After the failure' });
		sandbox.clock.advance(5_000);
		const after = await trigger.poll();
		expect(after.error).toBeUndefined();
		expect(after.items.map((item) => item.json.sessionId)).toEqual([session.sessionId]);
	});

	it('two different triggers poll at the same time, each on its own', async () => {
		const sandbox = getSandbox();
		const triggers = [newTrigger(sandbox), newTrigger(sandbox)];
		for (const trigger of triggers) await trigger.poll();
		sandbox.clock.advance(5_000);
		const session = sandbox.createSession({ name: 'Seen by both' });
		sandbox.clock.advance(5_000);

		const results = await Promise.all(triggers.map(async (trigger) => await trigger.poll()));
		for (const result of results) {
			expect(result.items.map((item) => item.json.sessionId)).toEqual([session.sessionId]);
		}
	});
});
