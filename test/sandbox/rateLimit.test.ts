import { describe, expect, it } from 'vitest';
import { limits, useApi } from './helpers';

const START = Date.parse('2025-06-16T14:00:00.000Z');
const { sandbox, list, send, upload } = useApi({ now: START });
const RESET = String(START / 1000 + 3600);
/** The hour's budget set to `perHour`, then spent. */
async function spend(perHour: number) {
	sandbox().config.rateLimitPerHour = perHour;
	for (let i = 0; i < perHour; i++) await list();
}

describe('rate limit (docs/api.md#rate-limits): 60 List Sessions requests per hour per organisation', () => {
	it('headers: X-RateLimit-Limit, -Remaining, -Reset (Unix seconds) on a 200, no Retry-After', async () => {
		const res = await list();
		expect(res.status).toBe(200);
		expect(limits(res)).toEqual({ limit: '60', remaining: '59', reset: RESET, retryAfter: null });
	});

	it('headers: present on a 400 too, and a 400 consumes budget', async () => {
		await list();
		const res = await list('limit=1000');
		expect(res.status).toBe(400);
		expect(limits(res)).toEqual({ limit: '60', remaining: '58', reset: RESET, retryAfter: null });
	});

	it('the 61st request in the hour → 429 RATE_LIMITED with Retry-After and the rate-limit headers', async () => {
		for (let i = 0; i < 60; i++) expect((await list('limit=1')).status).toBe(200);
		sandbox().clock.advance(600_000);
		const res = await list();
		expect([res.status, res.body.code]).toEqual([429, 'RATE_LIMITED']);
		expect(limits(res)).toEqual({ limit: '60', remaining: '0', reset: RESET, retryAfter: '3000' });
	});

	it('a 429 does not consume budget, and the window resets after an hour by the sandbox clock', async () => {
		await spend(2);
		expect((await list()).status).toBe(429);
		sandbox().clock.advance(3600_000 - 1);
		expect((await list()).status).toBe(429);
		sandbox().clock.advance(1);
		const fresh = await list();
		expect(fresh.status).toBe(200);
		expect(limits(fresh)).toMatchObject({ remaining: '1', reset: String(START / 1000 + 7200) });
	});

	it('Retry-After is whole seconds, rounded up, at least 1', async () => {
		await spend(1);
		sandbox().clock.advance(3600_000 - 200);
		expect(limits(await list()).retryAfter).toBe('1');
	});

	it('the budget is per organisation', async () => {
		await spend(1);
		expect((await list()).status).toBe(429);
		expect((await list('', sandbox().other.accessToken)).status).toBe(200);
	});

	it('every token of an organisation shares its budget', async () => {
		await spend(1);
		expect((await list('', sandbox().issueToken())).status).toBe(429);
	});

	it('a 401 is not counted and carries no rate-limit headers', async () => {
		sandbox().config.rateLimitPerHour = 1;
		const denied = await list('', null);
		expect(denied.status).toBe(401);
		expect(limits(denied).remaining).toBeNull();
		expect((await list()).status).toBe(200);
	});

	it('rate limits of other operations: none documented, so Upload and Send are not limited and do not use the budget', async () => {
		sandbox().config.rateLimitPerHour = 1;
		await upload();
		await send(sandbox().createSession().sessionId);
		const res = await list();
		expect(res.status).toBe(200);
		expect(limits(res).remaining).toBe('0');
	});

	it('resetRateLimit() restores the budget', async () => {
		await spend(1);
		sandbox().resetRateLimit(sandbox().demo.orgId);
		expect((await list()).status).toBe(200);
	});
});

describe('burst limit (sandbox option): a small budget per few seconds, 429 with Retry-After', () => {
	const { sandbox, list, send } = useApi({ now: START, burstLimit: 2, burstWindowSeconds: 3 });

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
