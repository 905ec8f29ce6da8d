import '../../harness';
import { ENGINE } from '../../harness/engine';

import { NodeApiError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	activated,
	backlog,
	backlogNames,
	cursorOf,
	demoSessions,
	drain,
	expectClean,
	HOUR,
	key,
	Ledger,
	listRequests,
	MINUTE,
	newTrigger,
	pollAndRecord,
	pollOk,
	SESSIONS,
	tokenCredential,
	useTriggerSandbox,
} from './helpers';

const sandbox = useTriggerSandbox();

describe.each([false, true])(
	'AirSign Trigger, a fault in the middle of a poll (updatedAfterInclusive=%s)',
	(inclusive) => {
		it.each([
			['a 5xx (after its one retry)', { kind: 'status', status: 503, count: 2 }],
			['a 429', { kind: 'rateLimit', retryAfter: 30, count: 1 }],
			['a dropped connection (after its one retry)', { kind: 'drop', count: 2 }],
		] as const)(
			'%s on page 2: page 1 is delivered, the cursor covers only it, the next poll completes',
			async (_label, fault) => {
				sandbox.config.updatedAfterInclusive = inclusive;
				const [trigger, ledger] = [await activated(sandbox), new Ledger()];
				backlog(sandbox, 250);
				sandbox.clearRequests();
				sandbox.injectFault({ ...fault, path: SESSIONS, skip: 1 });

				const first = await pollOk(trigger);
				ledger.record(first);
				expect(first.items.map((i) => i.json.name)).toEqual(backlogNames(100));
				// The cursor moved over what was delivered and no further.
				const page1Newest = Date.parse(String(first.items[99].json.updatedAt));
				expect(cursorOf(trigger)).toBeLessThanOrEqual(page1Newest);
				expect(trigger.nodeStaticData.failedPolls).toBe(0);
				sandbox.clock.advance(5_000);

				await drain(sandbox, trigger, ledger);
				expectClean(sandbox, ledger);
				expect(ledger.items.map((s) => s.name)).toEqual(backlogNames(250));
			},
		);

		it('a fault on the first page: nothing delivered, no error, the cursor stays; the next poll delivers all', async () => {
			sandbox.config.updatedAfterInclusive = inclusive;
			const [trigger, ledger] = [await activated(sandbox), new Ledger()];
			backlog(sandbox, 120);
			const before = cursorOf(trigger);
			sandbox.injectFault({ kind: 'status', status: 500, path: SESSIONS, count: 2 });
			expect(await pollAndRecord(sandbox, trigger, ledger)).toEqual([]);
			expect(ledger.errors).toEqual([]);
			expect(cursorOf(trigger)).toBe(before);
			expect(trigger.nodeStaticData.failedPolls).toBe(1);
			await drain(sandbox, trigger, ledger);
			expect(ledger.delivered).toBe(120);
			ledger.expectSound();
			expect(trigger.nodeStaticData.failedPolls).toBe(0);
		});
	},
);

describe('AirSign Trigger, transient faults and real errors', () => {
	it('transient faults are reported only on every 5th consecutive failed poll, with the reason and the count', async () => {
		const trigger = await activated(sandbox);
		// Each poll retries a 5xx once: two failed requests per poll.
		sandbox.injectFault({ kind: 'status', status: 503, path: SESSIONS, count: 24 });
		const outcomes: string[] = [];
		for (let i = 0; i < 12; i++) {
			const result = await trigger.poll();
			sandbox.clock.advance(MINUTE);
			outcomes.push(result.error ? 'error' : 'quiet');
			// The count goes on through a report: the second says how long AirSign has been failing.
			if (result.error)
				expect(result.error.message).toMatch(
					new RegExp(
						`could not be read for ${i + 1} polls in a row.*could not finish the request \\[HTTP 503\\]`,
					),
				);
		}
		const quiet4 = Array<string>(4).fill('quiet');
		expect(outcomes).toEqual([...quiet4, 'error', ...quiet4, 'error', 'quiet', 'quiet']);
		// A good poll resets the count.
		await pollOk(trigger);
		expect(trigger.nodeStaticData.failedPolls).toBe(0);
	});

	it('an expired access token (by the sandbox clock) is an error the user sees, on every poll, and moves nothing', async () => {
		const token = sandbox.issueToken({ ttlSeconds: 3600 });
		const trigger = await activated(sandbox, { credential: tokenCredential(sandbox, token) });
		sandbox.createSession({ name: 'while the token is valid' });
		sandbox.clock.advance(5_000);
		expect((await trigger.poll()).items).toHaveLength(1);
		const state = JSON.stringify(trigger.nodeStaticData);

		sandbox.clock.advance(2 * HOUR);
		sandbox.createSession({ name: 'after expiry' });
		sandbox.clock.advance(5_000);
		for (let i = 0; i < 2; i++) {
			const result = await trigger.poll();
			expect(result.error).toBeInstanceOf(NodeApiError);
			expect((result.error as NodeApiError).httpCode).toBe('401');
			expect(result.error?.message).toMatch(/rejected the credential/);
			expect(JSON.stringify(result.error)).not.toContain(token);
			expect(result.emitted).toBe(false);
			expect(JSON.stringify(trigger.nodeStaticData)).toBe(state);
		}
		expect(listRequests(sandbox).filter((r) => r.status === 401).length).toBeGreaterThanOrEqual(2);
	});

	it('an expired token at activation fails the activation with the 401', async () => {
		const token = sandbox.issueToken({ ttlSeconds: 1 });
		sandbox.clock.advance(5_000);
		const trigger = newTrigger(sandbox, { credential: tokenCredential(sandbox, token) });
		const result = await trigger.poll();
		expect((result.error as NodeApiError).httpCode).toBe('401');
		expect(trigger.nodeStaticData.cursor).toBeUndefined();
	});
});

describe('AirSign Trigger, rate budget', () => {
	it('stops paging when X-RateLimit-Remaining reaches the reserve, makes no request until the window resets, then resumes; a quiet poll costs one request', async () => {
		sandbox.config.rateLimitPerHour = 16; // activation leaves 15; the default reserve is 10
		const [trigger, ledger] = [await activated(sandbox), new Ledger()];
		backlog(sandbox, 700);
		sandbox.clearRequests();

		const first = await pollAndRecord(sandbox, trigger, ledger);
		const firstRequests = listRequests(sandbox);
		expect(firstRequests.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
		// Each page re-asks from its newest instant, so consecutive pages overlap by a row.
		expect(first).toHaveLength(496);

		// The reserve is left to other workflows: further polls in this hour make no request.
		sandbox.clearRequests();
		for (let i = 0; i < 5; i++) expect(await pollAndRecord(sandbox, trigger, ledger)).toEqual([]);
		expect(listRequests(sandbox)).toHaveLength(0);
		expect(ledger.errors).toEqual([]);

		// The hour ends; the rest arrives, then quiet polls cost exactly one request each.
		sandbox.clock.advance(HOUR);
		await drain(sandbox, trigger, ledger);
		expect(ledger.delivered).toBe(700);
		expectClean(sandbox, ledger);
		sandbox.clock.advance(HOUR);
		for (let i = 0; i < 3; i++) {
			sandbox.clearRequests();
			expect(await pollAndRecord(sandbox, trigger, ledger)).toEqual([]);
			expect(listRequests(sandbox)).toHaveLength(1);
		}
	});

	it('"Keep Requests for Other Workflows" is honoured: below it, polls make no request and report nothing', async () => {
		sandbox.config.rateLimitPerHour = 10;
		const trigger = await activated(sandbox, { options: { reserveRequests: 6 } });
		const ledger = new Ledger();
		backlog(sandbox, 1_000);
		sandbox.clearRequests();
		await pollAndRecord(sandbox, trigger, ledger); // remaining 8, 7, 6: stop
		expect(listRequests(sandbox)).toHaveLength(3);
		for (let i = 0; i < 10; i++) await pollAndRecord(sandbox, trigger, ledger);
		expect(ledger.errors).toEqual([]);
		expect(listRequests(sandbox)).toHaveLength(3);
		// Each following hour the trigger takes at most 10 - 6 requests, until all has arrived.
		for (let hour = 1; hour <= 6 && ledger.delivered < 1_000; hour++) {
			sandbox.clock.advance(HOUR);
			sandbox.clearRequests();
			for (let i = 0; i < 12; i++) await pollAndRecord(sandbox, trigger, ledger, MINUTE);
			expect(listRequests(sandbox).length).toBeLessThanOrEqual(4);
		}
		expect(ledger.delivered).toBe(1_000);
		ledger.expectSound();
	});

	it('after a 429 the trigger makes no request until the reset it announced, reports no error, and then goes on', async () => {
		const [trigger, ledger] = [await activated(sandbox), new Ledger()];
		backlog(sandbox, 50);
		sandbox.clearRequests();
		sandbox.injectFault({ kind: 'rateLimit', retryAfter: 600, path: SESSIONS, count: 1 });
		// Polls every minute: the first meets the 429, the next nine fall before its reset.
		for (let i = 0; i < 10; i++) await pollAndRecord(sandbox, trigger, ledger, MINUTE);
		expect(listRequests(sandbox).map((r) => r.status)).toEqual([429]);
		expect(ledger.errors).toEqual([]);
		expect(ledger.delivered).toBe(0);
		// Both headers have whole seconds and the reset is rounded up: it may read up to 2 s late.
		sandbox.clock.advance(2_000);
		await pollAndRecord(sandbox, trigger, ledger, MINUTE);
		expect(listRequests(sandbox).map((r) => r.status)).toEqual([429, 200]);
		expect(ledger.delivered).toBe(50);
	});
});

it('AirSign Trigger, large backlog: 3,000 updates between two polls arrive across polls without loss or repeat; static data holds only the sessions in flight', async () => {
	sandbox.config.rateLimitPerHour = 100_000;
	const [trigger, ledger] = [await activated(sandbox), new Ledger()];
	const existing = Array.from({ length: 500 }, (_, i) =>
		sandbox.createSession({ name: `e${i}`, createdAt: sandbox.clock.now() - 1e7 + i }),
	);
	sandbox.clock.advance(5_000);
	await drain(sandbox, trigger, ledger);
	const start = sandbox.clock.now();
	for (let i = 0; i < 2_500; i++)
		sandbox.createSession({ name: `n${i}`, updatedAt: start + i * 2, createdAt: start - 1e6 });
	for (let i = 0; i < 500; i++)
		sandbox.updateSession(existing[i].sessionId, {
			status: 'pending',
			updatedAt: start + i * 10 + 1,
		});
	sandbox.clock.advance(10_000);

	const first = await pollAndRecord(sandbox, trigger, ledger);
	expect(first.length).toBeGreaterThan(1_500);
	expect(first.length).toBeLessThan(3_000); // 20 requests per poll at most
	const polls = await drain(sandbox, trigger, ledger);
	expect(polls).toBeLessThanOrEqual(3);
	expectClean(sandbox, ledger);
	// The 500 existing sessions were history at activation: only their updates count.
	expect(ledger.delivered).toBe(3_000);
	const { delivered, known, ...rest } = trigger.nodeStaticData as {
		delivered: string[];
		known: Record<string, unknown>;
	};
	expect(delivered.length).toBeLessThan(10);
	// A known state for each session still in flight (all 3,000: drafts and pending), nothing else grows.
	expect(Object.keys(known)).toHaveLength(3_000);
	expect(JSON.stringify(rest).length).toBeLessThan(2_000);
});

// n8n-workflow 2.41's `failure`, which n8n's poll scheduler is to back off by (1.x has none).
describe('AirSign Trigger: declared failure causes', () => {
	const failureOf = (error: unknown) => (error as { failure?: unknown }).failure;
	const declared = (cause: string) => (ENGINE === 'n8n-2' ? { cause } : undefined);

	it('the 5th poll in a row that AirSign answered 503 → temporarily-unavailable', async () => {
		const trigger = await activated(sandbox);
		sandbox.injectFault({ kind: 'status', status: 503, path: SESSIONS, count: 10 });
		let reported: unknown;
		for (let i = 0; i < 5 && reported === undefined; i++) {
			reported = (await trigger.poll()).error;
			sandbox.clock.advance(MINUTE);
		}
		expect(reported).toBeDefined();
		expect((reported as Error).message).toMatch(/could not be read for 5 polls in a row/);
		expect(failureOf(reported)).toEqual(declared('temporarily-unavailable'));
	});

	it('an access token AirSign rejects → credential-invalid, on the first poll', async () => {
		const token = sandbox.issueToken({ ttlSeconds: 3600 });
		const trigger = await activated(sandbox, { credential: tokenCredential(sandbox, token) });
		sandbox.clock.advance(2 * HOUR);
		expect(failureOf((await trigger.poll()).error)).toEqual(declared('credential-invalid'));
	});

	it('a 403 (the token lacks the scope) → configuration-invalid', async () => {
		const trigger = await activated(sandbox);
		sandbox.injectFault({ kind: 'status', status: 403, path: SESSIONS });
		const result = await trigger.poll();
		expect(result.error).toBeDefined();
		expect(failureOf(result.error)).toEqual(declared('configuration-invalid'));
	});
});

// What fuzzing the trigger's answers found (test/fuzz/triggerAnswers.test.ts), each a plain example
// that failed before its fix (docs/reliability.md lists them).
describe('fuzz findings', () => {
	it.each([
		['a sessionId that is not an ID', { path: ['sessions', 0, 'sessionId'], value: [] }],
		['no sessionId', { path: ['sessions', 0, 'sessionId'], delete: true }],
		['an updatedAt that is not a time', { path: ['sessions', 0, 'updatedAt'], value: 'soon' }],
		['a session that is not an object', { path: ['sessions', 0], value: 42 }],
		['a null recipient', { path: ['sessions', 0, 'recipients'], value: [null] }],
	])(
		'List Sessions answers with %s: no TypeError, nothing malformed is emitted, the cursor stays, the next poll delivers all',
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

	it('rate-limit headers out of range: X-RateLimit-Reset in the year 2200: the trigger keeps reading within the hour', async () => {
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

	it('a full page that says it is the last: hasMore false on a full first page of 101 updates: the cursor stays before the 101st, which the next read delivers', async () => {
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
				Date.parse(s.updatedAt) < cursorOf(trigger) &&
				!ledger.counts.has(key(s.sessionId, s.updatedAt)),
		);
		expect(passed.map((s) => s.name)).toEqual([]);

		await drain(sandbox, trigger, ledger);
		expect(ledger.lost(demoSessions(sandbox))).toEqual([]);
		expect(ledger.items).toHaveLength(101);
	});
});
