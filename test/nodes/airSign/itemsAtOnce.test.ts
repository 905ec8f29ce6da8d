import '../../harness';

import { NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { FIRST_WAVE, MAX_ITEMS_AT_ONCE } from '../../../nodes/AirSign/helpers/constants';
import {
	apiRequests,
	expectRefused,
	drafts as draftsIn,
	recordSleeps,
	releaseSendsInGroups,
	runAirSign,
	useAirSign,
	runOk,
	idItems,
	sendEach as sendAtOnce,
	sentOf,
} from './helpers';

const ctx = useAirSign();
const drafts = (count: number) => draftsIn(ctx.sandbox, count);

describe('the first wave', () => {
	it('1,000 Sends with the defaults: half go before any answer, the rest once one has come; every item sent once, in order', async () => {
		const sessions = drafts(1000);
		releaseSendsInGroups(ctx.sandbox, [500]);
		const result = await runAirSign(ctx, sendAtOnce(), { input: idItems(sessions) });
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.sessionId)).toEqual(sessions.map((s) => s.sessionId));
		expect(apiRequests(ctx.sandbox)).toHaveLength(1000);
		expect(ctx.sandbox.outbox).toHaveLength(1000);
	});
});

describe('Items at Once', () => {
	it('three at once: the first three requests go out together, before any answer, then three at a time; the output keeps input order and pairing', async () => {
		const sessions = drafts(7);
		releaseSendsInGroups(ctx.sandbox, [3, 3, 1]);
		const result = await runOk(ctx, sendAtOnce(3), { input: idItems(sessions) });
		expect(result.items.map((i) => [i.json.sessionId, i.json.status, i.pairedItem])).toEqual(
			sessions.map((s, item) => [s.sessionId, 'pending', { item }]),
		);
		expect(ctx.sandbox.outbox).toHaveLength(7);
	});

	it('the defaults: no request goes alone first; a first wave of FIRST_WAVE goes before any answer, the rest as answers come', async () => {
		const sessions = drafts(FIRST_WAVE + 50);
		releaseSendsInGroups(ctx.sandbox, [FIRST_WAVE, 50]);
		const result = await runOk(ctx, sendAtOnce(), { input: idItems(sessions) });
		expect(result.items.map((i) => [i.json.sessionId, i.pairedItem])).toEqual(
			sessions.map((s, item) => [s.sessionId, { item }]),
		);
		expect(apiRequests(ctx.sandbox).map((r) => r.status)).toEqual(
			new Array(FIRST_WAVE + 50).fill(200),
		);
	});

	it('Continue On Fail: the failed item stays in its place, saying which session it was', async () => {
		const [first, second, third] = drafts(3);
		ctx.sandbox.updateSession(second.sessionId, { status: 'completed' });
		const result = await runAirSign(ctx, sendAtOnce(3), {
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
		const result = await runAirSign(ctx, sendAtOnce(3), { input: idItems(sessions) });
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
		const sendRequests = apiRequests(ctx.sandbox).filter((r) => r.path.endsWith('/Send'));
		expect(sendRequests).toHaveLength(2 + sentAfter.length);
	});

	it('a 429 waited out by one item holds back every request the others start meanwhile', async () => {
		let pauseSet!: () => void;
		const paused = new Promise<void>((resolve) => (pauseSet = resolve));
		const sleeps = recordSleeps(() => pauseSet());
		const sessions = Array.from({ length: 6 }, () =>
			ctx.sandbox.createSession({
				status: 'pending',
				recipients: [{ name: 'Ann', email: 'a@x.com' }],
			}),
		);
		// Three go together: the second meets a 429 (faults answer before hooks), the third is held
		// until the pause is on, and items 3 to 5 start during it.
		let arrivals = 0;
		ctx.sandbox.onRequest(async ({ path }) => {
			if (!path.startsWith('/api/v1/Session/')) return;
			if (++arrivals === 2) await paused;
		});
		ctx.sandbox.injectFault({
			kind: 'rateLimit',
			path: '/api/v1/Session/',
			retryAfter: 7,
			skip: 1,
		});
		const result = await runOk(
			ctx,
			{
				resource: 'session',
				operation: 'get',
				sessionId: '={{ $json.id }}',
				options: { itemsAtOnce: 3 },
			},
			{ input: idItems(sessions) },
		);
		expect(result.items.map((i) => [i.json.sessionId, i.pairedItem])).toEqual(
			sessions.map((s, item) => [s.sessionId, { item }]),
		);
		// Three at once, so the first answer and the 429 may be logged in either order.
		expect(apiRequests(ctx.sandbox).map((r) => r.status)).toEqual(
			expect.arrayContaining([429, 200, 200, 200, 200, 200, 200]),
		);
		expect(apiRequests(ctx.sandbox)).toHaveLength(7);
		// One pause for the whole execution: the 429's own item and the later ones waited in it.
		expect(sleeps.requested).toEqual([7000]);
	});

	it.each([0, MAX_ITEMS_AT_ONCE + 1, 2.5, '={{ "three" }}'])(
		'%s is refused before any request, naming the option',
		async (itemsAtOnce) => {
			await expectRefused(
				ctx,
				sendAtOnce(itemsAtOnce),
				new RegExp(`^'Items at Once' must be a whole number from 1 to ${MAX_ITEMS_AT_ONCE};`),
				{ input: idItems(drafts(1)) },
			);
		},
	);
});
