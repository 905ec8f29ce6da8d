/**
 * Regression tests for what fuzzing the trigger's answers found (test/fuzz/triggerAnswers.test.ts):
 * each a plain example that failed before its fix. docs/reliability.md lists them.
 */
import '../../harness';

import { describe, expect, it } from 'vitest';

import {
	activated,
	demoSessions,
	drain,
	HOUR,
	key,
	Ledger,
	SESSIONS,
	useTriggerSandbox,
} from './helpers';

const sandbox = useTriggerSandbox();

describe('fuzz findings: List Sessions answers with an unreadable session', () => {
	it.each([
		['a sessionId that is not an ID', { path: ['sessions', 0, 'sessionId'], value: [] }],
		['no sessionId', { path: ['sessions', 0, 'sessionId'], delete: true }],
		['an updatedAt that is not a time', { path: ['sessions', 0, 'updatedAt'], value: 'soon' }],
		['a session that is not an object', { path: ['sessions', 0], value: 42 }],
		['a null recipient', { path: ['sessions', 0, 'recipients'], value: [null] }],
	])(
		'%s: no TypeError, nothing malformed is emitted, the cursor stays, the next poll delivers all',
		async (_label, edit) => {
			const trigger = await activated(sandbox);
			const start = sandbox.clock.now();
			// The mangled one is the oldest (sorted ascending): a newer one must not carry the cursor past it.
			sandbox.createSession({ name: 'first', updatedAt: start });
			sandbox.createSession({ name: 'second', updatedAt: start + 1 });
			sandbox.clock.advance(5_000);
			const cursorBefore = trigger.nodeStaticData.cursor;

			sandbox.injectFault({ kind: 'mangle', path: SESSIONS, count: 3, answer: { edits: [edit] } });
			const ledger = new Ledger();
			const faulted = await trigger.poll();
			expect(faulted.error?.message ?? '').not.toMatch(/Cannot read properties/);
			expect(ledger.record(faulted)).toEqual([]);
			expect(trigger.nodeStaticData.cursor).toBe(cursorBefore);

			sandbox.clearFaults();
			sandbox.clock.advance(5_000);
			await drain(sandbox, trigger, ledger);
			expect(ledger.items.map((s) => s.name)).toEqual(['first', 'second']);
			expect(ledger.lost(demoSessions(sandbox))).toEqual([]);
			const [first] = demoSessions(sandbox);
			expect([...ledger.counts.keys()]).toContain(key(first.sessionId, first.updatedAt));
		},
	);
});

describe('fuzz findings: rate-limit headers out of range', () => {
	it('X-RateLimit-Reset in the year 2200: the trigger keeps reading within the hour', async () => {
		const trigger = await activated(sandbox);
		const headers = { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '7258118400' };
		sandbox.injectFault({ kind: 'mangle', path: SESSIONS, answer: { headers } });
		await trigger.poll();
		sandbox.clock.advance(HOUR + 5_000);
		sandbox.createSession({ name: 'later' });
		sandbox.clock.advance(5_000);
		const ledger = new Ledger();
		await drain(sandbox, trigger, ledger);
		expect(ledger.items.map((s) => s.name)).toEqual(['later']);
	});
});

describe('fuzz findings: a full page that says it is the last', () => {
	it('hasMore false on a full first page of 101 updates: the cursor stays before the 101st, which the next read delivers', async () => {
		const trigger = await activated(sandbox);
		const start = sandbox.clock.now();
		for (let i = 0; i <= 100; i++) sandbox.createSession({ name: `u${i}`, updatedAt: start + i });
		sandbox.clock.advance(5_000);

		const lastPage = { path: ['pagination', 'hasMore'], value: false };
		sandbox.injectFault({ kind: 'mangle', path: SESSIONS, answer: { edits: [lastPage] } });
		const ledger = new Ledger();
		ledger.record(await trigger.poll());
		sandbox.clearFaults();
		const passed = demoSessions(sandbox).filter(
			(s) =>
				Date.parse(s.updatedAt) < Date.parse(String(trigger.nodeStaticData.cursor)) &&
				!ledger.counts.has(key(s.sessionId, s.updatedAt)),
		);
		expect(passed.map((s) => s.name)).toEqual([]);

		await drain(sandbox, trigger, ledger);
		expect(ledger.lost(demoSessions(sandbox))).toEqual([]);
		expect(ledger.items).toHaveLength(101);
	});
});
