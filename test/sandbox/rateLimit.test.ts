import { describe, expect, it } from 'vitest';
import type { SandboxConfig } from '../../sandbox';
import { createBody, limits, UNKNOWN_ID, useApi, type ApiResponse } from './helpers';

const START = Date.parse('2025-06-16T14:00:00.000Z');
const api = useApi({ now: START });
const { sandbox, get, post, list, send, upload, createSession, control, fromTemplate } = api;
const create = (extra?: Record<string, unknown>) => createSession(createBody(extra));
const RESET = String(START / 1000 + 3600);

type Request = (token?: string | null) => Promise<ApiResponse>;
const listSessions: Request = (token) => list('', token);
const publicApi: Request = (token) => createSession(createBody(), token);
const unknownTemplate = () => get(`/Template/${UNKNOWN_ID}`);
// The hourly budgets (docs/api.md#rate-limits): List Sessions' own, and the one every other public
// endpoint shares; each with a request it counts (a token given), and one that fails with a 4xx.
describe.each<[string, keyof SandboxConfig, number, Request, Request]>([
	['List Sessions: 60', 'rateLimitPerHour', 60, listSessions, () => list('limit=1000')],
	['the public API: 600', 'publicRateLimitPerHour', 600, publicApi, unknownTemplate],
])(
	'rate limit, %s requests per hour per organisation',
	(_name, setting, perHour, request, failing) => {
		/** The hour's budget set to `n`, then spent. */
		async function spend(n: number) {
			Object.assign(sandbox().config, { [setting]: n });
			for (let i = 0; i < n; i++) await request();
		}

		it('headers: X-RateLimit-Limit, -Remaining, -Reset (Unix seconds), no Retry-After, on a 200 and a 4xx, which consumes budget', async () => {
			const answers = [await request(), await failing()];
			expect(answers.map((res) => res.status)).toEqual([
				200,
				setting === 'rateLimitPerHour' ? 400 : 404,
			]);
			expect(answers.map(limits)).toEqual(
				[1, 2].map((spent) => ({
					limit: String(perHour),
					remaining: String(perHour - spent),
					reset: RESET,
					retryAfter: null,
				})),
			);
		});

		it('the request past the budget (List Sessions: its default; the public API: 60) → 429 RATE_LIMITED with Retry-After and the rate-limit headers', async () => {
			const n = Math.min(perHour, 60);
			Object.assign(sandbox().config, { [setting]: n });
			for (let i = 0; i < n; i++) expect((await request()).status).toBe(200);
			sandbox().clock.advance(600_000);
			const res = await request();
			expect([res.status, res.body.code]).toEqual([429, 'RATE_LIMITED']);
			const headers = { limit: String(n), remaining: '0', reset: RESET, retryAfter: '3000' };
			expect(limits(res)).toEqual(headers);
		});

		it('a 429 is not processed and costs nothing; the window resets after an hour by the sandbox clock', async () => {
			await spend(2);
			const made = sandbox().listAllSessions().length;
			expect((await request()).status).toBe(429);
			expect(sandbox().listAllSessions()).toHaveLength(made);
			sandbox().clock.advance(3600_000 - 1);
			expect((await request()).status).toBe(429);
			sandbox().clock.advance(1);
			const fresh = await request();
			expect(fresh.status).toBe(200);
			expect(limits(fresh)).toMatchObject({ remaining: '1', reset: String(START / 1000 + 7200) });
		});

		it('Retry-After is whole seconds, rounded up, at least 1', async () => {
			await spend(1);
			sandbox().clock.advance(3600_000 - 200);
			expect(limits(await request()).retryAfter).toBe('1');
		});

		it('the budget is per organisation; every token of an organisation shares it', async () => {
			await spend(1);
			expect((await request()).status).toBe(429);
			expect((await request(sandbox().issueToken())).status).toBe(429);
			expect((await request(sandbox().other.accessToken)).status).toBe(200);
		});

		it('a 401 is not counted and carries no rate-limit headers', async () => {
			Object.assign(sandbox().config, { [setting]: 1 });
			const denied = await request(null);
			expect(denied.status).toBe(401);
			expect(limits(denied).remaining).toBeNull();
			expect((await request()).status).toBe(200);
		});
	},
);

describe('rate limit (docs/api.md#rate-limits): List Sessions', () => {
	it('rate limits of other operations: none documented, so Upload and Send are not limited and do not use the budget', async () => {
		sandbox().config.rateLimitPerHour = 1;
		await upload();
		await send(sandbox().createSession().sessionId);
		const res = await list();
		expect(res.status).toBe(200);
		expect(limits(res).remaining).toBe('0');
	});

	it('resetRateLimit() restores the budget', async () => {
		sandbox().config.rateLimitPerHour = 1;
		await list();
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

describe('the public API budget (docs/api.md#rate-limits; its headers, 429 and window: above)', () => {
	it('one budget for every endpoint of the public API; List Sessions keeps its own', async () => {
		sandbox().config.publicRateLimitPerHour = 3;
		const { templateId } = api.activeTemplate();
		const session = sandbox().createSession({ status: 'pending' });
		await create();
		await fromTemplate({ templateId });
		await get('/Templates');
		const refused = await post(`/Session/${session.sessionId}/SendInvitation`);
		expect([refused.status, refused.body.code]).toEqual([429, 'RATE_LIMITED']);
		expect(limits(refused)).toMatchObject({ retryAfter: '3600', remaining: '0' });
		expect(sandbox().outbox).toEqual([]);
		const listed = await list();
		expect(listed.status).toBe(200);
		expect(limits(listed).limit).toBe('60');
	});

	it('the rateLimit fault on a public API path reports the public budget', async () => {
		sandbox().injectFault({ kind: 'rateLimit', path: '/api/v1/Templates', retryAfter: 5 });
		const res = await get('/Templates');
		expect(res.status).toBe(429);
		expect(limits(res)).toMatchObject({ limit: '600', retryAfter: '5' });
	});

	it('the dropAfter fault handles the request, then cuts the connection: the session exists', async () => {
		sandbox().injectFault({ kind: 'dropAfter', path: '/api/v1/Session' });
		await expect(create()).rejects.toThrow();
		expect(sandbox().listAllSessions()).toHaveLength(1);
		expect(sandbox().requests.at(-1)).toMatchObject({ status: 0, fault: 'dropAfter' });
	});
});

describe('plan features through the control plane', () => {
	it('PUT /_sandbox/orgs/{orgId}/plan sets the features; GET shows them; reset restores every feature', async () => {
		const plan = `/orgs/${sandbox().demo.orgId}/plan`;
		const put = await control('PUT', plan, { features: ['Sender Profiles'] });
		expect(put.body).toEqual({ orgId: 'org-demo', features: ['Sender Profiles'] });
		expect((await create({ expiryDays: 3 })).status).toBe(403);
		expect((await control('PUT', plan, { features: ['Teleportation'] })).status).toBe(400);
		sandbox().reset();
		expect((await control('GET', plan)).body.features).toHaveLength(3);
	});
});
