import '../../harness';

import { describe, expect, it } from 'vitest';

import type { PollHooks, PollingHarness } from '../../harness';
import type { Sandbox } from '../../../sandbox';
import {
	backlog,
	cursorOf,
	backlogNames,
	demoSessions,
	holdListSessions,
	Ledger,
	listRequests,
	MINUTE,
	newTrigger,
	pollAndRecord,
	pollOk,
	SESSIONS,
	useTriggerSandbox,
	schedulerTrigger,
} from './helpers';

const sandbox = useTriggerSandbox();

/** Every List Sessions request takes `ms` on the clocks (the sandbox's and n8n's `Date`). */
function slowListSessions(sandbox: Sandbox, ms: number) {
	return sandbox.onRequest(({ path }) => {
		if (path === SESSIONS) sandbox.clock.advance(ms);
	});
}

const names = (ledger: Ledger) => ledger.items.map((s) => s.name);

/** Polls a minute apart, recorded. */
async function pollEveryMinute(trigger: Pick<PollingHarness, 'poll'>, ledger: Ledger, n: number) {
	for (let i = 0; i < n; i++) await pollAndRecord(sandbox, trigger, ledger, MINUTE);
}

describe.each([true, false])(
	"AirSign Trigger under n8n 2.x's database-backed poll scheduler (durable cursors: %s)",
	(durableCursors) => {
		it('an update made between the activation poll and the first scheduled poll is delivered once', async () => {
			sandbox.createSession({ name: 'history', status: 'completed' });
			sandbox.clock.advance(MINUTE);
			const engine = schedulerTrigger(sandbox, {
				durableCursors,
				filters: { status: ['completed'] },
			});
			const ledger = new Ledger();

			expect((await pollOk(engine)).emitted).toBe(false);
			// What n8n keeps of the activation poll: with durable cursors, not the node's state.
			expect(engine.nodeState().cursor === undefined).toBe(durableCursors);

			sandbox.clock.advance(20_000);
			const signed = sandbox.createSession({ name: 'signed in between', status: 'inProgress' });
			sandbox.clock.advance(1_000);
			sandbox.updateSession(signed.sessionId, { status: 'completed' });
			sandbox.clock.advance(MINUTE);

			ledger.record(await pollOk(engine));
			expect(names(ledger)).toEqual(['signed in between']);
			sandbox.clock.advance(MINUTE);
			await pollEveryMinute(engine, ledger, 3);
			ledger.expectSound();
			expect(names(ledger)).toEqual(['signed in between']);
			expect(engine.nodeState().cursor).toBeDefined();
		});

		it('a scheduled poll that runs before the activation is saved starts again; the next poll goes back to the activation: 0 lost, 0 repeated', async () => {
			const engine = schedulerTrigger(sandbox, { durableCursors });
			const ledger = new Ledger();
			ledger.record(await engine.poll({ saveAfterActivation: false }));
			sandbox.clock.advance(500);
			sandbox.createSession({ name: 'during activation' });
			sandbox.clock.advance(500);
			// A scheduled poll that read the database before the activator saved it: a second start.
			ledger.record(await engine.poll({ activation: false }));
			engine.saveActivation();
			sandbox.clock.advance(MINUTE);
			sandbox.createSession({ name: 'after both' });
			sandbox.clock.advance(MINUTE);
			await pollEveryMinute(engine, ledger, 3);
			ledger.expectSound();
			expect(names(ledger)).toEqual(['during activation', 'after both']);
		});

		it('transient faults: the count lives in the static data only, so it goes as far as n8n keeps it', async () => {
			const engine = schedulerTrigger(sandbox, { durableCursors });
			await pollOk(engine);
			sandbox.clock.advance(MINUTE);
			// Each poll retries a 5xx once: two failed requests per poll.
			sandbox.injectFault({ kind: 'status', status: 503, path: SESSIONS, count: 20 });
			const outcomes: string[] = [];
			for (let i = 0; i < 10; i++) {
				const result = await engine.poll();
				sandbox.clock.advance(MINUTE);
				const reported = result.error?.message.match(/could not be read for (\d+) polls in a row/);
				outcomes.push(result.error ? `reported after ${reported?.[1]}` : 'quiet');
			}
			const quiet4 = Array<string>(4).fill('quiet');
			// Durable cursors keep a quiet poll's count, nothing of one that throws: from the 5th on,
			// each is reported. Without them nothing of a poll that emits nothing is kept: no count grows.
			expect(outcomes).toEqual(
				durableCursors
					? [...quiet4, ...Array<string>(6).fill('reported after 5')]
					: Array<string>(10).fill('quiet'),
			);
			sandbox.createSession({ name: 'after the outage' });
			sandbox.clock.advance(5_000);
			const ledger = new Ledger();
			ledger.record(await engine.poll());
			expect(names(ledger)).toEqual(['after the outage']);
		});

		it('a backlog that needs longer than the poll budget is delivered over several polls, none running past its budget', async () => {
			const budgetMs = 10_000;
			const engine = schedulerTrigger(sandbox, { durableCursors, budgetMs });
			await pollOk(engine);
			backlog(sandbox, 1_000);
			const ledger = new Ledger();
			slowListSessions(sandbox, 3_000); // until the sandbox's reset
			const requests: number[] = [];
			for (let i = 0; i < 12 && ledger.delivered < 1_000; i++) {
				const requestsBefore = listRequests(sandbox).length;
				const startedAt = Date.now();
				ledger.record(await pollOk(engine));
				// 3 s per page: two pages fit in 10 s with room for a third's worst case, not three.
				expect(Date.now() - startedAt).toBeLessThanOrEqual(budgetMs);
				requests.push(listRequests(sandbox).length - requestsBefore);
				sandbox.clock.advance(MINUTE);
			}
			// 199 new updates a poll (a page repeats the last row of the one before), the rest last.
			expect(requests).toEqual([2, 2, 2, 2, 2, 1]);
			expect(ledger.delivered).toBe(1_000);
			expect(ledger.repeated()).toEqual([]);
			expect(ledger.lost(demoSessions(sandbox))).toEqual([]);
			expect(names(ledger)).toEqual(backlogNames(1_000));
		});
	},
);

describe('AirSign Trigger and the poll time budget (getPollBudgetMs, n8n 2.9+)', () => {
	/** A trigger with this poll budget, activated, then a backlog of `n` sessions. */
	async function budgeted(getPollBudgetMs: (() => number) | null, n: number) {
		const trigger = newTrigger(sandbox, { pollHooks: (): PollHooks => ({ getPollBudgetMs }) });
		await pollOk(trigger);
		backlog(sandbox, n);
		return { trigger, cursor: trigger.nodeStaticData.cursor, ledger: new Ledger() };
	}

	it('without getPollBudgetMs (n8n 1.x, 2.0–2.8), a slow backlog is read in one poll, up to the request cap', async () => {
		const { trigger } = await budgeted(null, 1_000);
		// 11 pages of 30 s: longer than any budget n8n 2.9+ gives (n8n-core's default is 5 minutes).
		slowListSessions(sandbox, 30_000); // until the sandbox's reset
		const before = listRequests(sandbox).length;
		expect((await pollOk(trigger)).items).toHaveLength(1_000);
		expect(listRequests(sandbox).length - before).toBe(11);
	});

	it('a request still unanswered at the end of the budget is given up: the pages read before it are delivered, the next poll continues', async () => {
		const { trigger, ledger } = await budgeted(() => 2_000, 250);
		const hold = holdListSessions(sandbox, 2); // the second page of the next poll
		try {
			const cut = await pollOk(trigger);
			ledger.record(cut);
			expect(cut.items).toHaveLength(100);
			expect(cursorOf(trigger)).toBeLessThanOrEqual(
				Date.parse(String(cut.items[99].json.updatedAt)),
			);
			expect(trigger.nodeStaticData.failedPolls).toBe(0);
		} finally {
			hold.release();
		}
		sandbox.clock.advance(MINUTE);
		await pollEveryMinute(trigger, ledger, 5);
		ledger.expectSound();
		expect(names(ledger)).toEqual(backlogNames(250));
	});

	it('a request that fails once the budget is spent is not retried: no List Sessions request after the poll ends, nothing moves', async () => {
		const budgetMs = 10_000;
		const { trigger, cursor, ledger } = await budgeted(() => budgetMs, 150);
		// The poll's first request takes longer than the budget on n8n's clock, then fails with a
		// 500 (a read retries a 5xx). The hook counts every List Sessions request that arrives.
		let arrived = 0;
		const stop = sandbox.onRequest(({ path }) => {
			if (path !== SESSIONS || ++arrived !== 1) return;
			sandbox.clock.advance(budgetMs + 1_000);
			throw new Error('answered once the poll budget is spent');
		});
		try {
			const late = await pollOk(trigger);
			expect(arrived).toBe(1);
			expect(late.items).toEqual([]);
			expect(trigger.nodeStaticData).toMatchObject({ cursor, failedPolls: 1 });
			sandbox.clock.advance(MINUTE);
			await pollEveryMinute(trigger, ledger, 3);
			ledger.expectSound();
			expect(names(ledger)).toEqual(backlogNames(150));
		} finally {
			stop();
		}
	});

	it('a first request still unanswered at the end of the budget is a passing fault: nothing moves, the next polls deliver all', async () => {
		const { trigger, cursor, ledger } = await budgeted(() => 1_000, 150);
		const hold = holdListSessions(sandbox);
		try {
			expect((await pollOk(trigger)).items).toEqual([]);
			expect(hold.arrivals).toBe(1);
			expect(trigger.nodeStaticData).toMatchObject({ cursor, failedPolls: 1 });
		} finally {
			hold.release();
		}
		sandbox.clock.advance(MINUTE);
		// A budget of 1 s leaves no room for a second request (MIN_REQUEST_WINDOW_MS): a page a poll.
		ledger.record(await trigger.poll());
		expect(ledger.delivered).toBe(100);
		expect(trigger.nodeStaticData.failedPolls).toBe(0);
		sandbox.clock.advance(MINUTE);
		ledger.record(await trigger.poll());
		ledger.expectSound();
		expect(names(ledger)).toEqual(backlogNames(150));
	});
});
