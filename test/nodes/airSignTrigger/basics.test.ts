import '../../harness';

import { describe, expect, it } from 'vitest';

import type { Sandbox } from '../../../sandbox';
import {
	T0,
	createMany,
	cursorOf,
	DAY,
	demoSessions,
	drain,
	expectClean,
	HOUR,
	key,
	Ledger,
	listRequests,
	newTrigger,
	pollAndRecord,
	pollOk,
	savedTrigger,
	SESSIONS,
	useTriggerSandbox,
	step,
} from './helpers';

const sandbox = useTriggerSandbox();

describe('AirSign Trigger: first activation', () => {
	it('starts from the present on the server clock: one request (the sessions in flight), no history delivered', async () => {
		for (let i = 0; i < 30; i++) {
			sandbox.createSession({
				name: `Old ${i}`,
				createdAt: T0 - (i + 1) * HOUR,
				status: 'completed',
			});
		}
		const trigger = newTrigger(sandbox);

		expect((await pollOk(trigger)).emitted).toBe(false);
		expect(listRequests(sandbox)).toHaveLength(1);
		expect(listRequests(sandbox)[0].query).toMatchObject({
			status: 'draft,pending,inProgress',
			sortBy: 'createdAt',
			sortOrder: 'asc',
			limit: '100',
		});
		// The cursor is the sandbox's "now" (2030), not the machine's.
		expect(cursorOf(trigger)).toBe(T0);

		sandbox.clock.advance(10_000);
		const ledger = new Ledger();
		expect(await pollAndRecord(sandbox, trigger, ledger)).toEqual([]);
		expect(ledger.errors).toEqual([]);

		// Only what changes after activation arrives.
		const [a, b] = demoSessions(sandbox);
		step(sandbox, () => sandbox.updateSession(a.sessionId, { status: 'cancelled' }));
		const fresh = sandbox.createSession({ name: 'New one' });
		sandbox.clock.advance(1_000);
		sandbox.updateSession(b.sessionId, { name: 'Renamed' });
		sandbox.clock.advance(3_000);

		const items = await pollAndRecord(sandbox, trigger, ledger);
		expect(items.map((s) => s.sessionId)).toEqual([a.sessionId, fresh.sessionId, b.sessionId]);
		expect(items.map((s) => s.status)).toEqual(['cancelled', 'draft', 'completed']);
		expect(await pollAndRecord(sandbox, trigger, ledger)).toEqual([]);
		expect(ledger.repeated()).toEqual([]);
	});

	it('a session stamped in the future at activation does not hold the cursor in the future, and comes once', async () => {
		sandbox.createSession({ name: 'From the future', updatedAt: T0 + DAY });
		sandbox.createSession({ name: 'Past', createdAt: T0 - HOUR });
		const trigger = newTrigger(sandbox);
		const ledger = new Ledger();
		await pollAndRecord(sandbox, trigger, ledger);
		expect(cursorOf(trigger)).toBeLessThanOrEqual(T0);

		sandbox.createSession({ name: 'Made after activation' });
		sandbox.clock.advance(5_000);
		const items = await pollAndRecord(sandbox, trigger, ledger);
		// Created at the activation instant, the future session is not before the start: it comes
		// once, oldest update first. Every poll reads it again (its time is never behind the cursor).
		expect(items.map((s) => s.name)).toEqual(['Made after activation', 'From the future']);
		expect(await pollAndRecord(sandbox, trigger, ledger)).toEqual([]);
		expect(ledger.delivered).toBe(2);
	});
});

describe('AirSign Trigger: Start From', () => {
	it('delivers the history since that date, oldest first, then only new updates', async () => {
		const tooOld = sandbox.createSession({ name: 'ten days', createdAt: T0 - 10 * DAY });
		const d3 = sandbox.createSession({ name: 'three days', createdAt: T0 - 3 * DAY });
		const d1 = sandbox.createSession({ name: 'one day', createdAt: T0 - DAY });
		const d2 = sandbox.createSession({ name: 'two days', createdAt: T0 - 2 * DAY });
		const trigger = newTrigger(sandbox, {
			options: { startFrom: new Date(T0 - 4 * DAY).toISOString() },
		});
		const ledger = new Ledger();

		const items = await pollAndRecord(sandbox, trigger, ledger);
		expect(items.map((s) => s.name)).toEqual(['three days', 'two days', 'one day']);
		expect(items.map((s) => s.sessionId)).toEqual([d3.sessionId, d2.sessionId, d1.sessionId]);
		expect(await pollAndRecord(sandbox, trigger, ledger)).toEqual([]);

		sandbox.updateSession(tooOld.sessionId, { status: 'cancelled' });
		sandbox.clock.advance(3_000);
		const next = await pollAndRecord(sandbox, trigger, ledger);
		expect(next.map((s) => [s.sessionId, s.status])).toEqual([[tooOld.sessionId, 'cancelled']]);
		expect(ledger.repeated()).toEqual([]);
	});

	it('Start From in the workflow timezone is read as that zone', async () => {
		sandbox.createSession({ name: 'before', createdAt: Date.parse('2030-03-01T10:30:00Z') });
		sandbox.createSession({ name: 'after', createdAt: Date.parse('2030-03-01T11:30:00Z') });
		// 12:00 in Berlin (UTC+1 in March) is 11:00 UTC.
		const trigger = newTrigger(sandbox, {
			timezone: 'Europe/Berlin',
			options: { startFrom: '2030-03-01T12:00:00' },
		});
		expect((await pollOk(trigger)).items.map((i) => i.json.name)).toEqual(['after']);
	});
});

describe('AirSign Trigger: manual mode ("Fetch Test Event")', () => {
	it('returns the newest matching session as a sample and leaves static data untouched', async () => {
		sandbox.createSession({ name: 'completed old', status: 'completed', createdAt: T0 - 3 * HOUR });
		const newestCompleted = sandbox.createSession({
			name: 'completed new',
			status: 'completed',
			createdAt: T0 - 2 * HOUR,
		});
		sandbox.createSession({ name: 'draft newest', createdAt: T0 - HOUR });
		const cursor = new Date(T0 - 5 * DAY).toISOString();
		const staticData = { 'node:Trigger': { cursor, delivered: ['x@1'], failedPolls: 2 } };
		const trigger = newTrigger(sandbox, {
			mode: 'manual',
			filters: { status: ['completed'] },
			staticData,
		});
		const before = JSON.stringify(trigger.nodeStaticData);

		const result = await pollOk(trigger);
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({
			sessionId: newestCompleted.sessionId,
			status: 'completed',
		});
		expect(JSON.stringify(trigger.nodeStaticData)).toBe(before);
		expect(listRequests(sandbox).map((r) => r.query)).toEqual([
			{ status: 'completed', sortBy: 'updatedAt', sortOrder: 'desc', limit: '1', offset: '0' },
		]);

		// Again: the same sample, still nothing stored.
		const again = await trigger.poll();
		expect(again.items[0].json.sessionId).toBe(newestCompleted.sessionId);
		expect(JSON.stringify(trigger.nodeStaticData)).toBe(before);
	});

	it('with nothing matching it returns nothing and no error', async () => {
		sandbox.createSession({ name: 'draft' });
		const trigger = newTrigger(sandbox, { mode: 'manual', filters: { status: ['completed'] } });
		expect((await pollOk(trigger)).items).toEqual([]);
		expect(trigger.nodeStaticData).toEqual({});
	});
});

it('AirSign Trigger: filters: sends name and recipientEmail, applies Status to the new state, and delivers only what matches', async () => {
	const alice = { name: 'Alice', email: 'alice@example.com' };
	const bob = { name: 'Bob', email: 'bob@example.com' };
	const yesterday = (name: string, recipients: (typeof bob)[]) =>
		sandbox.createSession({ name, recipients, createdAt: T0 - DAY });
	const match = yesterday('Lease contract', [bob, alice]);
	const wrongName = yesterday('Invoice', [alice]);
	const wrongEmail = yesterday('Lease contract 2', [bob]);
	const trigger = newTrigger(sandbox, {
		filters: {
			status: ['completed', 'cancelled'],
			name: ' contract ',
			recipientEmail: 'Alice@Example.com',
		},
	});
	const ledger = new Ledger();
	await pollAndRecord(sandbox, trigger, ledger);

	sandbox.updateSession(match.sessionId, { status: 'inProgress' }); // wrong status
	sandbox.updateSession(wrongName.sessionId, { status: 'completed' });
	sandbox.updateSession(wrongEmail.sessionId, { status: 'completed' });
	sandbox.clock.advance(5_000);
	expect(await pollAndRecord(sandbox, trigger, ledger)).toEqual([]);

	sandbox.updateSession(match.sessionId, { status: 'completed' });
	sandbox.clock.advance(5_000);
	const items = await pollAndRecord(sandbox, trigger, ledger);
	expect(items.map((s) => [s.sessionId, s.status])).toEqual([[match.sessionId, 'completed']]);

	const queries = listRequests(sandbox).map((r) => r.query);
	expect(queries.length).toBeGreaterThan(0);
	for (const query of queries)
		expect(query).toMatchObject({ name: 'contract', recipientEmail: 'Alice@Example.com' });
	// Status is not sent with the updates (only the picture asks for the states in flight).
	expect(queries.filter((q) => q.sortBy === 'updatedAt').map((q) => q.status)).toEqual(
		queries.filter((q) => q.sortBy === 'updatedAt').map(() => undefined),
	);
	expect(listRequests(sandbox).every((r) => r.status === 200)).toBe(true);
});

describe('AirSign Trigger: items', () => {
	it('one item per updated session, in its state as listed, oldest update first', async () => {
		const sessions = createMany(sandbox, 5, { createdAt: T0 - DAY });
		const trigger = newTrigger(sandbox);
		const ledger = new Ledger();
		await pollAndRecord(sandbox, trigger, ledger);

		// Session 3 changes three times between polls, session 1 once, in this order.
		sandbox.updateSession(sessions[3].sessionId, { status: 'pending' });
		sandbox.clock.advance(10);
		sandbox.updateSession(sessions[1].sessionId, { status: 'inProgress' });
		sandbox.clock.advance(10);
		sandbox.updateSession(sessions[3].sessionId, { status: 'inProgress' });
		sandbox.clock.advance(10);
		const last = sandbox.updateSession(sessions[3].sessionId, {
			status: 'completed',
			name: 'Signed',
		});
		sandbox.clock.advance(5_000);

		const items = await pollAndRecord(sandbox, trigger, ledger);
		expect(items.map((s) => s.sessionId)).toEqual([sessions[1].sessionId, sessions[3].sessionId]);
		const listed = (await listDirect(sandbox)).find((s) => s.sessionId === sessions[3].sessionId);
		expect(items[1]).toEqual({
			...listed,
			event: 'anyChange',
			previousStatus: 'draft',
			previousStatusSeenAt: new Date(T0).toISOString(),
		});
		expect(items[1]).toMatchObject({
			status: 'completed',
			name: 'Signed',
			updatedAt: last.updatedAt,
		});
		expect(ledger.repeated()).toEqual([]);
	});

	it('survives a restart (static data through JSON) without loss or repeat', async () => {
		const trigger = newTrigger(sandbox);
		const ledger = new Ledger();
		await pollAndRecord(sandbox, trigger, ledger);
		createMany(sandbox, 150);
		sandbox.clock.advance(5_000);
		await pollAndRecord(sandbox, trigger, ledger);
		trigger.restart();
		createMany(sandbox, 20);
		sandbox.clock.advance(5_000);
		await drain(sandbox, trigger, ledger);
		expectClean(sandbox, ledger);
		expect(ledger.delivered).toBe(170);
		expect(new Set(ledger.items.map((s) => key(s.sessionId, s.updatedAt))).size).toBe(170);
	});
});

it('AirSign Trigger: static data saved only when a poll emits: a restart from the last saved copy (activation or emitting poll) loses and repeats nothing', async () => {
	const ledger = new Ledger();
	const n8n = savedTrigger(sandbox);
	const tick = async () => {
		ledger.record(await n8n.poll());
		sandbox.clock.advance(5_000);
	};
	await tick();
	for (let round = 0; round < 6; round++) {
		createMany(sandbox, round % 2 ? 0 : 130);
		sandbox.clock.advance(3_000);
		if (round === 3) sandbox.injectFault({ kind: 'rateLimit', path: SESSIONS, skip: 1 });
		await tick();
		await tick();
		await n8n.restart();
	}
	await drain(sandbox, n8n.trigger, ledger);
	expectClean(sandbox, ledger);
	expect(ledger.delivered).toBe(390);
});

describe.each([
	['2030', '2030-03-04T05:06:07.000Z'],
	['2019', '2019-07-08T09:10:11.000Z'],
])('AirSign Trigger: the server clock (%s) defines the cursor', (_label, now) => {
	it('cursor follows the sandbox clock, a future-stamped session does not stall polling', async () => {
		sandbox.clock.set(now);
		const start = Date.parse(now);
		const trigger = newTrigger(sandbox);
		const ledger = new Ledger();
		await pollAndRecord(sandbox, trigger, ledger);
		expect(cursorOf(trigger)).toBe(start);

		const a = sandbox.createSession({ name: 'a' });
		const future = sandbox.createSession({ name: 'future', updatedAt: start + 7 * DAY });
		sandbox.clock.advance(5_000);
		expect((await pollAndRecord(sandbox, trigger, ledger)).map((s) => s.sessionId)).toEqual([
			a.sessionId,
			future.sessionId,
		]);
		// Never past the server's now (less the settle window), whatever the data says.
		const cursor = cursorOf(trigger);
		expect(cursor).toBeLessThanOrEqual(sandbox.clock.now());
		expect(cursor).toBeGreaterThanOrEqual(start);

		for (let round = 0; round < 3; round++) {
			const b = sandbox.createSession({ name: `b${round}` });
			sandbox.clock.advance(5_000);
			expect((await pollAndRecord(sandbox, trigger, ledger)).map((s) => s.sessionId)).toEqual([
				b.sessionId,
			]);
		}
		ledger.expectSound();
		// Bounded: only the future session and the settle window are remembered.
		expect((trigger.nodeStaticData.delivered as string[]).length).toBeLessThanOrEqual(2);
	});
});

async function listDirect(sandbox: Sandbox) {
	const response = await fetch(`${sandbox.baseUrl}${SESSIONS}?limit=100`, {
		headers: { Authorization: `Bearer ${sandbox.demo.accessToken}` },
	});
	return ((await response.json()) as { sessions: Array<Record<string, unknown>> }).sessions;
}
