import '../../harness';

import { describe, expect, it } from 'vitest';

import {
	clientCredential,
	Ledger,
	listRequests,
	newTrigger,
	pollAndRecord,
	T0,
	useTriggerSandbox,
} from './helpers';

const getSandbox = useTriggerSandbox();

describe('AirSign Trigger: activation with several sessions at the newest instant', () => {
	it.each(['ms', 's'] as const)(
		'none is before the start: each comes once, then only their later changes (%s timestamps)',
		async (precision) => {
			const sandbox = getSandbox();
			sandbox.config.timestampPrecision = precision;
			// Five sessions changed at the instant the trigger is activated (frozen clock).
			const tied = Array.from({ length: 5 }, (_, i) =>
				sandbox.createSession({ name: `Tied ${i}` }),
			);
			const trigger = newTrigger(sandbox);
			expect((await trigger.poll()).emitted).toBe(false);

			sandbox.clock.advance(5_000);
			const ledger = new Ledger();
			const first = await pollAndRecord(sandbox, trigger, ledger);
			expect(first.map((s) => s.name).sort()).toEqual(tied.map((s) => s.name).sort());
			expect(await pollAndRecord(sandbox, trigger, ledger)).toEqual([]);

			sandbox.updateSession(tied[2].sessionId, { status: 'cancelled' });
			sandbox.clock.advance(3_000);
			const items = await pollAndRecord(sandbox, trigger, ledger);
			expect(items.map((s) => [s.sessionId, s.status])).toEqual([[tied[2].sessionId, 'cancelled']]);
		},
	);
});

describe('AirSign Trigger: two changes within one whole-second timestamp', () => {
	it('delivers the second state too, and the same state read again only once', async () => {
		const sandbox = getSandbox();
		sandbox.config.timestampPrecision = 's';
		const session = sandbox.createSession({ name: 'Contract', status: 'pending' });
		const trigger = newTrigger(sandbox);
		await trigger.poll();
		sandbox.clock.advance(5_000);
		const ledger = new Ledger();

		// First change, read by a poll, then a second change in the same second (frozen clock).
		sandbox.updateSession(session.sessionId, { status: 'inProgress' });
		const first = await pollAndRecord(sandbox, trigger, ledger, 0);
		expect(first.map((s) => s.status)).toEqual(['inProgress']);
		sandbox.updateSession(session.sessionId, { status: 'completed' });
		const second = await pollAndRecord(sandbox, trigger, ledger, 0);
		expect(second.map((s) => s.status)).toEqual(['completed']);
		expect(second[0].updatedAt).toBe(first[0].updatedAt);

		sandbox.clock.advance(5_000);
		expect(await pollAndRecord(sandbox, trigger, ledger)).toEqual([]);
	});
});

describe('AirSign Trigger: client-credentials tokens', () => {
	it('renews an expired token by itself between polls, without a failed poll', async () => {
		const sandbox = getSandbox();
		sandbox.config.tokenTtlSeconds = 60;
		const trigger = newTrigger(sandbox, { credential: clientCredential(sandbox) });
		const ledger = new Ledger();
		expect((await trigger.poll()).error).toBeUndefined();
		const expected: string[] = [];
		for (let poll = 0; poll < 5; poll++) {
			// Each poll comes after the previous token has expired.
			sandbox.clock.advance(90_000);
			expected.push(sandbox.createSession({ name: `After ${poll}` }).sessionId);
			sandbox.clock.advance(3_000);
			const items = await pollAndRecord(sandbox, trigger, ledger);
			expect(items.map((s) => s.sessionId)).toEqual([expected[poll]]);
		}
		expect(ledger.errors).toEqual([]);
		const tokenRequests = sandbox.requests.filter((r) => r.path === '/oidc/token');
		expect(tokenRequests.length).toBe(6);
		expect(listRequests(sandbox).filter((r) => r.status === 200).length).toBe(6);
		expect(T0).toBeLessThan(sandbox.clock.now());
	});
});
