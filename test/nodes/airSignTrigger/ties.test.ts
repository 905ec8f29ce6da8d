import '../../harness';

import { describe, expect, it } from 'vitest';

import { drive } from '../../harness/drive';
import {
	clientCredential,
	createMany,
	drain,
	expectClean,
	Ledger,
	listRequests,
	newTrigger,
	pollAndRecord,
	pollOk,
	T0,
	useTriggerSandbox,
} from './helpers';

const sandbox = useTriggerSandbox();

type Combo = { inclusive: boolean; precision: 'ms' | 's'; tieOrder: 'id' | 'random' };
const combos: Combo[] = [false, true].flatMap((inclusive) =>
	(['ms', 's'] as const).flatMap((precision) =>
		(['id', 'random'] as const).map((tieOrder) => ({ inclusive, precision, tieOrder })),
	),
);

/** The sandbox set up as `combo` says, and a trigger activated at its current time. */
async function start(combo?: Combo) {
	if (combo) {
		sandbox.config.updatedAfterInclusive = combo.inclusive;
		sandbox.config.timestampPrecision = combo.precision;
		sandbox.config.tieOrder = combo.tieOrder;
	}
	sandbox.config.rateLimitPerHour = 100_000;
	const trigger = newTrigger(sandbox);
	expect((await pollOk(trigger)).emitted).toBe(false);
	sandbox.clock.advance(5_000);
	return { trigger, ledger: new Ledger() };
}

/** Nothing lost, repeated or shown as an error, and `expected` delivered. */
function expectExactlyOnce(ledger: Ledger, expected: number) {
	expectClean(sandbox, ledger);
	expect(ledger.delivered).toBe(expected);
}

describe.each(combos)(
	'AirSign Trigger ties: updatedAfterInclusive=$inclusive, precision=$precision, tieOrder=$tieOrder',
	(combo) => {
		it('several sessions at one instant are each delivered once', async () => {
			const { trigger, ledger } = await start(combo);
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
			expectExactlyOnce(ledger, 11);
		});

		it('ties arriving in the settle window across polls: nothing repeated, nothing lost', async () => {
			const { trigger, ledger } = await start(combo);
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
			expectExactlyOnce(ledger, made);
		});

		it('a tie group larger than a page (250 at one instant, distinct createdAt)', async () => {
			const { trigger, ledger } = await start(combo);
			const at = sandbox.clock.now();
			const add = (name: string, updatedAt: number, createdAt: number) =>
				sandbox.createSession({ name, updatedAt, createdAt });
			for (let i = 0; i < 20; i++) add(`early ${i}`, at - 3_000 + i, at - 900_000);
			for (let i = 0; i < 250; i++) add(`tie ${i}`, at, at - 800_000 + i * 1_000);
			for (let i = 0; i < 30; i++) add(`late ${i}`, at + 1_000 + i, at - 900_000);
			sandbox.clock.advance(10_000);
			const items = await pollAndRecord(sandbox, trigger, ledger);
			expect(items.length).toBe(300);
			// Oldest first: every "early" before every tie, every tie before every "late".
			const kinds = items.map((s) => String(s.name).split(' ')[0]);
			expect(kinds.lastIndexOf('early')).toBeLessThan(kinds.indexOf('tie'));
			expect(kinds.lastIndexOf('tie')).toBeLessThan(kinds.indexOf('late'));
			await drain(sandbox, trigger, ledger);
			expectExactlyOnce(ledger, 300);
		});

		it('a tie group larger than a page that also shares createdAt (230 identical instants)', async () => {
			const { trigger, ledger } = await start(combo);
			const at = sandbox.clock.now();
			for (let i = 0; i < 230; i++)
				sandbox.createSession({ name: `same ${i}`, updatedAt: at, createdAt: at - 5_000 });
			for (let i = 0; i < 40; i++)
				sandbox.createSession({ name: `other ${i}`, updatedAt: at, createdAt: at - 10_000 - i });
			sandbox.createSession({ name: 'after', updatedAt: at + 1_500 });
			sandbox.clock.advance(10_000);
			await drain(sandbox, trigger, ledger);
			expectExactlyOnce(ledger, 271);
			expect(ledger.items.at(-1)?.name).toBe('after');
		});

		it('with 100+ sessions at the newest instant, a quiet poll still costs exactly one request', async () => {
			const { trigger, ledger } = await start(combo);
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
			expectExactlyOnce(ledger, 150);
		});

		it('sessions updated and created while a poll is paging: nothing skipped, nothing repeated', async () => {
			const { trigger, ledger } = await start(combo);
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
			// Between pages: time passes, an already read session and a not yet read one change,
			// and a new one appears.
			await drive(sandbox, {
				while: (round) => round < 2,
				during: () => () => {
					request++;
					sandbox.clock.advance(step);
					sandbox.updateSession(ids[(request * 37) % 60], { status: 'pending' });
					sandbox.updateSession(ids[(400 - request * 11) % 420], { status: 'inProgress' });
					sandbox.createSession({ name: `during ${request}` });
				},
				poll: () => trigger.poll(),
				after: (result) => void ledger.record(result),
			});
			await drain(sandbox, trigger, ledger);
			expectClean(sandbox, ledger);
			expect(request).toBeGreaterThan(4);
		});
	},
);

it('AirSign Trigger ties: a 250-session tie group takes a bounded number of requests (strict, ids in order)', async () => {
	const { trigger, ledger } = await start();
	const at = sandbox.clock.now();
	for (let i = 0; i < 250; i++)
		sandbox.createSession({ name: `tie ${i}`, updatedAt: at, createdAt: at - 800_000 + i });
	sandbox.clock.advance(10_000);
	sandbox.clearRequests();
	const items = await pollAndRecord(sandbox, trigger, ledger);
	expect(items).toHaveLength(250);
	expect(listRequests(sandbox).length).toBeLessThanOrEqual(8);
});

it.each(['ms', 's'] as const)(
	'AirSign Trigger: several sessions at the newest instant at activation: none is before the start, each comes once, then only their later changes (%s timestamps)',
	async (precision) => {
		sandbox.config.timestampPrecision = precision;
		// Five sessions changed at the instant the trigger is activated (frozen clock).
		const tied = createMany(sandbox, 5);
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

it('AirSign Trigger: two changes within one whole-second timestamp: delivers the second state too, and the same state read again only once', async () => {
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

it('AirSign Trigger: client-credentials tokens: renews an expired token by itself between polls, without a failed poll', async () => {
	sandbox.config.tokenTtlSeconds = 60;
	const trigger = newTrigger(sandbox, { credential: clientCredential(sandbox) });
	await pollOk(trigger);
	const ledger = new Ledger();
	for (let poll = 0; poll < 5; poll++) {
		// Each poll comes after the previous token has expired.
		sandbox.clock.advance(90_000);
		const expected = sandbox.createSession({ name: `After ${poll}` }).sessionId;
		sandbox.clock.advance(3_000);
		const items = await pollAndRecord(sandbox, trigger, ledger);
		expect(items.map((s) => s.sessionId)).toEqual([expected]);
	}
	expect(ledger.errors).toEqual([]);
	const tokenRequests = sandbox.requests.filter((r) => r.path === '/oidc/token');
	expect(tokenRequests.length).toBe(6);
	expect(listRequests(sandbox).filter((r) => r.status === 200).length).toBe(6);
	expect(T0).toBeLessThan(sandbox.clock.now());
});
