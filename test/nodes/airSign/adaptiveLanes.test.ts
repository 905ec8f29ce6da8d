import '../../harness';

import type { NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	DEFAULT_ITEMS_AT_ONCE,
	LANES_AT_START,
	MAX_ITEMS_AT_ONCE,
} from '../../../nodes/AirSign/helpers/constants';
import { AdaptiveLanes } from '../../../nodes/AirSign/transport/adaptiveLanes';
import type { Sandbox } from '../../../sandbox';
import { apiRequests, recordSleeps, runAirSign, useSandbox } from './helpers';

const ctx = useSandbox();

const recipients = [{ name: 'Ann Signer', email: 'ann@example.com' }];

const drafts = (count: number) =>
	Array.from({ length: count }, (_, i) =>
		ctx.sandbox.createSession({ name: `Draft ${i}`, recipients }),
	);

const send = (itemsAtOnce?: number) => ({
	resource: 'session',
	operation: 'send',
	sessionId: '={{ $json.id }}',
	options: itemsAtOnce === undefined ? {} : { itemsAtOnce },
});

/**
 * Counts the Send requests at the sandbox at the same time. Each one lingers a number of event
 * loop turns that falls with its place in the input, so answers come back out of input order.
 * A lower bound of what the node has in flight (no timing involved): enough to show a ceiling
 * held, and "one after another" exactly.
 */
function countInFlight(sandbox: Sandbox) {
	const seen = { now: 0, most: 0 };
	let arrivals = 0;
	const off = sandbox.onRequest(async ({ path }) => {
		if (!path.endsWith('/Send')) return;
		seen.most = Math.max(seen.most, ++seen.now);
		const turns = 40 - (arrivals++ % 40);
		for (let turn = 0; turn < turns; turn++) await new Promise((r) => setImmediate(r));
		seen.now--;
	});
	return { seen, off };
}

describe('adaptive lanes: engine', () => {
	it.each([1, 2, 5, undefined, MAX_ITEMS_AT_ONCE])(
		'Items at Once %s (undefined: the default): every item sent once, output in input order and paired; never more in flight than the setting',
		async (itemsAtOnce) => {
			const sessions = drafts(60);
			const { seen, off } = countInFlight(ctx.sandbox);
			const result = await runAirSign(ctx, send(itemsAtOnce), {
				input: sessions.map((s) => ({ json: { id: s.sessionId } })),
			});
			off();
			expect(result.error).toBeUndefined();
			expect(result.items.map((i) => [i.json.sessionId, i.json.status, i.pairedItem])).toEqual(
				sessions.map((s, item) => [s.sessionId, 'pending', { item }]),
			);
			expect(apiRequests(ctx.sandbox)).toHaveLength(60);
			const ceiling = itemsAtOnce ?? DEFAULT_ITEMS_AT_ONCE;
			expect(seen.most).toBeLessThanOrEqual(ceiling);
			if (ceiling === 1) expect(seen.most).toBe(1);
		},
	);

	it('a 429 in the middle of a run (Send, where AirSign documents none): waited out, sent again; every item sent once, none failed, order and pairing kept', async () => {
		const sessions = drafts(40);
		const sleeps = recordSleeps();
		ctx.sandbox.injectFault({
			kind: 'rateLimit',
			path: '/api/v1/Session/',
			retryAfter: 2,
			skip: 12,
			count: 3,
		});
		try {
			const result = await runAirSign(ctx, send(), {
				input: sessions.map((s) => ({ json: { id: s.sessionId } })),
			});
			expect(result.error).toBeUndefined();
			expect(result.items.map((i) => [i.json.sessionId, i.json.status, i.pairedItem])).toEqual(
				sessions.map((s, item) => [s.sessionId, 'pending', { item }]),
			);
		} finally {
			sleeps.restore();
		}
		const statuses = apiRequests(ctx.sandbox).map((r) => r.status);
		expect(statuses.filter((s) => s === 429)).toHaveLength(3);
		expect(statuses.filter((s) => s === 200)).toHaveLength(40);
		expect(ctx.sandbox.outbox).toHaveLength(40);
		// Each 429's item waited its Retry-After; the others waited for the same pause or none.
		expect(sleeps.requested.length).toBeGreaterThanOrEqual(3);
		for (const ms of sleeps.requested) expect(ms).toBeLessThanOrEqual(2000);
	});

	it('a 429 with Max Wait on Rate Limit at 0 fails the item as before (nothing waits)', async () => {
		const sessions = drafts(3);
		ctx.sandbox.injectFault({
			kind: 'rateLimit',
			path: '/api/v1/Session/',
			retryAfter: 2,
			skip: 1,
		});
		const result = await runAirSign(
			ctx,
			{ ...send(), options: { maxRateLimitWait: 0 } },
			{
				input: sessions.map((s) => ({ json: { id: s.sessionId } })),
				continueOnFail: 'continueRegularOutput',
			},
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
			const result = await runAirSign(ctx, send(itemsAtOnce), {
				input: sessions.map((s) => ({ json: { id: s.sessionId } })),
			});
			expect(result.error?.message).toBe(
				'The session is not a draft, so it cannot be sent [NOT_A_DRAFT]',
			);
			const sent = sessions
				.map((s, index) => ({ index, status: ctx.sandbox.getSession(s.sessionId)?.status }))
				.filter(({ index, status }) => index !== 7 && status === 'pending')
				.map(({ index }) => index);
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
			const sendRequests = apiRequests(ctx.sandbox).filter((r) => r.path.endsWith('/Send'));
			expect(sendRequests).toHaveLength(8 + sentAfter.length);
		},
	);
	it('without Continue On Fail, the answer that fails an item opens no lane for the next: the first item fails alone, nothing else is sent', async () => {
		const sessions = drafts(3);
		ctx.sandbox.updateSession(sessions[0].sessionId, { status: 'completed' });
		const result = await runAirSign(ctx, send(), {
			input: sessions.map((s) => ({ json: { id: s.sessionId } })),
		});
		expect(result.error?.message).toContain('[NOT_A_DRAFT]');
		expect((result.error as NodeOperationError).description ?? '').not.toContain('ran beside it');
		expect(apiRequests(ctx.sandbox).filter((r) => r.path.endsWith('/Send'))).toHaveLength(1);
		expect(sessions.slice(1).map((s) => ctx.sandbox.getSession(s.sessionId)?.status)).toEqual([
			'draft',
			'draft',
		]);
	});
});

describe('AdaptiveLanes', () => {
	const good = { statusCode: 200, rateLimit: {}, ms: 100 };

	it('one alone until the first answer, then LANES_AT_START, one more per good answer up to the ceiling', () => {
		const lanes = new AdaptiveLanes(50);
		expect(lanes.mayStart(0)).toBe(true);
		const first = lanes.requestSent();
		expect(lanes.mayStart(1)).toBe(false);
		lanes.answered(first, good);
		expect(lanes.mayStart(LANES_AT_START)).toBe(true);
		expect(lanes.mayStart(LANES_AT_START + 1)).toBe(false);
		for (let i = 0; i < 100; i++) lanes.answered(lanes.requestSent(), good);
		expect(lanes.mayStart(49)).toBe(true);
		expect(lanes.mayStart(50)).toBe(false);
	});

	it('Items at Once 1: never a second one', () => {
		const lanes = new AdaptiveLanes(1);
		for (let i = 0; i < 10; i++) lanes.answered(lanes.requestSent(), good);
		expect(lanes.mayStart(0)).toBe(true);
		expect(lanes.mayStart(1)).toBe(false);
	});

	it('halves on a 429, a 5xx, a missing or a slow answer, once for the requests sent before the cut', () => {
		const lanes = new AdaptiveLanes(100);
		lanes.answered(lanes.requestSent(), good);
		const tickets = Array.from({ length: 20 }, () => lanes.requestSent());
		lanes.answered(tickets[0], { statusCode: 429, rateLimit: { retryAfterMs: 1000 }, ms: 100 });
		// Window 21 → 10.5: ten may run.
		expect(lanes.mayStart(10)).toBe(false);
		expect(lanes.mayStart(9)).toBe(true);
		// The others sent before the cut say nothing new.
		lanes.answered(tickets[1], { statusCode: 503, rateLimit: {}, ms: 100 });
		lanes.answered(tickets[2], { rateLimit: {}, ms: 100 });
		expect(lanes.mayStart(9)).toBe(true);
		// A slow answer to a request sent after the cut halves again.
		lanes.answered(lanes.requestSent(), { statusCode: 200, rateLimit: {}, ms: 60_000 });
		expect(lanes.mayStart(5)).toBe(false);
		expect(lanes.mayStart(4)).toBe(true);
	});

	it('never more in flight than the budget AirSign says is left', () => {
		const lanes = new AdaptiveLanes(100);
		lanes.answered(lanes.requestSent(), { statusCode: 200, rateLimit: { remaining: 5 }, ms: 100 });
		const sent = Array.from({ length: 5 }, () => lanes.requestSent());
		expect(lanes.mayStart(5)).toBe(false);
		// An answer with 3 left while 4 others are under way: none more.
		lanes.answered(sent[0], { statusCode: 200, rateLimit: { remaining: 3 }, ms: 100 });
		expect(lanes.mayStart(4)).toBe(false);
		// With nothing under way one goes, to hear AirSign's answer (a 429 then says how long).
		expect(lanes.mayStart(0)).toBe(true);
	});
});
