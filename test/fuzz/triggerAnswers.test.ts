/** The AirSign Trigger, through n8n's poll engine, against fuzzed List Sessions answers (answers.ts). */
import '../harness';

import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';

import { UUID_PATTERN } from '../../nodes/AirSign/helpers/constants';
import { captureOutput, recordSleeps, serialise } from '../nodes/airSign/helpers';
import { T0, demoSessions, drain, key, Ledger, newTrigger } from '../nodes/airSignTrigger/helpers';
import { answerFault } from './answers';
import { announce, checkProperty, count } from './budget';
import { FORBIDDEN_WORDS } from './values';
import { useSandbox } from '../harness/sandbox';

const getSandbox = useSandbox({ now: T0, followClock: true });
beforeAll(() => announce('trigger answers'));

describe('trigger answers, fuzzed: no malformed item, the cursor never passes an unread update, nothing lost or repeated', () => {
	it('List Sessions answers of every kind, on the first page or a later one', async () => {
		recordSleeps(() => 0); // no real waits; restored when the test ends
		const cases = fc.record({
			fault: answerFault('/api/v1/Sessions'),
			// Mostly a few updates; sometimes more than a page (100), so that page 2 is faulted too.
			updates: fc.oneof(
				{ arbitrary: fc.integer({ min: 0, max: 8 }), weight: 4 },
				{ arbitrary: fc.integer({ min: 101, max: 130 }), weight: 1 },
			),
			skip: fc.constantFrom(0, 0, 1),
		});
		await checkProperty(
			'answers: trigger',
			fc.asyncProperty(cases, async ({ fault, updates, skip }) => {
				const sandbox = getSandbox();
				sandbox.reset();
				vi.setSystemTime(sandbox.clock.now());
				const trigger = newTrigger(sandbox);
				expect((await trigger.poll()).error).toBeUndefined();
				sandbox.clock.advance(5_000);
				const start = sandbox.clock.now();
				for (let i = 0; i < updates; i++)
					sandbox.createSession({ name: `u${i}`, updatedAt: start + i, createdAt: start - 1e6 });
				sandbox.clock.advance(updates + 5_000);

				const ledger = new Ledger();
				sandbox.injectFault({ ...fault, skip });
				const capture = captureOutput();
				let result;
				try {
					result = await trigger.poll();
				} finally {
					capture.restore();
				}
				ledger.record(result);
				count(`answers ${fault.kind}`);
				count(
					result.error ? 'poll failed' : result.items.length > 0 ? 'poll delivered' : 'poll quiet',
				);
				// No malformed item: each is a session with its ID and a readable updatedAt.
				for (const { json } of result.items) {
					const { sessionId, updatedAt } = json;
					const readable = !Number.isNaN(Date.parse(String(updatedAt)));
					expect(
						typeof sessionId === 'string' && UUID_PATTERN.test(sessionId),
						serialise(json),
					).toBe(true);
					expect(readable, serialise(json)).toBe(true);
				}
				const message = result.error?.message.toLowerCase() ?? '';
				for (const word of FORBIDDEN_WORDS)
					expect(message, result.error?.message).not.toContain(word.toLowerCase());
				// A mangled answer that stays readable but hides sessions (the list replaced by another)
				// is AirSign saying they do not exist: no client can see through that, so what it hid
				// is not required. Every other answer must leave nothing behind.
				const hid =
					fault.kind === 'mangle' &&
					!result.error &&
					(fault.answer?.edits ?? []).some((e) => e.path[0] === 'sessions' && e.path.length <= 2);
				count(hid ? 'answers hiding sessions (loss allowed)' : 'answers held to no loss');
				// The cursor's invariant: every update before it has been delivered.
				const cursor = Date.parse(String(trigger.nodeStaticData.cursor));
				const passed = demoSessions(sandbox).filter(
					(s) =>
						Date.parse(s.updatedAt) < cursor && !ledger.counts.has(key(s.sessionId, s.updatedAt)),
				);
				if (!hid)
					expect(
						passed.map((s) => s.name),
						'updates the cursor moved over without delivering them',
					).toEqual([]);
				const secrets = [sandbox.demo.accessToken, sandbox.demo.clientSecret];
				const seen = [serialise(result), capture.text()].join('\n');
				for (const secret of secrets) expect(seen).not.toContain(secret);

				// Afterwards: AirSign answers normally again; nothing is lost, nothing repeated.
				sandbox.clearFaults();
				// Past the hourly budget window: a fuzzed answer may have said the budget is spent.
				sandbox.clock.advance(60 * 60_000 + 5_000);
				await drain(sandbox, trigger, ledger);
				count('sessions delivered', ledger.delivered);
				// A repeat is the same state delivered twice: after a readable mangled answer passed
				// through, the true state at the same updatedAt is another state (trigger/state.ts).
				const states = ledger.items.map((s) => JSON.stringify(s));
				expect(states.filter((state, i) => states.indexOf(state) !== i)).toEqual([]);
				const mangledPassedThrough = fault.kind === 'mangle' && !result.error;
				if (!mangledPassedThrough) expect(ledger.repeated()).toEqual([]);
				if (!hid) expect(ledger.lost(demoSessions(sandbox)).map((s) => s.name)).toEqual([]);
			}),
		);
	});
});
