import '../../harness';

import type { INodeParameters } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { engineDifferences } from '../../harness/engine';
import {
	apiRequests,
	recordSleeps,
	runAirSign,
	sendParams,
	useAirSign,
	runOk,
	locator,
	WHOLE_ANSWER,
	idItems,
	UNKNOWN_ID,
} from './helpers';

const ctx = useAirSign();
const getParams = (sessionId: INodeParameters[string], extra: INodeParameters = {}) => ({
	resource: 'session',
	operation: 'get',
	sessionId,
	...extra,
});
const gets = () => apiRequests(ctx.sandbox).filter((r) => r.method === 'GET');

describe('Session → Get', () => {
	it('returns the session in full: recipients with their status, files, timestamps in ISO UTC', async () => {
		const session = ctx.sandbox.createSession({
			name: 'Lease',
			status: 'pending',
			recipients: [{ name: 'Ann', email: 'ann@example.com' }],
		});
		const result = await runOk(ctx, getParams(locator(session.sessionId), WHOLE_ANSWER));
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
			const result = await runOk(ctx, getParams(value));
			expect(result.items[0].json.sessionId).toBe(session.sessionId);
		}
	});

	it('By URL: a link with no ID, or with several and none after /session(s)/, is refused before any request', async () => {
		// A literal link without an ID is stopped by n8n itself (the mode's validation)...
		await expect(
			runAirSign(ctx, getParams(locator('https://app.example.com/x', 'url'))),
		).rejects.toThrow(
			engineDifferences.invalidParameterMessage(/Not a link that holds an AirSign session ID/),
		);
		// ...and one from an expression by the node.
		const none = await runAirSign(
			ctx,
			getParams(locator('={{ "https://app.example.com/x" }}', 'url')),
		);
		expect(none.error).toBeInstanceOf(NodeOperationError);
		expect(none.error!.message).toContain('holds no AirSign session ID');
		const two = `https://x.example/a/${UNKNOWN_ID}/b/${UNKNOWN_ID.replace('3f', '4f')}`;
		const several = await runAirSign(ctx, getParams(locator(two, 'url')));
		expect(several.error!.message).toContain('holds several IDs');
		const picked = `https://x.example/org/${UNKNOWN_ID.replace('3f', '4f')}/sessions/${UNKNOWN_ID}`;
		await runAirSign(ctx, getParams(locator(picked, 'url')));
		expect(gets().map((r) => r.path)).toEqual([`/api/v1/Session/${UNKNOWN_ID}`]);
	});

	it('a malformed ID is refused before any request, naming the item', async () => {
		const result = await runAirSign(ctx, getParams('={{ $json.id }}'), {
			input: [{ json: { id: '../Templates' } }],
		});
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error!.message).toBe(
			'Session ID "../Templates" is not a valid AirSign session ID',
		);
		expect(result.error!.context?.itemIndex).toBe(0);
		expect(ctx.sandbox.requests).toEqual([]);
	});

	it("404 for an unknown session and for another organisation's", async () => {
		const theirs = ctx.sandbox.createSession({ orgId: ctx.sandbox.other.orgId });
		for (const id of [UNKNOWN_ID, theirs.sessionId]) {
			const result = await runAirSign(ctx, getParams(locator(id)));
			expect(result.error).toBeInstanceOf(NodeApiError);
			expect(result.error!.message).toBe('AirSign has no session with this ID [NOT_FOUND]');
			expect(result.error!.description).toContain('another AirSign organisation');
		}
	});

	it('three items, one missing: with Continue On Fail the missing one becomes an error item, pairing kept', async () => {
		const a = ctx.sandbox.createSession({ name: 'A' });
		const b = ctx.sandbox.createSession({ name: 'B' });
		const result = await runAirSign(ctx, getParams(locator('={{ $json.id }}')), {
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
		await runOk(ctx, getParams(locator(session.sessionId)));
		expect(sleeps.requested).toEqual([500, 2000]);
		expect(gets().map((r) => r.status)).toEqual([502, 0, 200]);
	});

	it('a 429 within Max Wait is waited out; a longer one fails at once with the reset time', async () => {
		const sleeps = recordSleeps();
		const session = ctx.sandbox.createSession();
		ctx.sandbox.injectFault({ kind: 'rateLimit', path: '/api/v1/Session/', retryAfter: 30 });
		await runOk(ctx, getParams(locator(session.sessionId)));
		expect(sleeps.requested).toEqual([30_000]);
		ctx.sandbox.injectFault({ kind: 'rateLimit', path: '/api/v1/Session/', retryAfter: 600 });
		const failed = await runAirSign(
			ctx,
			getParams(locator(session.sessionId), { options: { maxRateLimitWait: 60 } }),
		);
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
		const result = await runOk(ctx, sendParams(locator(url, 'url') as never));
		expect(result.items[0].json.status).toBe('pending');
	});
});
