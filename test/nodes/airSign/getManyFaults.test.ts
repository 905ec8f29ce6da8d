import '../../harness';

import { describe, expect, it } from 'vitest';

import { expectError, getManyParams, recordSleeps, seedSessions, useAirSign } from './helpers';

const ctx = useAirSign();
/** List Sessions answers 429 once, with this Retry-After. */
const rateLimit = (retryAfter: number) =>
	ctx.sandbox.injectFault({ kind: 'rateLimit', path: '/api/v1/Sessions', retryAfter });
const listed = () => ctx.apiRequests().filter((r) => r.path === '/api/v1/Sessions');

describe('Get Many: rate limit (429)', () => {
	it('a short Retry-After (1 s) is waited out, then the call succeeds', async () => {
		seedSessions(ctx.sandbox, 3);
		rateLimit(1);
		const started = Date.now();
		const result = await ctx.run(getManyParams({ returnAll: true }));
		const elapsed = Date.now() - started;
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(3);
		expect(elapsed).toBeGreaterThanOrEqual(950);
		expect(listed().map((r) => [r.status, r.fault])).toEqual([
			[429, 'rateLimit'],
			[200, undefined],
		]);
		// The retry came at least the Retry-After later (the sandbox clock runs in real time here).
		expect(listed()[1].atMs - listed()[0].atMs).toBeGreaterThanOrEqual(950);
	});

	it('a Retry-After within "Max Wait on Rate Limit" is waited out for exactly that long', async () => {
		const sleeps = recordSleeps();
		rateLimit(45);
		await ctx.ok(getManyParams({ options: { maxRateLimitWait: 60 } }));
		expect(sleeps.requested).toEqual([45_000]);
		expect(listed().map((r) => r.status)).toEqual([429, 200]);
	});

	it('a long Retry-After (3600 s) fails at once with the reset time, without sleeping', async () => {
		const sleeps = recordSleeps();
		ctx.sandbox.clock.freeze();
		const now = ctx.sandbox.clock.now();
		rateLimit(3600);
		const result = await ctx.run(getManyParams({ returnAll: true }));
		// "at once" is no sleep requested, not a wall-clock bound a busy machine could break
		expect(sleeps.requested).toEqual([]);
		expect(listed()).toHaveLength(1);
		expect(result.error).toBeDefined();
		const resetCandidates = [Math.floor(now / 1000), Math.ceil(now / 1000)].map((s) =>
			new Date((s + 3600) * 1000).toISOString().slice(11, 19),
		);
		const message = result.error!.message;
		expect(message).toMatch(
			/^AirSign's List Sessions budget is used up\. It resets at \d\d:\d\d:\d\d UTC \(in 60 min\)/,
		);
		expect(resetCandidates.some((t) => message.includes(`It resets at ${t} UTC`))).toBe(true);
		expectError(result, message, {
			description: 'waits at most 60 s',
			httpCode: '429',
			itemIndex: 0,
		});
	});

	it('never waits longer than the workflow\'s execution timeout, whatever "Max Wait" says', async () => {
		const sleeps = recordSleeps();
		rateLimit(45);
		const result = await ctx.run(getManyParams({ options: { maxRateLimitWait: 60 } }), {
			settings: { executionOrder: 'v1', executionTimeout: 30 },
		});
		expect(result.error?.message).toMatch(/budget is used up/);
		expect(result.error?.description).toContain('waits at most 30 s');
		expect(sleeps.requested).toEqual([]);
	});

	it('"Max Wait on Rate Limit" below the Retry-After fails at once; 0 never waits', async () => {
		const sleeps = recordSleeps();
		rateLimit(5);
		const short = await ctx.run(getManyParams({ options: { maxRateLimitWait: 2 } }));
		expect(short.error?.message).toMatch(/budget is used up/);
		expect(short.error?.description).toContain('waits at most 2 s');
		rateLimit(1);
		const never = await ctx.run(getManyParams({ options: { maxRateLimitWait: 0 } }));
		expect(never.error?.message).toMatch(/budget is used up/);
		expect(never.error?.description).not.toContain('waits at most');
		expect(sleeps.requested).toEqual([]);
		expect(listed().map((r) => r.status)).toEqual([429, 429]);
	});

	it('real budget exhaustion (rateLimitPerHour 2): Return All stops at the third page with the reset time', async () => {
		ctx.sandbox.config.rateLimitPerHour = 2;
		ctx.sandbox.clock.freeze();
		seedSessions(ctx.sandbox, 250);
		const result = await ctx.run(getManyParams({ returnAll: true }));
		expect(listed().map((r) => [r.status, r.query.createdAfter !== undefined])).toEqual([
			[200, false],
			[200, true],
			[429, true],
		]);
		expect(result.items).toEqual([]);
		expect(result.error!.message).toMatch(
			/budget is used up\. It resets at \d\d:\d\d:\d\d UTC \(in 60 min\)/,
		);
		expect(result.error!.description).toContain('2 List Sessions requests per hour');
	});

	it('real budget exhaustion near the end of the window: waits for the reset and goes on', async () => {
		ctx.sandbox.config.rateLimitPerHour = 1;
		ctx.sandbox.clock.freeze();
		seedSessions(ctx.sandbox, 150);
		// Spend the budget, then move to 3 s before the window resets.
		await ctx.run(getManyParams({ limit: 1 }));
		ctx.sandbox.clock.advance(3600_000 - 3000);
		ctx.sandbox.clearRequests();
		// Sleeping moves the sandbox clock by the time asked for.
		const sleeps = recordSleeps((ms) => {
			ctx.sandbox.clock.advance(ms);
		});
		const result = await ctx.ok(getManyParams({ limit: 10 }));
		expect(result.items).toHaveLength(10);
		expect(sleeps.requested).toEqual([3000]);
		expect(listed().map((r) => r.status)).toEqual([429, 200]);
	});
});

describe('Get Many: transient failures are retried twice', () => {
	it('5xx three times: 3 attempts, back-off 0.5 s then 2 s, then a clear error', async () => {
		const sleeps = recordSleeps();
		ctx.sandbox.injectFault({ kind: 'status', status: 503, path: '/api/v1/Sessions', count: 3 });
		const result = await ctx.run(getManyParams());
		expect(listed().map((r) => r.status)).toEqual([503, 503, 503]);
		expect(sleeps.requested).toEqual([500, 2000]);
		expectError(result, 'AirSign could not finish the request [HTTP 503]', {
			description: "on AirSign's side",
			httpCode: '503',
		});
	});

	it('5xx twice then 200: succeeds', async () => {
		recordSleeps();
		seedSessions(ctx.sandbox, 2);
		ctx.sandbox.injectFault({ kind: 'status', status: 500, path: '/api/v1/Sessions', count: 2 });
		const result = await ctx.ok(getManyParams());
		expect(result.items).toHaveLength(2);
		expect(listed().map((r) => r.status)).toEqual([500, 500, 200]);
	});

	it('a malformed (non-JSON) body: retried, then "not JSON"', async () => {
		recordSleeps();
		ctx.sandbox.injectFault({ kind: 'malformed', path: '/api/v1/Sessions', count: 3 });
		const result = await ctx.run(getManyParams());
		expect(listed()).toHaveLength(3);
		expect(result.error!.message).toBe('AirSign answered HTTP 200 with a body that is not JSON');
		ctx.sandbox.clearRequests();
		ctx.sandbox.injectFault({ kind: 'malformed', path: '/api/v1/Sessions', count: 1 });
		await ctx.ok(getManyParams());
		expect(listed()).toHaveLength(2);
	});

	it('a dropped connection: retried, then "Could not reach AirSign"', async () => {
		recordSleeps();
		ctx.sandbox.injectFault({ kind: 'drop', path: '/api/v1/Sessions', count: 3 });
		const result = await ctx.run(getManyParams());
		expect(listed().map((r) => r.status)).toEqual([0, 0, 0]);
		// The network code in words: n8n's NodeApiError would replace a message holding a raw code.
		const message = 'Could not reach AirSign: connection closed by the server';
		expectError(result, message, { description: 'Base URL' });
		ctx.sandbox.clearRequests();
		ctx.sandbox.injectFault({ kind: 'drop', path: '/api/v1/Sessions', count: 2 });
		await ctx.ok(getManyParams());
		expect(listed()).toHaveLength(3);
	});

	it('a 400 from the service is not retried', async () => {
		const sleeps = recordSleeps();
		ctx.sandbox.injectFault({ kind: 'status', status: 400, path: '/api/v1/Sessions' });
		const result = await ctx.run(getManyParams());
		expect(listed()).toHaveLength(1);
		expect(sleeps.requested).toEqual([]);
		expect(result.error!.message).toBe('AirSign refused the request [HTTP 400 INTERNAL]');
	});
});
