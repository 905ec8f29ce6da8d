import '../../harness';

import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { ann, simple } from './createSessionParams';
import { offerTemplate } from './createTemplateParams';
import { runAirSign, tokenCredential, useAirSign } from './helpers';
import { getSession, halfSigned as halfSignedIn, locatorById as id, people } from './shapeFixtures';

// Simplify (issue 42): version 2 returns the designed shape by default; a version 1 node keeps
// AirSign's whole answer unless Simplify is turned on.
const ctx = useAirSign();
const SESSION_FIELDS = [
	'sessionId',
	'name',
	'status',
	'selfSignOnly',
	'createdAt',
	'updatedAt',
	'completedDate',
	'expiryDate',
	'recipients',
	'sessionType',
	'files',
];
const SIMPLE_SESSION_FIELDS = [
	'sessionId',
	'name',
	'status',
	'signedCount',
	'recipientCount',
	'nextRecipient',
	'createdAt',
	'updatedAt',
	'completedDate',
	'expiryDate',
];
const run = async (parameters: INodeParameters, nodeTypeVersion?: number) => {
	const result = await runAirSign(ctx, parameters, { nodeTypeVersion });
	expect(result.error).toBeUndefined();
	return result.items.map((item) => item.json);
};

describe('Simplify on version 2 (the default)', () => {
	it('Session → Get: ten fields, who signed of how many and who is next', async () => {
		const session = halfSignedIn(ctx.sandbox);
		const [item] = await run(getSession(session.sessionId));
		const raw = ctx.sandbox.getSession(session.sessionId)!;
		expect(Object.keys(item)).toEqual(SIMPLE_SESSION_FIELDS);
		expect(item).toEqual({
			sessionId: session.sessionId,
			name: 'Lease',
			status: 'inProgress',
			signedCount: 1,
			recipientCount: 2,
			nextRecipient: { name: 'Bob Witness', email: 'bob@example.com' },
			createdAt: new Date(raw.createdAt).toISOString(),
			updatedAt: new Date(raw.updatedAt).toISOString(),
			completedDate: null,
			expiryDate: raw.expiryDate === null ? null : new Date(raw.expiryDate).toISOString(),
		});
	});

	it('nobody is next once the session is completed, nor in a draft that was never sent', async () => {
		const done = ctx.sandbox.createSession({ name: 'Done', status: 'pending', recipients: people });
		ctx.sandbox.completeSession(done.sessionId);
		const draft = ctx.sandbox.createSession({ name: 'Draft', recipients: people });
		const [completed] = await run(getSession(done.sessionId));
		expect(completed).toMatchObject({
			status: 'completed',
			signedCount: 2,
			recipientCount: 2,
			nextRecipient: null,
			completedDate: expect.stringMatching(/Z$/),
		});
		const [drafted] = await run(getSession(draft.sessionId));
		expect(drafted).toMatchObject({ status: 'draft', signedCount: 0, nextRecipient: null });
	});

	it('Simplify off: AirSign’s whole answer, as version 1 returns it', async () => {
		const session = halfSignedIn(ctx.sandbox);
		const [raw] = await run(getSession(session.sessionId, { simplify: false }));
		expect(Object.keys(raw)).toEqual(SESSION_FIELDS);
		expect(await run(getSession(session.sessionId), 1)).toEqual([raw]);
	});

	it('Session → Get Many: every session simplified', async () => {
		halfSignedIn(ctx.sandbox);
		ctx.sandbox.createSession({ name: 'Draft', recipients: people });
		const items = await run({ resource: 'session', operation: 'getMany', returnAll: true });
		expect(items.length).toBeGreaterThan(1);
		for (const item of items) expect(Object.keys(item)).toEqual(SIMPLE_SESSION_FIELDS);
	});

	it('Session → Create and Create From Template: the session shape', async () => {
		const [created] = await run(simple());
		// A draft has no next signer: the link where it is reviewed takes that place.
		expect(created).toMatchObject({
			status: 'draft',
			signedCount: 0,
			recipientCount: 2,
			draftUrl: `${ctx.sandbox.baseUrl}/app/sessions/${created.sessionId}/edit`,
		});
		expect(Object.keys(created)).toEqual(
			SIMPLE_SESSION_FIELDS.map((f) => (f === 'nextRecipient' ? 'draftUrl' : f)),
		);

		const [sent] = await run(simple({ name: 'Sent at once', sendImmediately: true }));
		expect(Object.keys(sent)).toEqual(SIMPLE_SESSION_FIELDS);
		// Bob's Signing Order 0 is the field's "not set": the recipients sign as listed, Ann first.
		expect(sent).toMatchObject({
			status: 'pending',
			nextRecipient: { name: ann.name, email: ann.email },
		});

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
		expect(Object.keys(fromTemplate)).toContain('draftUrl');
		expect(Object.keys(fromTemplate)).toHaveLength(10);
		expect(fromTemplate).toMatchObject({ name: 'Plain', recipientCount: 1 });
	});

	it('Template → Get and Create: its roles and variables by name', async () => {
		const template = ctx.sandbox.createTemplate({
			name: 'Offer',
			status: 'active',
			recipients: [
				{ key: 'employee', name: 'Employee', email: '' },
				{ key: 'hr', name: 'HR Manager', email: 'hr@example.com' },
			],
			variables: [{ name: 'position' }, { name: 'note', required: false }],
		});
		const [item] = await run({
			resource: 'template',
			operation: 'get',
			templateId: id(template.templateId),
		});
		expect(item).toEqual({
			templateId: template.templateId,
			name: 'Offer',
			status: 'active',
			selfSignOnly: false,
			roles: ['Employee', 'HR Manager'],
			variables: ['position', 'note'],
			requiredVariables: ['position'],
			createdAt: expect.stringMatching(/Z$/),
			updatedAt: expect.stringMatching(/Z$/),
		});

		ctx.cred = await tokenCredential(ctx, ctx.sandbox.issueToken({ scopes: ['write:templates'] }));
		const [created] = await run(offerTemplate());
		expect(created).toMatchObject({
			status: 'draft',
			roles: ['Employee', 'HR Manager'],
			variables: ['employeeName', 'employeeEmail', 'startDate', 'salary'],
			requiredVariables: ['employeeName', 'employeeEmail', 'startDate'],
			editorUrl: expect.stringMatching(/^http/),
		});
		expect(Object.keys(created).length).toBeLessThanOrEqual(10);
	});

	it('operations with a small answer have no Simplify and answer as before', async () => {
		ctx.sandbox.createTemplate({ name: 'Listed', status: 'active' });
		const [listed] = await run({ resource: 'template', operation: 'getMany', simplify: true });
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
		expect(item).not.toHaveProperty('signedCount');
		expect(item).not.toHaveProperty('nextRecipient');
	});
});

describe('version 1 (workflows saved before version 2)', () => {
	it('keeps AirSign’s whole answer by default', async () => {
		const session = halfSignedIn(ctx.sandbox);
		const [item] = await run(getSession(session.sessionId), 1);
		expect(Object.keys(item)).toEqual(SESSION_FIELDS);
		expect((item.recipients as unknown[]).length).toBe(2);
		const listed = await run({ resource: 'session', operation: 'getMany', returnAll: true }, 1);
		expect(listed.find((s) => s.sessionId === session.sessionId)).toHaveProperty('recipients');
	});

	it('offers Simplify, off by default', async () => {
		const session = halfSignedIn(ctx.sandbox);
		const [item] = await run(getSession(session.sessionId, { simplify: true }), 1);
		expect(Object.keys(item)).toEqual(SIMPLE_SESSION_FIELDS);
	});
});

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
		expect(item.recipients).toEqual(
			raw.recipients.map((r) => ({
				recipientId: r.recipientId,
				name: r.name,
				email: r.email,
				status: r.status,
				signingOrder: r.signingOrder,
			})),
		);
		const statusOf = (email: string) =>
			(item.recipients as Array<{ email: string; status: string }>).find((r) => r.email === email)!
				.status;
		expect([statusOf('ann@example.com'), statusOf('cy@example.com')]).toEqual([
			'completed',
			'completed',
		]);
		expect(statusOf('bob@example.com')).not.toBe('completed');
	});
});
