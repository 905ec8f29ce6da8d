import '../../harness';

import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { Sandbox } from '../../../sandbox';
import { simple } from './createSessionParams';
import { offerTemplate, offerTemplateParams } from './offerTemplate';
import {
	asTool,
	locator as id,
	SESSION_FIELDS,
	sendParams,
	tokenCredential,
	useAirSign,
	onId,
} from './helpers';

// Simplify (on by default): a session or a template in at most 10 fields, each AirSign's own, the
// same keys for every record (null where the answer has none); off: AirSign's whole answer.
// As an AI agent's tool: Output (Simplified, Raw, Selected Fields) instead of Simplify; failed calls.
const ctx = useAirSign();
const people = [
	{ name: 'Ann Signer', email: 'ann@example.com' },
	{ name: 'Bob Witness', email: 'bob@example.com' },
];
/** An operation's parameters on the session or template of this ID, given By ID. */
const on =
	(resource: string, operation: string, key?: string) =>
	(value: string, extra: INodeParameters = {}) =>
		onId(resource, operation, key)(id(value), extra);
const getSession = on('session', 'get');
const getTemplate = on('template', 'get');
const fromTemplate = on('session', 'createFromTemplate', 'templateId');
/** An active template with one role, a fixed signer. */
const plainTemplate = (sandbox: Sandbox) =>
	sandbox.createTemplate({
		name: 'Plain',
		status: 'active',
		recipients: [{ key: 'signer', name: 'Signer', email: 'signer@example.com' }],
	});
/** A session sent to Ann then Bob; Ann has signed, Bob has not, so it is in progress. */
function halfSigned(sandbox: Sandbox) {
	const session = sandbox.createSession({ name: 'Lease', status: 'pending', recipients: people });
	sandbox.signRecipient(session.sessionId, { email: 'ann@example.com' });
	return session;
}
const SIMPLE_SESSION_FIELDS = [
	'sessionId',
	'name',
	'status',
	'recipients',
	'files',
	'createdAt',
	'updatedAt',
	'completedDate',
	'expiryDate',
	'draftUrl',
];
const SIMPLE_TEMPLATE_FIELDS = [
	'templateId',
	'name',
	'status',
	'selfSignOnly',
	'recipients',
	'variables',
	'createdAt',
	'updatedAt',
	'editorUrl',
];
const run = async (parameters: INodeParameters, extra = {}) =>
	(await ctx.ok(parameters, extra)).items.map((item) => item.json);
const runTool = (parameters: INodeParameters) => run(parameters, { nodeType: asTool() });
/** A recipient as the simplified session keeps it. */
const RECIPIENT_KEYS = ['recipientId', 'name', 'email', 'status', 'signingOrder'] as const;
const recipientOf = (r: Record<(typeof RECIPIENT_KEYS)[number], unknown>) =>
	Object.fromEntries(RECIPIENT_KEYS.map((key) => [key, r[key]]));

describe('Simplify keeps who signed (issue 48)', () => {
	it('Ann and Cy signed, Bob has not: the default output names each recipient with their status', async () => {
		const session = ctx.sandbox.createSession({
			name: 'Three signers',
			status: 'pending',
			recipients: [...people, { name: 'Cy Third', email: 'cy@example.com' }],
		});
		ctx.sandbox.signRecipient(session.sessionId, { email: 'ann@example.com' });
		ctx.sandbox.signRecipient(session.sessionId, { email: 'cy@example.com' });
		const raw = ctx.sandbox.getSession(session.sessionId)!;
		const [item] = await run(getSession(session.sessionId));
		expect(item.recipients).toEqual(raw.recipients.map(recipientOf));
		const statuses = Object.fromEntries(
			(item.recipients as Array<{ email: string; status: string }>).map((r) => [r.email, r.status]),
		);
		expect(statuses).toMatchObject({
			'ann@example.com': 'completed',
			'cy@example.com': 'completed',
		});
		expect(statuses['bob@example.com']).not.toBe('completed');
	});
});

describe('Simplify (the default)', () => {
	it('Session → Get: ten fields, each recipient and file as AirSign gives them, draftUrl null; Simplify off: the whole answer', async () => {
		const session = halfSigned(ctx.sandbox);
		const [item] = await run(getSession(session.sessionId));
		const raw = ctx.sandbox.getSession(session.sessionId)!;
		expect(Object.keys(item)).toEqual(SIMPLE_SESSION_FIELDS);
		expect(item).toEqual({
			sessionId: session.sessionId,
			name: 'Lease',
			status: 'inProgress',
			recipients: raw.recipients.map(recipientOf),
			files: expect.any(Array),
			createdAt: new Date(raw.createdAt).toISOString(),
			updatedAt: new Date(raw.updatedAt).toISOString(),
			completedDate: null,
			expiryDate: raw.expiryDate === null ? null : new Date(raw.expiryDate).toISOString(),
			draftUrl: null,
		});
		const [whole] = await run(getSession(session.sessionId, { simple: false }));
		expect(Object.keys(whole)).toEqual(SESSION_FIELDS);
		expect(whole.recipients).toHaveLength(2);
		expect(item.files).toEqual(whole.files);
	});

	it('Session → Get Many: every session with the same keys; files null, as List Sessions has none', async () => {
		halfSigned(ctx.sandbox);
		ctx.sandbox.createSession({ name: 'Draft', recipients: people });
		const items = await run({ resource: 'session', operation: 'getMany', returnAll: true });
		expect(items.length).toBeGreaterThan(1);
		for (const item of items) {
			expect(Object.keys(item)).toEqual(SIMPLE_SESSION_FIELDS);
			expect(item).toMatchObject({ files: null, draftUrl: null });
			expect((item.recipients as unknown[]).length).toBe(2);
		}
	});

	it('Session → Create and Create From Template: the same keys, draftUrl while a draft, else null', async () => {
		const [created] = await run(simple());
		expect(Object.keys(created)).toEqual(SIMPLE_SESSION_FIELDS);
		expect(created).toMatchObject({
			status: 'draft',
			draftUrl: `${ctx.sandbox.baseUrl}/app/sessions/${created.sessionId}/edit`,
		});

		const [sent] = await run(simple({ name: 'Sent at once', sendImmediately: true }));
		expect(Object.keys(sent)).toEqual(SIMPLE_SESSION_FIELDS);
		expect(sent).toMatchObject({ status: 'pending', draftUrl: null });
		expect((sent.recipients as Array<{ status: unknown }>).map((r) => r.status)).toEqual([
			'sent',
			'sent',
		]);

		const [made] = await run(fromTemplate(plainTemplate(ctx.sandbox).templateId));
		expect(Object.keys(made)).toEqual(SIMPLE_SESSION_FIELDS);
		expect(made).toMatchObject({
			name: 'Plain',
			draftUrl: expect.stringMatching(/^http/),
			recipients: [expect.objectContaining({ name: 'Signer', email: 'signer@example.com' })],
		});
	});

	it('Template → Get and Create: its roles by position with name, email and signing order; its variables', async () => {
		const variables = [{ name: 'position' }, { name: 'note', required: false }];
		const template = ctx.sandbox.createTemplate(
			offerTemplate({ name: 'Offer', text: '', variables }),
		);
		const [item] = await run(getTemplate(template.templateId));
		expect(Object.keys(item)).toEqual(SIMPLE_TEMPLATE_FIELDS);
		expect(item).toEqual({
			templateId: template.templateId,
			name: 'Offer',
			status: 'active',
			selfSignOnly: false,
			recipients: [
				{ name: 'Employee', email: '', signingOrder: 1 },
				{ name: 'HR Manager', email: 'hr@example.com', signingOrder: 2 },
			],
			variables: [
				{ name: 'position', type: 'text', required: true },
				{ name: 'note', type: 'text', required: false },
			],
			createdAt: expect.stringMatching(/Z$/),
			updatedAt: expect.stringMatching(/Z$/),
			editorUrl: null,
		});

		ctx.cred = await tokenCredential(ctx, ctx.sandbox.issueToken({ scopes: ['write:templates'] }));
		const [created] = await run(offerTemplateParams());
		expect(Object.keys(created)).toEqual(SIMPLE_TEMPLATE_FIELDS);
		expect(created).toMatchObject({
			status: 'draft',
			recipients: [
				expect.objectContaining({ name: 'Employee' }),
				expect.objectContaining({ name: 'HR Manager' }),
			],
			editorUrl: expect.stringMatching(/^http/),
		});
		expect((created.variables as Array<{ name: string }>).map((v) => v.name)).toEqual([
			'employeeName',
			'employeeEmail',
			'startDate',
			'salary',
		]);
	});

	it('operations with a small answer have no Simplify and answer as before', async () => {
		ctx.sandbox.createTemplate({ name: 'Listed', status: 'active' });
		const [listed] = await run({ resource: 'template', operation: 'getMany', simple: true });
		expect(listed).toHaveProperty('recipientCount');
		expect(listed).toHaveProperty('hasVariables');
	});

	it('an error item (Continue On Fail) is never simplified away', async () => {
		const result = await ctx.run(getSession('0b0b0b0b-0000-4000-8000-000000000000'), {
			continueOnFail: true,
		});
		expect(result.items).toHaveLength(1);
		const item = result.items[0].json;
		expect(item).toMatchObject({
			sessionId: '0b0b0b0b-0000-4000-8000-000000000000',
			error: expect.stringMatching(/session/i),
		});
		expect(item).not.toHaveProperty('recipients');
		expect(item).not.toHaveProperty('draftUrl');
	});
});

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
		const [picked] = await runTool(
			getTemplate(template.templateId, { output: 'fields', fields: ['variables'] }),
		);
		expect(picked).toEqual({ templateId: template.templateId, variables: [] });
	});

	it('Selected Fields on Create From Template, whose own "fields" are its recipients and variables', async () => {
		const template = plainTemplate(ctx.sandbox);
		const [item] = await runTool(
			fromTemplate(template.templateId, { output: 'fields', outputFields: ['status'] }),
		);
		expect(item).toEqual({ sessionId: expect.any(String), status: 'draft' });
	});

	it('Fields that are not a list fail the call before any request: no session is created', async () => {
		const result = await ctx.run(simple({ output: 'fields', fields: '={{ "status" }}' }), {
			nodeType: asTool(),
		});
		expect(result.items[0].json.error).toMatch(/^'Fields' must be a list of field names/);
		expect(ctx.apiRequests()).toEqual([]);
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
		const before = ctx.apiRequests().length;
		const result = await ctx.ok(sendParams('session 42'), { nodeType: asTool() });
		expect(result.items.map((i) => i.json)).toEqual([
			{
				sessionId: 'session 42',
				error: expect.stringMatching(/is not a valid AirSign session ID/),
				description: expect.any(String),
			},
		]);
		expect(ctx.apiRequests().length).toBe(before);
	});

	it('as a plain node the same call still fails the node (Continue On Fail off)', async () => {
		const result = await ctx.run(sendParams('session 42'));
		expect(result.error?.message).toMatch(/is not a valid AirSign session ID/);
	});
});
