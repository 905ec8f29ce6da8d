import '../../harness';

import { describe, expect, it } from 'vitest';

import type { Sandbox } from '../../../sandbox';
import {
	T0,
	demoSessions,
	drain,
	Ledger,
	listRequests,
	newTrigger,
	pollAndRecord,
} from './helpers';
import { useSandbox } from '../../harness/sandbox';

const getSandbox = useSandbox({ now: T0, followClock: true });

type Combo = { inclusive: boolean; precision: 'ms' | 's'; tieOrder: 'id' | 'random' };
const combos: Combo[] = [];
for (const inclusive of [false, true]) {
	for (const precision of ['ms', 's'] as const) {
		for (const tieOrder of ['id', 'random'] as const)
			combos.push({ inclusive, precision, tieOrder });
	}
}

function configure(sandbox: Sandbox, combo: Combo) {
	sandbox.config.updatedAfterInclusive = combo.inclusive;
	sandbox.config.timestampPrecision = combo.precision;
	sandbox.config.tieOrder = combo.tieOrder;
	sandbox.config.rateLimitPerHour = 100_000;
}

/** Activates a trigger at the current sandbox time; returns it with an empty ledger. */
async function activate(sandbox: Sandbox) {
	const trigger = newTrigger(sandbox);
	const ledger = new Ledger();
	const first = await trigger.poll();
	expect(first.error).toBeUndefined();
	expect(first.emitted).toBe(false);
	sandbox.clock.advance(5_000);
	return { trigger, ledger };
}

function expectExactlyOnce(sandbox: Sandbox, ledger: Ledger, expected: number) {
	expect(ledger.errors).toEqual([]);
	expect(ledger.lost(demoSessions(sandbox)).map((s) => s.sessionId)).toEqual([]);
	expect(ledger.repeated()).toEqual([]);
	expect(ledger.delivered).toBe(expected);
}

describe.each(combos)(
	'AirSign Trigger ties: updatedAfterInclusive=$inclusive, precision=$precision, tieOrder=$tieOrder',
	(combo) => {
		it('several sessions at one instant are each delivered once', async () => {
			const sandbox = getSandbox();
			configure(sandbox, combo);
			const { trigger, ledger } = await activate(sandbox);
			const at = sandbox.clock.now() + 321; // same second in 's' mode too
			for (let i = 0; i < 7; i++)
				sandbox.createSession({ name: `tie ${i}`, updatedAt: at, createdAt: at - 60_000 });
			sandbox.createSession({ name: 'before', updatedAt: at - 2_000, createdAt: at - 60_000 });
			sandbox.clock.advance(5_000);
			const items = await pollAndRecord(sandbox, trigger, ledger);
			expect(items[0].name).toBe('before');
			expect(items).toHaveLength(8);
			// Another tie at the same instant the cursor is near, after a poll: still once.
			sandbox.clock.advance(5_000);
			const next = sandbox.clock.now() + 7;
			for (let i = 0; i < 3; i++) sandbox.createSession({ name: `tie2 ${i}`, updatedAt: next });
			sandbox.clock.advance(5_000);
			expect(await pollAndRecord(sandbox, trigger, ledger)).toHaveLength(3);
			await drain(sandbox, trigger, ledger);
			expectExactlyOnce(sandbox, ledger, 11);
		});

		it('ties arriving in the settle window across polls: nothing repeated, nothing lost', async () => {
			const sandbox = getSandbox();
			configure(sandbox, combo);
			const { trigger, ledger } = await activate(sandbox);
			// Polls 300 ms apart: the cursor stays 2 s behind, the same instants are read again.
			let made = 0;
			for (let round = 0; round < 12; round++) {
				for (let i = 0; i < 4; i++) {
					sandbox.createSession({ name: `r${round}-${i}` });
					made++;
				}
				await pollAndRecord(sandbox, trigger, ledger, 300);
			}
			sandbox.clock.advance(5_000);
			await drain(sandbox, trigger, ledger);
			expectExactlyOnce(sandbox, ledger, made);
		});

		it('a tie group larger than a page (250 at one instant, distinct createdAt)', async () => {
			const sandbox = getSandbox();
			configure(sandbox, combo);
			const { trigger, ledger } = await activate(sandbox);
			const at = sandbox.clock.now();
			for (let i = 0; i < 20; i++)
				sandbox.createSession({
					name: `early ${i}`,
					updatedAt: at - 3_000 + i,
					createdAt: at - 900_000,
				});
			for (let i = 0; i < 250; i++) {
				sandbox.createSession({
					name: `tie ${i}`,
					updatedAt: at,
					createdAt: at - 800_000 + i * 1_000,
				});
			}
			for (let i = 0; i < 30; i++)
				sandbox.createSession({
					name: `late ${i}`,
					updatedAt: at + 1_000 + i,
					createdAt: at - 900_000,
				});
			sandbox.clock.advance(10_000);
			const items = await pollAndRecord(sandbox, trigger, ledger);
			expect(items.length).toBe(300);
			// Oldest first: every "early" before every tie, every tie before every "late".
			const kinds = items.map((s) => String(s.name).split(' ')[0]);
			expect(kinds.lastIndexOf('early')).toBeLessThan(kinds.indexOf('tie'));
			expect(kinds.lastIndexOf('tie')).toBeLessThan(kinds.indexOf('late'));
			await drain(sandbox, trigger, ledger);
			expectExactlyOnce(sandbox, ledger, 300);
		});

		it('a tie group larger than a page that also shares createdAt (230 identical instants)', async () => {
			const sandbox = getSandbox();
			configure(sandbox, combo);
			const { trigger, ledger } = await activate(sandbox);
			const at = sandbox.clock.now();
			for (let i = 0; i < 230; i++)
				sandbox.createSession({ name: `same ${i}`, updatedAt: at, createdAt: at - 5_000 });
			for (let i = 0; i < 40; i++)
				sandbox.createSession({ name: `other ${i}`, updatedAt: at, createdAt: at - 10_000 - i });
			sandbox.createSession({ name: 'after', updatedAt: at + 1_500 });
			sandbox.clock.advance(10_000);
			await drain(sandbox, trigger, ledger);
			expectExactlyOnce(sandbox, ledger, 271);
			expect(ledger.items.at(-1)?.name).toBe('after');
		});

		it('with 100+ sessions at the newest instant, a quiet poll still costs exactly one request', async () => {
			const sandbox = getSandbox();
			configure(sandbox, combo);
			const { trigger, ledger } = await activate(sandbox);
			const at = sandbox.clock.now();
			for (let i = 0; i < 150; i++)
				sandbox.createSession({ name: `last ${i}`, updatedAt: at, createdAt: at - 5_000 });
			sandbox.clock.advance(10_000);
			expect(await pollAndRecord(sandbox, trigger, ledger)).toHaveLength(150);
			for (let i = 0; i < 3; i++) {
				sandbox.clearRequests();
				expect(await pollAndRecord(sandbox, trigger, ledger)).toEqual([]);
				expect(listRequests(sandbox)).toHaveLength(1);
			}
			expect(trigger.nodeStaticData.delivered).toEqual([]);
			expectExactlyOnce(sandbox, ledger, 150);
		});

		it('sessions updated and created while a poll is paging: nothing skipped, nothing repeated', async () => {
			const sandbox = getSandbox();
			configure(sandbox, combo);
			const { trigger, ledger } = await activate(sandbox);
			const base = sandbox.clock.now();
			const ids: string[] = [];
			for (let i = 0; i < 420; i++) {
				// Groups of three share an instant; 420 updates span several pages.
				ids.push(
					sandbox.createSession({
						name: `s${i}`,
						updatedAt: base + Math.floor(i / 3) * 7,
						createdAt: base - 1e6 + i * 1_000,
					}).sessionId,
				);
			}
			sandbox.clock.advance(10_000);
			let request = 0;
			const step = combo.precision === 's' ? 1_000 : 3;
			const unsubscribe = sandbox.onRequest(({ path }) => {
				if (path !== '/api/v1/Sessions') return;
				request++;
				// Between pages: time passes, an already read session and a not yet read one
				// change, and a new one appears.
				sandbox.clock.advance(step);
				sandbox.updateSession(ids[(request * 37) % 60], { status: 'pending' });
				sandbox.updateSession(ids[(400 - request * 11) % 420], { status: 'inProgress' });
				sandbox.createSession({ name: `during ${request}` });
			});
			await pollAndRecord(sandbox, trigger, ledger);
			await pollAndRecord(sandbox, trigger, ledger);
			unsubscribe();
			await drain(sandbox, trigger, ledger);
			expect(ledger.errors).toEqual([]);
			expect(ledger.lost(demoSessions(sandbox)).map((s) => s.name)).toEqual([]);
			expect(ledger.repeated()).toEqual([]);
			expect(request).toBeGreaterThan(4);
		});
	},
);

describe('AirSign Trigger ties: request cost', () => {
	it('a 250-session tie group takes a bounded number of requests (strict, ids in order)', async () => {
		const sandbox = getSandbox();
		sandbox.config.rateLimitPerHour = 100_000;
		const { trigger, ledger } = await activate(sandbox);
		const at = sandbox.clock.now();
		for (let i = 0; i < 250; i++)
			sandbox.createSession({ name: `tie ${i}`, updatedAt: at, createdAt: at - 800_000 + i });
		sandbox.clock.advance(10_000);
		sandbox.clearRequests();
		const items = await pollAndRecord(sandbox, trigger, ledger);
		expect(items).toHaveLength(250);
		expect(listRequests(sandbox).length).toBeLessThanOrEqual(8);
	});
});
