import '../../harness';

import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { simple as createParams } from './createSessionParams';
import {
	apiRequests,
	asTool,
	runAirSign,
	sendParams,
	useAirSign,
	runOk,
	locator as id,
} from './helpers';
import { getSession, halfSigned, people } from './shapeFixtures';

// As an AI agent's tool: Output (Simplified, Raw, Selected Fields) instead of Simplify; failed calls.
const ctx = useAirSign();
const runTool = async (parameters: INodeParameters) => {
	const result = await runOk(ctx, parameters, { nodeType: asTool() });
	return result.items.map((item) => item.json);
};

describe('Output, as an AI agent’s tool', () => {
	it('by default: Simplified, each recipient with their ID and signing status', async () => {
		const session = halfSigned(ctx.sandbox);
		const [item] = await runTool(getSession(session.sessionId));
		const [ann, bob] = ctx.sandbox.getSession(session.sessionId)!.recipients;
		expect(item).toMatchObject({
			sessionId: session.sessionId,
			status: 'inProgress',
			recipients: [
				{ recipientId: ann.recipientId, email: 'ann@example.com', status: 'completed' },
				{ recipientId: bob.recipientId, email: 'bob@example.com', status: bob.status },
			],
		});
		expect(bob.status).not.toBe('completed');
		expect(Object.keys(item).length).toBeLessThanOrEqual(10);
		expect(item).not.toHaveProperty('sessionType');
	});

	it('Simplify is not the tool’s switch: Output is', async () => {
		const session = halfSigned(ctx.sandbox);
		const [item] = await runTool(getSession(session.sessionId, { simple: false }));
		expect(item).not.toHaveProperty('sessionType');
	});

	it('Raw: AirSign’s whole answer', async () => {
		const session = halfSigned(ctx.sandbox);
		const [item] = await runTool(getSession(session.sessionId, { output: 'raw' }));
		expect(item).toMatchObject({ sessionId: session.sessionId, sessionType: expect.any(String) });
		expect(item.recipients).toHaveLength(2);
	});

	it('Selected Fields: those fields and always the ID', async () => {
		const session = halfSigned(ctx.sandbox);
		const [item] = await runTool(
			getSession(session.sessionId, { output: 'fields', fields: ['status', 'recipients'] }),
		);
		expect(Object.keys(item)).toEqual(['sessionId', 'status', 'recipients']);
		expect(item.recipients).toHaveLength(2);
		const [bare] = await runTool(getSession(session.sessionId, { output: 'fields', fields: [] }));
		expect(bare).toEqual({ sessionId: session.sessionId });
	});

	it('Selected Fields on Get Many sessions and on a template', async () => {
		for (let i = 0; i < 4; i++) halfSigned(ctx.sandbox);
		const listed = await runTool({
			resource: 'session',
			operation: 'getMany',
			limit: 3,
			output: 'fields',
			fields: ['name'],
		});
		expect(listed).toHaveLength(3);
		for (const item of listed) expect(Object.keys(item)).toEqual(['sessionId', 'name']);

		const template = ctx.sandbox.createTemplate({ name: 'Offer', status: 'active' });
		const [picked] = await runTool({
			resource: 'template',
			operation: 'get',
			templateId: id(template.templateId),
			output: 'fields',
			fields: ['variables'],
		});
		expect(picked).toEqual({ templateId: template.templateId, variables: [] });
	});

	it('Selected Fields on Create From Template, whose own "fields" are its recipients and variables', async () => {
		const template = ctx.sandbox.createTemplate({
			name: 'Plain',
			status: 'active',
			recipients: [{ key: 'signer', name: 'Signer', email: 'signer@example.com' }],
		});
		const [item] = await runTool({
			resource: 'session',
			operation: 'createFromTemplate',
			templateId: id(template.templateId),
			output: 'fields',
			outputFields: ['status'],
		});
		expect(item).toEqual({ sessionId: expect.any(String), status: 'draft' });
	});

	it('Fields that are not a list fail the call before any request: no session is created', async () => {
		const result = await runAirSign(
			ctx,
			createParams({ output: 'fields', fields: '={{ "status" }}' }),
			{ nodeType: asTool() },
		);
		expect(result.items[0].json.error).toMatch(/^'Fields' must be a list of field names/);
		expect(apiRequests(ctx.sandbox)).toEqual([]);
	});

	it('a failed call stays an error item the model can act on, whatever the Output', async () => {
		const done = ctx.sandbox.createSession({ recipients: people, status: 'completed' });
		for (const output of ['simple', 'fields']) {
			const [item] = await runTool({ ...sendParams(done.sessionId), output, fields: [] });
			expect(item).toMatchObject({
				sessionId: done.sessionId,
				error: 'The session is not a draft, so it cannot be sent [NOT_A_DRAFT]',
				code: 'NOT_A_DRAFT',
			});
		}
		const [getFailed] = await runTool(
			getSession('0b0b0b0b-0000-4000-8000-000000000000', { output: 'fields', fields: [] }),
		);
		expect(getFailed).toMatchObject({ error: expect.any(String), description: expect.any(String) });
	});
});

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
