import '../../harness';

import type { INodeParameters, NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { FIRST_WAVE, MAX_ITEMS_AT_ONCE } from '../../../nodes/AirSign/helpers/constants';
import { NotRun, RequestPool } from '../../../nodes/AirSign/transport/pool';
import type { Sandbox } from '../../../sandbox';
import {
	drafts as draftsIn,
	recordSleeps,
	releaseSendsInGroups,
	useAirSign,
	idItems,
	sendEach as send,
	sentOf,
} from './helpers';

const ctx = useAirSign();
const drafts = (count: number) => draftsIn(ctx.sandbox, count);
/** Session requests refused with this Retry-After: `count` of them, after the first `skip`. */
const rateLimitSends = (retryAfter: number, skip: number, count?: number) =>
	ctx.sandbox.injectFault({ kind: 'rateLimit', path: '/api/v1/Session/', retryAfter, skip, count });

/** Sends at the sandbox at once; each lingers fewer turns the later it comes (answers out of order). */
function countInFlight(sandbox: Sandbox) {
	const seen = { now: 0, most: 0 };
	let arrivals = 0;
	sandbox.onRequest(async ({ path }) => {
		if (!path.endsWith('/Send')) return;
		seen.most = Math.max(seen.most, ++seen.now);
		const turns = 40 - (arrivals++ % 40);
		for (let turn = 0; turn < turns; turn++) await new Promise((r) => setImmediate(r));
		seen.now--;
	});
	return seen;
}

/** Runs Send over the drafts: every one sent, the output in item order and paired. */
async function sendsEveryOne(sessions: Array<{ sessionId: string }>, parameters: INodeParameters) {
	const result = await ctx.ok(parameters, { input: idItems(sessions) });
	expect(result.items.map((i) => [i.json.sessionId, i.json.status, i.pairedItem])).toEqual(
		sessions.map((s, item) => [s.sessionId, 'pending', { item }]),
	);
}

describe('Items at Once: engine', () => {
	it.each([1, 2, 5, undefined, MAX_ITEMS_AT_ONCE])(
		'Items at Once %s (undefined: the default): every item sent once, output in input order and paired; never more in flight than the setting',
		async (itemsAtOnce) => {
			const sessions = drafts(60);
			const seen = countInFlight(ctx.sandbox);
			await sendsEveryOne(sessions, send(itemsAtOnce));
			expect(ctx.apiRequests()).toHaveLength(60);
			const ceiling = itemsAtOnce ?? MAX_ITEMS_AT_ONCE;
			expect(seen.most).toBeLessThanOrEqual(ceiling);
			if (ceiling === 1) expect(seen.most).toBe(1);
		},
	);

	it('a 429 in the middle of a run (Send, where AirSign documents none): waited out, sent again; every item sent once, none failed, order and pairing kept', async () => {
		const sessions = drafts(40);
		const sleeps = recordSleeps();
		rateLimitSends(2, 12, 3);
		await sendsEveryOne(sessions, send());
		const statuses = ctx.apiRequests().map((r) => r.status);
		expect(statuses.filter((s) => s === 429)).toHaveLength(3);
		expect(statuses.filter((s) => s === 200)).toHaveLength(40);
		expect(ctx.sandbox.outbox).toHaveLength(40);
		// The three were sent together, so the first one's pause covers the other two.
		expect(sleeps.requested).toEqual([2000]);
	});

	it('a 429 with Max Wait on Rate Limit at 0 fails the item as before (nothing waits)', async () => {
		const sessions = drafts(3);
		rateLimitSends(2, 1);
		const result = await ctx.run(
			{ ...send(), options: { maxRateLimitWait: 0 } },
			{ input: idItems(sessions), continueOnFail: 'continueRegularOutput' },
		);
		expect(result.items.map((i) => [i.json.code ?? 'ok', i.pairedItem])).toEqual([
			['ok', { item: 0 }],
			['RATE_LIMITED', { item: 1 }],
			['ok', { item: 2 }],
		]);
	});

	it.each([1, 4, undefined])(
		'a failure without Continue On Fail at Items at Once %s: no item starts after it; the error names exactly the later items that ran beside it',
		async (itemsAtOnce) => {
			const sessions = drafts(30);
			ctx.sandbox.updateSession(sessions[7].sessionId, { status: 'completed' });
			const result = await ctx.run(send(itemsAtOnce), { input: idItems(sessions) });
			expect(result.error?.message).toBe(
				'The session is not a draft, so it cannot be sent [NOT_A_DRAFT]',
			);
			const sent = sentOf(ctx.sandbox, sessions).filter((index) => index !== 7);
			const sentAfter = sent.filter((index) => index > 7);
			// Every item before the failed one ran; after it, only those already under way.
			expect(sent.filter((index) => index < 7)).toEqual([0, 1, 2, 3, 4, 5, 6]);
			const description = (result.error as NodeOperationError).description ?? '';
			if (sentAfter.length === 0) expect(description).not.toContain('ran beside it');
			else
				expect(description).toContain(
					`the items at index ${sentAfter.join(', ')} ran beside it before it failed`,
				);
			if (itemsAtOnce === 1) expect(sentAfter).toEqual([]);
			const sendRequests = ctx.apiRequests().filter((r) => r.path.endsWith('/Send'));
			expect(sendRequests).toHaveLength(8 + sentAfter.length);
		},
	);
	it("without Continue On Fail, a failure in the first wave: the items sent beside it are named, and its answer opens no lane (see the pool's unit test)", async () => {
		const sessions = drafts(3);
		ctx.sandbox.updateSession(sessions[0].sessionId, { status: 'completed' });
		// The three are answered once all three have arrived: they went together.
		releaseSendsInGroups(ctx.sandbox, [3]);
		const result = await ctx.run(send(), { input: idItems(sessions) });
		expect(result.error?.message).toContain('[NOT_A_DRAFT]');
		expect((result.error as NodeOperationError).description).toContain(
			'the items at index 1, 2 ran beside it before it failed',
		);
		expect(ctx.apiRequests().filter((r) => r.path.endsWith('/Send'))).toHaveLength(3);
	});
	it('three at once: the first three requests go out together, before any answer, then three at a time; the output keeps input order and pairing', async () => {
		const sessions = drafts(7);
		releaseSendsInGroups(ctx.sandbox, [3, 3, 1]);
		await sendsEveryOne(sessions, send(3));
		expect(ctx.sandbox.outbox).toHaveLength(7);
	});

	it('the defaults: no request goes alone first; a first wave of FIRST_WAVE goes before any answer, the rest as answers come', async () => {
		const sessions = drafts(FIRST_WAVE + 50);
		releaseSendsInGroups(ctx.sandbox, [FIRST_WAVE, 50]);
		await sendsEveryOne(sessions, send());
		expect(ctx.apiRequests().map((r) => r.status)).toEqual(new Array(FIRST_WAVE + 50).fill(200));
	});

	it('1,000 Sends with the defaults: half go before any answer, the rest once one has come; every item sent once, in order', async () => {
		const sessions = drafts(1000);
		releaseSendsInGroups(ctx.sandbox, [500]);
		await sendsEveryOne(sessions, send());
		expect(ctx.apiRequests()).toHaveLength(1000);
		expect(ctx.sandbox.outbox).toHaveLength(1000);
	});

	it('Continue On Fail: the failed item stays in its place, saying which session it was', async () => {
		const [first, second, third] = drafts(3);
		ctx.sandbox.updateSession(second.sessionId, { status: 'completed' });
		const result = await ctx.run(send(3), {
			input: idItems([first, second, third]),
			continueOnFail: 'continueRegularOutput',
		});
		expect(result.items.map((i) => [i.json.sessionId, i.json.code ?? 'ok', i.pairedItem])).toEqual([
			[first.sessionId, 'ok', { item: 0 }],
			[second.sessionId, 'NOT_A_DRAFT', { item: 1 }],
			[third.sessionId, 'ok', { item: 2 }],
		]);
	});

	it('without Continue On Fail: no item starts after the failure; the error names the items that ran beside it', async () => {
		const sessions = drafts(6);
		ctx.sandbox.updateSession(sessions[1].sessionId, { status: 'completed' });
		const result = await ctx.run(send(3), { input: idItems(sessions) });
		expect(result.error?.message).toBe(
			'The session is not a draft, so it cannot be sent [NOT_A_DRAFT]',
		);
		const sentAfter = sentOf(ctx.sandbox, sessions).filter((index) => index > 1);
		expect(ctx.sandbox.getSession(sessions[0].sessionId)?.status).toBe('pending');
		// Item 2 started with items 0 and 1, so it always ran; which later ones did depends on
		// which answer came first, and the error says exactly those.
		expect(sentAfter).toContain(2);
		expect((result.error as NodeOperationError).description).toContain(
			`the items at index ${sentAfter.join(', ')} ran beside it before it failed`,
		);
		const sendRequests = ctx.apiRequests().filter((r) => r.path.endsWith('/Send'));
		expect(sendRequests).toHaveLength(2 + sentAfter.length);
	});

	it('a 429 waited out by one item holds back every request the others start meanwhile', async () => {
		let pauseSet!: () => void;
		const paused = new Promise<void>((resolve) => (pauseSet = resolve));
		const sleeps = recordSleeps(() => pauseSet());
		const recipients = [{ name: 'Ann', email: 'a@x.com' }];
		const sessions = Array.from({ length: 6 }, () =>
			ctx.sandbox.createSession({ status: 'pending', recipients }),
		);
		// Three go together: the second meets a 429 (faults answer before hooks), the third is held
		// until the pause is on, and items 3 to 5 start during it.
		let arrivals = 0;
		ctx.sandbox.onRequest(async ({ path }) => {
			if (!path.startsWith('/api/v1/Session/')) return;
			if (++arrivals === 2) await paused;
		});
		rateLimitSends(7, 1);
		// Get over the items' `id`, three at once.
		const result = await ctx.ok({ ...send(3), operation: 'get' }, { input: idItems(sessions) });
		expect(result.items.map((i) => [i.json.sessionId, i.pairedItem])).toEqual(
			sessions.map((s, item) => [s.sessionId, { item }]),
		);
		// Three at once, so the first answer and the 429 may be logged in either order.
		expect(ctx.apiRequests().map((r) => r.status)).toEqual(
			expect.arrayContaining([429, 200, 200, 200, 200, 200, 200]),
		);
		expect(ctx.apiRequests()).toHaveLength(7);
		// One pause for the whole execution: the 429's own item and the later ones waited in it.
		expect(sleeps.requested).toEqual([7000]);
	});

	it.each([0, MAX_ITEMS_AT_ONCE + 1, 2.5, '={{ "three" }}'])(
		'%s is refused before any request, naming the option',
		async (itemsAtOnce) => {
			await ctx.refused(
				send(itemsAtOnce),
				new RegExp(`^'Items at Once' must be a whole number from 1 to ${MAX_ITEMS_AT_ONCE};`),
				{ input: idItems(drafts(1)) },
			);
		},
	);
});

describe('Items at Once: a pool bounded by what AirSign says is left', () => {
	it.each([20, 10])(
		'100 Sends under a burst limit of %s per 2 s that AirSign states in its headers: 100 sent, 0 failed; only the first wave, sent before any answer, meets a 429; no request into a window stated empty',
		async (burstLimit) => {
			const sessions = drafts(100);
			ctx.sandbox.config.burstLimit = burstLimit;
			ctx.sandbox.config.burstWindowSeconds = 2;
			// AirSign's clock stands still mid-second (its headers round); the node's waits move it.
			ctx.sandbox.clock.freeze();
			ctx.sandbox.clock.set(Math.floor(ctx.sandbox.clock.now() / 1000) * 1000 + 500);
			const sleeps = recordSleeps((ms) => ctx.sandbox.clock.advance(ms));
			// Held until the whole first wave has arrived, so none falls into a later window.
			releaseSendsInGroups(ctx.sandbox, [FIRST_WAVE]);
			await sendsEveryOne(sessions, send());
			expect(ctx.sandbox.outbox).toHaveLength(100);
			const requests = ctx.apiRequests();
			const start = Math.min(...requests.map((r) => r.atMs));
			const wave = requests.filter((r) => r.atMs === start).map((r) => r.status);
			const later = requests.filter((r) => r.atMs > start).map((r) => r.status);
			// In the first wave, what the window holds goes through, the rest meet one 429 each;
			// after it, no request goes into a window stated empty (the sandbox would refuse it).
			expect(wave).toHaveLength(FIRST_WAVE);
			expect(wave.filter((s) => s === 200)).toHaveLength(burstLimit);
			expect(wave.filter((s) => s === 429)).toHaveLength(FIRST_WAVE - burstLimit);
			expect(later).toEqual(new Array(100 - burstLimit).fill(200));
			// One wait for the 429s, then one for each window's reset: 100 / burstLimit windows.
			expect(sleeps.requested).toHaveLength(100 / burstLimit - 1);
		},
	);

	it('a 429: every request of the execution waits out its Retry-After together, in one pause', async () => {
		const sessions = drafts(30);
		const sleeps = recordSleeps();
		rateLimitSends(3, 5);
		await ctx.ok(send(10), { input: idItems(sessions) });
		const statuses = ctx.apiRequests().map((r) => r.status);
		expect(statuses.filter((s) => s === 429)).toHaveLength(1);
		expect(statuses.filter((s) => s === 200)).toHaveLength(30);
		expect(sleeps.requested).toEqual([3000]);
	});
});

/** How many turns of distinct items get through now, with no answer yet (each is then in flight). */
async function turnsNow(pool: RequestPool, count: number, firstItem = 0) {
	let through = 0;
	for (let item = firstItem; item < firstItem + count; item++)
		void pool.turn(item, 0).then(
			() => through++,
			() => {},
		);
	await new Promise((resolve) => setImmediate(resolve));
	return through;
}

describe('the first wave', () => {
	it.each([
		[50, 1000, FIRST_WAVE],
		[2 * FIRST_WAVE, 1000, FIRST_WAVE],
		[1000, 1000, 500],
		[1001, 1000, 501],
	])('%s items, Items at Once %s: %s requests before any answer', async (items, atOnce, wave) => {
		expect(await turnsNow(new RequestPool(atOnce, items), items)).toBe(Math.min(wave, items));
	});
});

describe('RequestPool', () => {
	const answer = (remaining?: number, resetAt = 1_000) => ({ remaining, resetAt });

	it('a first wave of FIRST_WAVE at once before any answer; then never more than an answer says are left, less those sent since', async () => {
		const pool = new RequestPool(1000);
		expect(await turnsNow(pool, FIRST_WAVE + 20)).toBe(FIRST_WAVE);
		// 120 left, the other 99 in flight not yet counted in it: 21 more, and the 20 waiting take them.
		pool.answered(answer(120), true);
		await new Promise((resolve) => setImmediate(resolve));
		expect(await turnsNow(pool, 2, 500)).toBe(1);
		expect(await turnsNow(pool, 1, 600)).toBe(0);
	});

	it('an answer that states no budget leaves only Items at Once; after a 429, half of those in flight, then one more per good answer (as TCP after a loss)', async () => {
		const sleeps = recordSleeps();
		const pool = new RequestPool(1000);
		expect(await turnsNow(pool, FIRST_WAVE)).toBe(FIRST_WAVE);
		pool.answered({}, true);
		expect(await turnsNow(pool, 300, 1000)).toBe(300);
		// 399 in flight, one of them refused: the wave is 200, and every turn waits 1 s.
		pool.answered({}, false);
		pool.rateLimited(1000, 0);
		expect(sleeps.requested).toEqual([1000]);
		for (let i = 0; i < 300; i++) pool.answered({}, true);
		// 98 in flight, a wave of 200 + 300: 402 may start once the pause is over.
		await pool.turn(2000, 0);
		expect(await turnsNow(pool, 1000, 3000)).toBe(401);
	});

	it('after a reset, a window AirSign states with a Limit of 0 still lets one request hear it again (none waits for ever)', async () => {
		const pool = new RequestPool(1000);
		await pool.turn(0, 0);
		pool.answered({ limit: 0, remaining: 0, resetAt: 1_000, msUntilReset: 0 }, true);
		expect(await turnsNow(pool, 2, 1)).toBe(1);
	});

	it('a failed answer opens no turn until its item has ended', async () => {
		const pool = new RequestPool(1000);
		expect(await turnsNow(pool, FIRST_WAVE)).toBe(FIRST_WAVE);
		let waiting = 0;
		void pool.turn(500, 0).then(() => waiting++);
		pool.answered({}, false);
		await new Promise((resolve) => setImmediate(resolve));
		expect(waiting).toBe(0);
		pool.itemEnded();
		await new Promise((resolve) => setImmediate(resolve));
		expect(waiting).toBe(1);
	});

	it('of two answers of one window, the one that says fewer are left counts, whatever their order', async () => {
		const pool = new RequestPool(100);
		await pool.turn(0, 0);
		pool.answered(answer(10), true);
		for (let item = 1; item <= 4; item++) await pool.turn(item, 0);
		pool.answered(answer(2), true); // 2 left, 3 others in flight: none more
		pool.answered(answer(8), true); // an older answer arriving late
		expect(await turnsNow(pool, 1, 20)).toBe(0);
	});

	it('after an item fails, later items send nothing (NotRun); earlier ones go on', async () => {
		const pool = new RequestPool(3);
		// A full first wave: the next turns wait.
		for (let item = 0; item < FIRST_WAVE; item++) await pool.turn(Math.min(item, 2), 0);
		const later = pool.turn(5, 0);
		const earlier = pool.turn(2, 0);
		pool.stopAfter(3);
		await expect(later).rejects.toBeInstanceOf(NotRun);
		pool.answered({}, true);
		await expect(earlier).resolves.toBe(0);
		expect(pool.mayStart(3)).toBe(true);
		expect(pool.mayStart(4)).toBe(false);
	});
});
