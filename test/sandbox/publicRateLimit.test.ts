import { describe, expect, it } from 'vitest';
import { call, list } from './helpers';
import { activeTemplate, createBody, createSessionCall, fromTemplateCall } from './publicHelpers';
import { useSandbox } from '../harness/sandbox';

const sandbox = useSandbox({ now: '2025-06-16T14:22:00.000Z' });
const RESET = String(Math.ceil(Date.parse('2025-06-16T15:22:00.000Z') / 1000));

describe('the public API budget (docs/api.md#rate-limits; sandbox: 600 an hour, shared, separate from List Sessions)', () => {
	it('every answer carries X-RateLimit-Limit 600, Remaining and Reset, 200 and 4xx alike', async () => {
		const session = sandbox().createSession();
		const ok = await call(sandbox(), 'GET', `/api/v1/Session/${session.sessionId}`);
		expect(ok.headers.get('x-ratelimit-limit')).toBe('600');
		expect(ok.headers.get('x-ratelimit-remaining')).toBe('599');
		expect(ok.headers.get('x-ratelimit-reset')).toBe(RESET);
		const missing = await call(
			sandbox(),
			'GET',
			'/api/v1/Template/3f2b8a1e-7c4d-4e8f-9a0b-1c2d3e4f5a6b',
		);
		expect(missing.status).toBe(404);
		expect(missing.headers.get('x-ratelimit-remaining')).toBe('598');
	});

	it('one budget for every endpoint of the public API; List Sessions keeps its own', async () => {
		sandbox().config.publicRateLimitPerHour = 3;
		const template = activeTemplate(sandbox());
		const session = sandbox().createSession({ status: 'pending' });
		await createSessionCall(sandbox(), createBody());
		await fromTemplateCall(sandbox(), { templateId: template.templateId });
		await call(sandbox(), 'GET', '/api/v1/Templates');
		const refused = await call(
			sandbox(),
			'POST',
			`/api/v1/Session/${session.sessionId}/SendInvitation`,
		);
		expect(refused.status).toBe(429);
		expect(refused.body.code).toBe('RATE_LIMITED');
		expect(refused.headers.get('retry-after')).toBe('3600');
		expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
		expect(sandbox().outbox).toEqual([]);
		const listed = await list(sandbox());
		expect(listed.status).toBe(200);
		expect(listed.headers.get('x-ratelimit-limit')).toBe('60');
	});

	it('a 429 is not processed and costs nothing; the window resets after the hour', async () => {
		sandbox().config.publicRateLimitPerHour = 1;
		await createSessionCall(sandbox(), createBody());
		expect((await createSessionCall(sandbox(), createBody())).status).toBe(429);
		expect(sandbox().listAllSessions()).toHaveLength(1);
		sandbox().clock.advance(3600_000);
		expect((await createSessionCall(sandbox(), createBody())).status).toBe(200);
	});

	it('a 401 does not count; the budget is per organisation', async () => {
		sandbox().config.publicRateLimitPerHour = 1;
		await call(sandbox(), 'GET', '/api/v1/Templates', { token: null });
		expect((await call(sandbox(), 'GET', '/api/v1/Templates')).status).toBe(200);
		expect(
			(await call(sandbox(), 'GET', '/api/v1/Templates', { token: sandbox().other.accessToken }))
				.status,
		).toBe(200);
	});

	it('the rateLimit fault on a public API path reports the public budget', async () => {
		sandbox().injectFault({ kind: 'rateLimit', path: '/api/v1/Templates', retryAfter: 5 });
		const res = await call(sandbox(), 'GET', '/api/v1/Templates');
		expect(res.status).toBe(429);
		expect(res.headers.get('x-ratelimit-limit')).toBe('600');
		expect(res.headers.get('retry-after')).toBe('5');
	});

	it('the dropAfter fault handles the request, then cuts the connection: the session exists', async () => {
		sandbox().injectFault({ kind: 'dropAfter', path: '/api/v1/Session' });
		await expect(createSessionCall(sandbox(), createBody())).rejects.toThrow();
		expect(sandbox().listAllSessions()).toHaveLength(1);
		expect(sandbox().requests.at(-1)).toMatchObject({ status: 0, fault: 'dropAfter' });
	});
});

describe('plan features through the control plane', () => {
	it('PUT /_sandbox/orgs/{orgId}/plan sets the features; GET shows them; reset restores every feature', async () => {
		const url = `${sandbox().baseUrl}/_sandbox/orgs/${sandbox().demo.orgId}/plan`;
		const put = await fetch(url, {
			method: 'PUT',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ features: ['Sender Profiles'] }),
		});
		expect(await put.json()).toEqual({ orgId: 'org-demo', features: ['Sender Profiles'] });
		expect((await createSessionCall(sandbox(), createBody({ expiryDays: 3 }))).status).toBe(403);
		const bad = await fetch(url, {
			method: 'PUT',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ features: ['Teleportation'] }),
		});
		expect(bad.status).toBe(400);
		sandbox().reset();
		expect(((await (await fetch(url)).json()) as { features: string[] }).features).toHaveLength(3);
	});
});
