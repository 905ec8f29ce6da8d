import { describe, expect, it } from 'vitest';
import { call, list } from './helpers';
import { useSandbox } from '../harness/sandbox';

const START = Date.parse('2025-06-16T14:00:00.000Z');
const sandbox = useSandbox({ now: START });

describe('rate limit (docs/api.md#rate-limits): 60 List Sessions requests per hour per organisation', () => {
	it('headers: X-RateLimit-Limit, -Remaining, -Reset (Unix seconds) on a 200, no Retry-After', async () => {
		const res = await list(sandbox());
		expect(res.status).toBe(200);
		expect(res.headers.get('x-ratelimit-limit')).toBe('60');
		expect(res.headers.get('x-ratelimit-remaining')).toBe('59');
		expect(res.headers.get('x-ratelimit-reset')).toBe(String(START / 1000 + 3600));
		expect(res.headers.get('retry-after')).toBeNull();
	});

	it('headers: present on a 400 too, and a 400 consumes budget', async () => {
		await list(sandbox());
		const res = await list(sandbox(), 'limit=1000');
		expect(res.status).toBe(400);
		expect(res.headers.get('x-ratelimit-limit')).toBe('60');
		expect(res.headers.get('x-ratelimit-remaining')).toBe('58');
		expect(res.headers.get('x-ratelimit-reset')).toBe(String(START / 1000 + 3600));
		expect(res.headers.get('retry-after')).toBeNull();
	});

	it('the 61st request in the hour → 429 RATE_LIMITED with Retry-After and the rate-limit headers', async () => {
		for (let i = 0; i < 60; i++) expect((await list(sandbox(), 'limit=1')).status).toBe(200);
		sandbox().clock.advance(600_000);
		const res = await list(sandbox());
		expect([res.status, res.body.code]).toEqual([429, 'RATE_LIMITED']);
		expect(res.headers.get('retry-after')).toBe('3000');
		expect(res.headers.get('x-ratelimit-limit')).toBe('60');
		expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
		expect(res.headers.get('x-ratelimit-reset')).toBe(String(START / 1000 + 3600));
	});

	it('a 429 does not consume budget, and the window resets after an hour by the sandbox clock', async () => {
		sandbox().config.rateLimitPerHour = 2;
		await list(sandbox());
		await list(sandbox());
		expect((await list(sandbox())).status).toBe(429);
		sandbox().clock.advance(3600_000 - 1);
		expect((await list(sandbox())).status).toBe(429);
		sandbox().clock.advance(1);
		const fresh = await list(sandbox());
		expect(fresh.status).toBe(200);
		expect(fresh.headers.get('x-ratelimit-remaining')).toBe('1');
		expect(fresh.headers.get('x-ratelimit-reset')).toBe(String(START / 1000 + 7200));
	});

	it('Retry-After is whole seconds, rounded up, at least 1', async () => {
		sandbox().config.rateLimitPerHour = 1;
		await list(sandbox());
		sandbox().clock.advance(3600_000 - 200);
		expect((await list(sandbox())).headers.get('retry-after')).toBe('1');
	});

	it('the budget is per organisation', async () => {
		sandbox().config.rateLimitPerHour = 1;
		await list(sandbox());
		expect((await list(sandbox())).status).toBe(429);
		expect((await list(sandbox(), '', sandbox().other.accessToken)).status).toBe(200);
	});

	it('every token of an organisation shares its budget', async () => {
		sandbox().config.rateLimitPerHour = 1;
		await list(sandbox());
		expect((await list(sandbox(), '', sandbox().issueToken())).status).toBe(429);
	});

	it('a 401 is not counted and carries no rate-limit headers', async () => {
		sandbox().config.rateLimitPerHour = 1;
		const denied = await list(sandbox(), '', null);
		expect(denied.status).toBe(401);
		expect(denied.headers.get('x-ratelimit-remaining')).toBeNull();
		expect((await list(sandbox())).status).toBe(200);
	});

	it('rate limits of other operations: none documented, so Upload and Send are not limited and do not use the budget', async () => {
		sandbox().config.rateLimitPerHour = 1;
		await call(sandbox(), 'POST', '/api/v1/File', { json: { fileName: 'a', data: 'JVBERi0=' } });
		const draft = sandbox().createSession();
		await call(sandbox(), 'POST', `/api/v1/Session/${draft.sessionId}/Send`);
		const res = await list(sandbox());
		expect(res.status).toBe(200);
		expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
	});

	it('resetRateLimit() restores the budget', async () => {
		sandbox().config.rateLimitPerHour = 1;
		await list(sandbox());
		sandbox().resetRateLimit(sandbox().demo.orgId);
		expect((await list(sandbox())).status).toBe(200);
	});
});
