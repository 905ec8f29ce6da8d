import { describe, expect, it } from 'vitest';
import { createBody, limits, useApi } from './helpers';

const api = useApi({ now: '2025-06-16T14:22:00.000Z' });
const { sandbox, get, post, list, control, fromTemplate, activeTemplate } = api;
const create = (extra?: Record<string, unknown>) => api.createSession(createBody(extra));

describe('the public API budget (docs/api.md#rate-limits; its headers, 429 and window: rateLimit.test.ts)', () => {
	it('one budget for every endpoint of the public API; List Sessions keeps its own', async () => {
		sandbox().config.publicRateLimitPerHour = 3;
		const { templateId } = activeTemplate();
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
