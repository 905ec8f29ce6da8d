import '../../harness';

import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { simple } from './createSessionParams';
import { offerTemplate, offerTemplateParams } from './offerTemplate';
import { runAirSign, tokenCredential, useAirSign, runOk, locator as id } from './helpers';
import { getSession, halfSigned as halfSignedIn, people, SESSION_FIELDS } from './shapeFixtures';

// Simplify (on by default): a session or a template in at most 10 fields, each AirSign's own, the
// same keys for every record (null where the answer has none); off: AirSign's whole answer.
const ctx = useAirSign();
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
const run = async (parameters: INodeParameters) => {
	const result = await runOk(ctx, parameters);
	return result.items.map((item) => item.json);
};
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
	it('Session → Get: ten fields, each recipient and file as AirSign gives them, draftUrl null', async () => {
		const session = halfSignedIn(ctx.sandbox);
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
		expect(item.files).toEqual(whole.files);
	});

	it('Simplify off: AirSign’s whole answer', async () => {
		const session = halfSignedIn(ctx.sandbox);
		const [raw] = await run(getSession(session.sessionId, { simple: false }));
		expect(Object.keys(raw)).toEqual(SESSION_FIELDS);
		expect((raw.recipients as unknown[]).length).toBe(2);
	});

	it('Session → Get Many: every session with the same keys; files null, as List Sessions has none', async () => {
		halfSignedIn(ctx.sandbox);
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

		const template = ctx.sandbox.createTemplate({
			name: 'Plain',
			status: 'active',
			recipients: [{ key: 'signer', name: 'Signer', email: 'signer@example.com' }],
		});
		const [fromTemplate] = await run({
			resource: 'session',
			operation: 'createFromTemplate',
			templateId: id(template.templateId),
		});
		expect(Object.keys(fromTemplate)).toEqual(SIMPLE_SESSION_FIELDS);
		expect(fromTemplate).toMatchObject({
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
		const [item] = await run({
			resource: 'template',
			operation: 'get',
			templateId: id(template.templateId),
		});
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
		const result = await runAirSign(ctx, getSession('0b0b0b0b-0000-4000-8000-000000000000'), {
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
