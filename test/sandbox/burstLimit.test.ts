import { describe, expect, it } from 'vitest';
import { limits, useApi } from './helpers';

const START = Date.parse('2025-06-16T14:00:00.000Z');
const { sandbox, list, send } = useApi({ now: START, burstLimit: 2, burstWindowSeconds: 3 });

describe('burst limit (sandbox option): a small budget per few seconds, 429 with Retry-After', () => {
	it('the third request in the window is refused on every /api/v1 path, Send included; the next window accepts again', async () => {
		const session = sandbox().createSession({
			recipients: [{ name: 'Ann', email: 'ann@example.com' }],
		});
		expect((await list()).status).toBe(200);
		sandbox().clock.advance(1_200);
		expect((await list()).status).toBe(200);
		const refused = await send(session.sessionId);
		expect([refused.status, refused.body.code]).toEqual([429, 'RATE_LIMITED']);
		// 1.8 s left of the 3 s window: whole seconds, rounded up.
		expect(limits(refused)).toMatchObject({ retryAfter: '2', remaining: '0' });
		// A refused request was not processed.
		expect(sandbox().getSession(session.sessionId)?.status).toBe('draft');
		sandbox().clock.advance(1_800);
		expect((await send(session.sessionId)).status).toBe(200);
	});

	it('every answer in the window states the burst window when it is the tighter one', async () => {
		expect(limits(await list())).toMatchObject({
			limit: '2',
			remaining: '1',
			reset: String((START + 3_000) / 1000),
		});
		sandbox().config.burstLimit = 100;
		// 99 left of the burst, 58 of List Sessions' hour: the hour is the tighter one.
		expect(limits(await list()).remaining).toBe('58');
	});

	it('0 turns it off (the default)', async () => {
		sandbox().config.burstLimit = 0;
		for (let i = 0; i < 5; i++) expect((await list()).status).toBe(200);
	});
});
