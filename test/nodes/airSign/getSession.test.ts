import '../../harness';

import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { engineDifferences } from '../../harness/engine';
import {
	expectError,
	recordSleeps,
	seedSessions,
	sendParams,
	useAirSign,
	locator,
	WHOLE_ANSWER,
	idItems,
	UNKNOWN_ID,
	onId,
} from './helpers';
import { listSearch } from './loadOptions';

const ctx = useAirSign();
const getParams = onId('session', 'get');
const gets = () => ctx.apiRequests().filter((r) => r.method === 'GET');

describe('Session → Get', () => {
	it('returns the session in full: recipients with their status, files, timestamps in ISO UTC', async () => {
		const session = ctx.sandbox.createSession({
			name: 'Lease',
			status: 'pending',
			recipients: [{ name: 'Ann', email: 'ann@example.com' }],
		});
		const result = await ctx.ok(getParams(locator(session.sessionId), WHOLE_ANSWER));
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({
			sessionId: session.sessionId,
			name: 'Lease',
			status: 'pending',
			sessionType: 'offlineSigning',
			createdAt: session.createdAt,
			recipients: [{ name: 'Ann', email: 'ann@example.com', status: 'sent' }],
			files: [],
		});
		expect(gets().map((r) => r.path)).toEqual([`/api/v1/Session/${session.sessionId}`]);
	});

	it('every locator mode: From List, By ID, By URL (a draftUrl), and a plain string from an older workflow', async () => {
		const session = ctx.sandbox.createSession();
		const url = `${ctx.sandbox.baseUrl}/app/sessions/${session.sessionId}/edit`;
		for (const value of [
			locator(session.sessionId, 'list'),
			locator(` ${session.sessionId} `),
			locator(url, 'url'),
			session.sessionId,
		]) {
			const result = await ctx.ok(getParams(value));
			expect(result.items[0].json.sessionId).toBe(session.sessionId);
		}
	});

	it('By URL: a link with no ID, or with several and none after /session(s)/, is refused before any request', async () => {
		// A literal link without an ID is stopped by n8n itself (the mode's validation)...
		await expect(ctx.run(getParams(locator('https://app.example.com/x', 'url')))).rejects.toThrow(
			engineDifferences.invalidParameterMessage(/Not a link that holds an AirSign session ID/),
		);
		// ...and one from an expression by the node.
		const none = await ctx.run(getParams(locator('={{ "https://app.example.com/x" }}', 'url')));
		expectError(none, /holds no AirSign session ID/, { type: NodeOperationError });
		const two = `https://x.example/a/${UNKNOWN_ID}/b/${UNKNOWN_ID.replace('3f', '4f')}`;
		const several = await ctx.run(getParams(locator(two, 'url')));
		expect(several.error!.message).toContain('holds several IDs');
		const picked = `https://x.example/org/${UNKNOWN_ID.replace('3f', '4f')}/sessions/${UNKNOWN_ID}`;
		await ctx.run(getParams(locator(picked, 'url')));
		expect(gets().map((r) => r.path)).toEqual([`/api/v1/Session/${UNKNOWN_ID}`]);
	});

	it('a malformed ID is refused before any request, naming the item', async () => {
		await ctx.refused(
			getParams('={{ $json.id }}'),
			'Session ID "../Templates" is not a valid AirSign session ID',
			{ input: [{ json: { id: '../Templates' } }] },
		);
	});

	it("404 for an unknown session and for another organisation's", async () => {
		const theirs = ctx.sandbox.createSession({ orgId: ctx.sandbox.other.orgId });
		for (const id of [UNKNOWN_ID, theirs.sessionId]) {
			const result = await ctx.run(getParams(locator(id)));
			expectError(result, 'AirSign has no session with this ID [NOT_FOUND]', {
				type: NodeApiError,
				description: 'another AirSign organisation',
			});
		}
	});

	it('three items, one missing: with Continue On Fail the missing one becomes an error item, pairing kept', async () => {
		const a = ctx.sandbox.createSession({ name: 'A' });
		const b = ctx.sandbox.createSession({ name: 'B' });
		const result = await ctx.run(getParams(locator('={{ $json.id }}')), {
			input: idItems([a, { sessionId: UNKNOWN_ID }, b]),
			continueOnFail: true,
		});
		expect(result.items.map((i) => [i.json.name ?? i.json.error, i.pairedItem])).toEqual([
			['A', { item: 0 }],
			['AirSign has no session with this ID [NOT_FOUND]', { item: 1 }],
			['B', { item: 2 }],
		]);
	});

	it('a read: a 5xx and a dropped connection are retried (0.5 s, then 2 s), then it succeeds', async () => {
		const sleeps = recordSleeps();
		const session = ctx.sandbox.createSession();
		ctx.sandbox.injectFault({ kind: 'status', status: 502, path: '/api/v1/Session/' });
		ctx.sandbox.injectFault({ kind: 'drop', path: '/api/v1/Session/' });
		await ctx.ok(getParams(locator(session.sessionId)));
		expect(sleeps.requested).toEqual([500, 2000]);
		expect(gets().map((r) => r.status)).toEqual([502, 0, 200]);
	});

	it('a 429 within Max Wait is waited out; a longer one fails at once with the reset time', async () => {
		const sleeps = recordSleeps();
		const session = ctx.sandbox.createSession();
		ctx.sandbox.injectFault({ kind: 'rateLimit', path: '/api/v1/Session/', retryAfter: 30 });
		await ctx.ok(getParams(locator(session.sessionId)));
		expect(sleeps.requested).toEqual([30_000]);
		ctx.sandbox.injectFault({ kind: 'rateLimit', path: '/api/v1/Session/', retryAfter: 600 });
		const options = { maxRateLimitWait: 60 };
		const failed = await ctx.run(getParams(locator(session.sessionId), { options }));
		expect(failed.error!.message).toMatch(
			/^AirSign's request budget is used up\. It resets at \d\d:\d\d:\d\d UTC \(in 10 min\)/,
		);
		expect(failed.error!.description).toContain('AirSign allows 600 requests per hour');
		expect(failed.error!.description).toContain('waits at most 60 s');
		expect(sleeps.requested).toEqual([30_000]);
	});

	it('Send takes the same locator (From List, By URL) as Get', async () => {
		const draft = ctx.sandbox.createSession({
			recipients: [{ name: 'A', email: 'a@example.com' }],
		});
		const url = `${ctx.sandbox.baseUrl}/app/sessions/${draft.sessionId}/edit`;
		const result = await ctx.ok(sendParams(locator(url, 'url') as never));
		expect(result.items[0].json.status).toBe('pending');
	});
});

describe('Session locator: From List', () => {
	it('one List Sessions request per search: searched by name on AirSign, newest update first, 100 a page', async () => {
		ctx.sandbox.createSession({
			name: 'NDA – Acme',
			status: 'pending',
			updatedAt: '2025-01-02T00:00:00Z',
		});
		ctx.sandbox.createSession({ name: 'Lease', createdAt: '2025-01-03T00:00:00Z' });
		ctx.sandbox.createSession({ name: 'nda – Beta', createdAt: '2025-01-04T00:00:00Z' });
		const result = await listSearch(ctx, 'searchSessions', { filter: ' nda ' });
		expect(result.results.map((r) => r.name)).toEqual([
			'nda – Beta (draft)',
			'NDA – Acme (pending)',
		]);
		expect(result.paginationToken).toBeUndefined();
		expect(ctx.apiRequests().map((r) => r.query)).toEqual([
			{ name: 'nda', sortBy: 'updatedAt', sortOrder: 'desc', limit: '100', offset: '0' },
		]);
	});

	it('each session with its status in words, as the Status filter names it', async () => {
		ctx.sandbox.createSession({ name: 'Lease', status: 'inProgress' });
		const result = await listSearch(ctx, 'searchSessions');
		expect(result.results.map((r) => r.name)).toEqual(['Lease (in progress)']);
	});

	it('pages on by offset while AirSign says there is more', async () => {
		seedSessions(ctx.sandbox, 130);
		const first = await listSearch(ctx, 'searchSessions');
		expect(first.results).toHaveLength(100);
		expect(first.paginationToken).toBe('100');
		const second = await listSearch(ctx, 'searchSessions', {
			paginationToken: first.paginationToken,
		});
		expect(second.results).toHaveLength(30);
		expect(second.paginationToken).toBeUndefined();
		expect(ctx.apiRequests()).toHaveLength(2);
	});

	it('a used-up budget fails at once, saying that By ID needs no request', async () => {
		ctx.sandbox.injectFault({ kind: 'rateLimit', path: '/api/v1/Sessions', retryAfter: 30 });
		const error = await listSearch(ctx, 'searchSessions').catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).description).toContain("Choose 'By ID'");
		expect(ctx.apiRequests()).toHaveLength(1);
	});
});

describe('Template locator: From List', () => {
	it('active templates only, by name; the filter is applied by the node', async () => {
		ctx.sandbox.createTemplate({ name: 'Offer letter', status: 'active' });
		ctx.sandbox.createTemplate({ name: 'NDA', status: 'active' });
		ctx.sandbox.createTemplate({ name: 'Offer (draft)' });
		const all = await listSearch(ctx, 'searchTemplates');
		expect(all.results.map((r) => r.name)).toEqual(['NDA', 'Offer letter']);
		const offers = await listSearch(ctx, 'searchTemplates', { filter: 'OFFER' });
		expect(offers.results).toEqual([
			{
				name: 'Offer letter',
				value: ctx.sandbox.listAllTemplates().find((t) => t.name === 'Offer letter')!.templateId,
			},
		]);
		expect(ctx.apiRequests().map((r) => r.query)).toEqual([
			{ status: 'active', limit: '100', offset: '0' },
			{ status: 'active', limit: '100', offset: '0' },
		]);
	});

	it('with a filter, pages on until something matches', async () => {
		for (let i = 0; i < 150; i++)
			ctx.sandbox.createTemplate({ name: `T${String(i).padStart(3, '0')}`, status: 'active' });
		const found = await listSearch(ctx, 'searchTemplates', { filter: 'T14' });
		expect(found.results.map((r) => r.name)).toEqual(
			Array.from({ length: 10 }, (_, i) => `T14${i}`),
		);
		expect(ctx.apiRequests().map((r) => r.query.offset)).toEqual(['0', '100']);
	});
});
