import '../../harness';

import { describe, expect, it } from 'vitest';

import { apiRequests, asTool, runAirSign, sendParams, useAirSign, runOk } from './helpers';

const ctx = useAirSign();

describe('the node as an AI agent’s tool: a failed call is an answer the model can act on', () => {
	it('a bad value: an error item naming it, no request, the run goes on', async () => {
		const before = apiRequests(ctx.sandbox).length;
		const result = await runOk(ctx, sendParams('session 42'), { nodeType: asTool() });
		expect(result.items.map((i) => i.json)).toEqual([
			{
				sessionId: 'session 42',
				error: expect.stringMatching(/is not a valid AirSign session ID/),
				description: expect.any(String),
			},
		]);
		expect(apiRequests(ctx.sandbox).length).toBe(before);
	});

	it('AirSign’s refusal: the message, its code and what to do', async () => {
		const done = ctx.sandbox.createSession({
			recipients: [{ name: 'Ann', email: 'ann@example.com' }],
			status: 'completed',
		});
		const result = await runOk(ctx, sendParams(done.sessionId), { nodeType: asTool() });
		expect(result.items[0].json).toMatchObject({
			sessionId: done.sessionId,
			error: 'The session is not a draft, so it cannot be sent [NOT_A_DRAFT]',
			code: 'NOT_A_DRAFT',
		});
	});

	it('as a plain node the same call still fails the node (Continue On Fail off)', async () => {
		const result = await runAirSign(ctx, sendParams('session 42'));
		expect(result.error?.message).toMatch(/is not a valid AirSign session ID/);
	});
});
