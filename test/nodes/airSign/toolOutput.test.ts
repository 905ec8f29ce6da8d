import '../../harness';

import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { simple as createParams } from './createSessionParams';
import { apiRequests, asTool, runAirSign, sendParams, useAirSign } from './helpers';
import { getSession, halfSigned, locatorById as id, people } from './shapeFixtures';

// Output (issue 42): as an AI agent's tool the node offers Simplified, Raw and Selected Fields
// instead of Simplify; version 2 defaults to Simplified, version 1 keeps the whole answer.
const ctx = useAirSign();
const runTool = async (parameters: INodeParameters, nodeTypeVersion?: number) => {
	const result = await runAirSign(ctx, parameters, { nodeType: asTool(), nodeTypeVersion });
	expect(result.error).toBeUndefined();
	return result.items.map((item) => item.json);
};

describe('Output, as an AI agent’s tool', () => {
	it('version 2 by default: Simplified', async () => {
		const session = halfSigned(ctx.sandbox);
		const [item] = await runTool(getSession(session.sessionId));
		expect(item).toMatchObject({
			sessionId: session.sessionId,
			status: 'inProgress',
			signedCount: 1,
			recipientCount: 2,
			nextRecipient: { name: 'Bob Witness', email: 'bob@example.com' },
		});
		expect(Object.keys(item).length).toBeLessThanOrEqual(10);
		expect(item).not.toHaveProperty('recipients');
	});

	it('Simplify is not the tool’s switch: Output is', async () => {
		const session = halfSigned(ctx.sandbox);
		const [item] = await runTool(getSession(session.sessionId, { simplify: false }));
		expect(item).not.toHaveProperty('recipients');
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
			getSession(session.sessionId, { output: 'selected', fields: ['status', 'recipients'] }),
		);
		expect(Object.keys(item)).toEqual(['sessionId', 'status', 'recipients']);
		expect(item.recipients).toHaveLength(2);
		const [bare] = await runTool(getSession(session.sessionId, { output: 'selected', fields: [] }));
		expect(bare).toEqual({ sessionId: session.sessionId });
	});

	it('Selected Fields on Get Many sessions and on a template', async () => {
		for (let i = 0; i < 4; i++) halfSigned(ctx.sandbox);
		const listed = await runTool({
			resource: 'session',
			operation: 'getMany',
			limit: 3,
			output: 'selected',
			fields: ['name'],
		});
		expect(listed).toHaveLength(3);
		for (const item of listed) expect(Object.keys(item)).toEqual(['sessionId', 'name']);

		const template = ctx.sandbox.createTemplate({ name: 'Offer', status: 'active' });
		const [picked] = await runTool({
			resource: 'template',
			operation: 'get',
			templateId: id(template.templateId),
			output: 'selected',
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
			output: 'selected',
			outputFields: ['status'],
		});
		expect(item).toEqual({ sessionId: expect.any(String), status: 'draft' });
	});

	it('version 1 as a tool keeps the whole answer by default', async () => {
		const session = halfSigned(ctx.sandbox);
		const [item] = await runTool(getSession(session.sessionId), 1);
		expect(item.recipients).toHaveLength(2);
		expect(item).toHaveProperty('files');
	});

	it('Fields that are not a list fail the call before any request: no session is created', async () => {
		const result = await runAirSign(
			ctx,
			createParams({ output: 'selected', fields: '={{ "status" }}' }),
			{ nodeType: asTool() },
		);
		expect(result.items[0].json.error).toMatch(/^'Fields' must be a list of field names/);
		expect(apiRequests(ctx.sandbox)).toEqual([]);
	});

	it('a failed call stays an error item the model can act on, whatever the Output', async () => {
		const done = ctx.sandbox.createSession({ recipients: people, status: 'completed' });
		for (const output of ['simple', 'selected']) {
			const [item] = await runTool({ ...sendParams(done.sessionId), output, fields: [] });
			expect(item).toMatchObject({
				sessionId: done.sessionId,
				error: 'The session is not a draft, so it cannot be sent [NOT_A_DRAFT]',
				code: 'NOT_A_DRAFT',
			});
		}
		const [getFailed] = await runTool(
			getSession('0b0b0b0b-0000-4000-8000-000000000000', { output: 'selected', fields: [] }),
		);
		expect(getFailed).toMatchObject({ error: expect.any(String), description: expect.any(String) });
	});
});
