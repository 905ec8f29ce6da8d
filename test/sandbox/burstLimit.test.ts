import { describe, expect, it } from 'vitest';
import { call, list } from './helpers';
import { useSandbox } from '../harness/sandbox';

const START = Date.parse('2025-06-16T14:00:00.000Z');
const sandbox = useSandbox({ now: START, burstLimit: 2, burstWindowSeconds: 3 });

describe('burst limit (sandbox option): a small budget per few seconds, 429 with Retry-After', () => {
	it('the third request in the window is refused on every /api/v1 path, Send included; the next window accepts again', async () => {
		const session = sandbox().createSession({
			recipients: [{ name: 'Ann', email: 'ann@example.com' }],
		});
		expect((await list(sandbox())).status).toBe(200);
		sandbox().clock.advance(1_200);
		expect((await list(sandbox())).status).toBe(200);
		const refused = await call(sandbox(), 'POST', `/api/v1/Session/${session.sessionId}/Send`);
		expect([refused.status, refused.body.code]).toEqual([429, 'RATE_LIMITED']);
		// 1.8 s left of the 3 s window: whole seconds, rounded up.
		expect(refused.headers.get('retry-after')).toBe('2');
		expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
		// A refused request was not processed.
		expect(sandbox().getSession(session.sessionId)?.status).toBe('draft');
		sandbox().clock.advance(1_800);
		const sent = await call(sandbox(), 'POST', `/api/v1/Session/${session.sessionId}/Send`);
		expect(sent.status).toBe(200);
	});

	it('every answer in the window states the burst window when it is the tighter one', async () => {
		const first = await list(sandbox());
		expect(first.headers.get('x-ratelimit-limit')).toBe('2');
		expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
		expect(first.headers.get('x-ratelimit-reset')).toBe(String((START + 3_000) / 1000));
		sandbox().config.burstLimit = 100;
		// 99 left of the burst, 58 of List Sessions' hour: the hour is the tighter one.
		expect((await list(sandbox())).headers.get('x-ratelimit-remaining')).toBe('58');
	});

	it('0 turns it off (the default)', async () => {
		sandbox().config.burstLimit = 0;
		for (let i = 0; i < 5; i++) expect((await list(sandbox())).status).toBe(200);
	});
});
