import '../../harness';

import type { INodeParameters } from 'n8n-workflow';
import type { RunNodeOptions } from '../../harness';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DEMO_SENDER_PROFILE_ID, type CreateTemplateInput } from '../../../sandbox';
import { expectError, fromTemplateParams, locator, recordSleeps, useAirSign } from './helpers';
import { mapperFields } from './loadOptions';
import { offerTemplate } from './offerTemplate';

const ctx = useAirSign();
const posts = () => ctx.apiRequests().filter((r) => r.method === 'POST');
const params = (id: string, schema: object[], value: object, extra: INodeParameters = {}) =>
	fromTemplateParams(locator(id, 'list'), { ...value }, schema, extra);
/** What the editor asks when the builder opens "Recipients and Variables". */
const loadFields = (templateId: string) =>
	mapperFields(ctx, 'getTemplateFields', {
		resource: 'session',
		operation: 'createFromTemplate',
		templateId: locator(templateId, 'list'),
	});
/** The template (default: the offer) in the sandbox, and the fields the editor loaded for it. */
async function withFields(input: CreateTemplateInput = offerTemplate()) {
	const template = ctx.sandbox.createTemplate(input);
	const { fields } = await loadFields(template.templateId);
	ctx.sandbox.clearRequests();
	return { id: template.templateId, fields };
}

/** No saved fields, the template from an expression: parameters and the input naming it. */
const fromExpression = (
	templateId: string,
	value: object,
): [INodeParameters, Partial<RunNodeOptions>] => [
	{ ...params('', [], value), templateId: locator('={{ $json.template }}') },
	{ input: [{ json: { template: templateId } }] },
];

const employee = {
	'recipient:1:name': 'Jane Citizen',
	'recipient:1:email': 'jane@example.com',
	position: 'Engineer',
	startDate: '2025-08-01',
	salary: 120000,
};

describe('Create From Template: the resource mapper', () => {
	it('loads the roles as "<Role> Name" / "<Role> Email" and the variables with type, required and description (one Get Template)', async () => {
		const template = ctx.sandbox.createTemplate(offerTemplate());
		const { fields } = await loadFields(template.templateId);
		expect(
			fields.map((f) => [f.id, f.displayName, f.type, f.required, f.defaultValue ?? null]),
		).toEqual([
			['recipient:1:name', 'Employee Name', 'string', true, null],
			['recipient:1:email', 'Employee Email', 'string', true, null],
			['recipient:2:name', 'HR Manager Name', 'string', false, 'HR Manager'],
			['recipient:2:email', 'HR Manager Email', 'string', false, 'hr@example.com'],
			['position', 'Position (text) – Job title', 'string', true, null],
			['startDate', 'Start date (date)', 'dateTime', true, null],
			['salary', 'Salary (number)', 'number', true, null],
			['note', 'Note (text)', 'string', false, 'Welcome'],
		]);
		expect(ctx.apiRequests().map((r) => r.path)).toEqual([
			`/api/v1/Template/${template.templateId}`,
		]);
	});

	it('no template chosen yet: no request, a notice', async () => {
		const result = await loadFields('');
		expect(result.fields).toEqual([]);
		expect(result.emptyFieldsNotice).toContain('Choose a template');
		expect(ctx.sandbox.requests).toEqual([]);
	});

	it('a template AirSign does not know: its words, as Template → Get says them', async () => {
		await expect(loadFields('3f2b8a1e-7c4d-4e8f-9a0b-1c2d3e4f5a6b')).rejects.toThrow(
			/^AirSign has no template with this ID \[/,
		);
	});
});

describe('Session → Create From Template', () => {
	it('creates a draft from the mapped fields: recipients by position, typed variables, timestamps read as UTC', async () => {
		const { id, fields } = await withFields();
		const result = await ctx.ok(params(id, fields, employee, { simple: false }));
		const out = result.items[0].json;
		expect(out).toMatchObject({ name: 'Offer letter', status: 'draft' });
		expect(out.draftUrl).toBe(`${ctx.sandbox.baseUrl}/app/sessions/${out.sessionId}/edit`);
		// AirSign wrote "2025-07-02 16:19:36" (no zone): the output is ISO 8601 UTC.
		const stored = ctx.sandbox.getSession(out.sessionId as string)!;
		expect(out.createdAt).toBe(stored.createdAt.replace(/\.\d{3}Z$/, '.000Z'));
		expect(out.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
		expect(stored.recipients.map((r) => [r.name, r.email])).toEqual([
			['Jane Citizen', 'jane@example.com'],
			['HR Manager', 'hr@example.com'],
		]);
		const document = (stored.files[0] as { document: { title: string } }).document;
		expect(document.title).toBe('Offer: Engineer');
		expect(posts()).toHaveLength(1);
		expect(ctx.sandbox.outbox).toEqual([]);
	});

	it('sends exactly what was given: name, Send Immediately, settings; a fixed role left as it is', async () => {
		const { id, fields } = await withFields();
		const options = {
			expiryDays: 0,
			reminderFrequency: 'daily',
			senderProfileId: DEMO_SENDER_PROFILE_ID,
			completionEmailRecipients: 'sender_only',
			tagIds: '11111111-2222-4333-8444-555555555555',
		};
		const extra = { name: 'Offer – Jane', sendImmediately: true, options };
		const result = await ctx.ok(params(id, fields, employee, extra));
		expect(result.items[0].json).toMatchObject({ name: 'Offer – Jane', status: 'pending' });
		expect(ctx.sandbox.getSession(result.items[0].json.sessionId as string)).toMatchObject({
			...options,
			expiryDays: null,
			tagIds: ['11111111-2222-4333-8444-555555555555'],
		});
		expect(ctx.sandbox.outbox.map((m) => m.to)).toEqual(['jane@example.com', 'hr@example.com']);
	});

	it('the fields from expressions over three items, each output paired with its item', async () => {
		const { id, fields } = await withFields();
		const rows = ['Ann', 'Bob', 'Cy'].map((n, i) => ({
			json: { name: n, email: `${n.toLowerCase()}@example.com`, salary: 1000 * (i + 1) },
		}));
		const result = await ctx.ok(
			params(id, fields, {
				...employee,
				'recipient:1:name': '={{ $json.name }}',
				'recipient:1:email': '={{ $json.email }}',
				salary: '={{ $json.salary }}',
			}),
			{ input: rows },
		);
		expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(ctx.sandbox.listAllSessions().map((s) => s.recipients[0].email)).toEqual([
			'ann@example.com',
			'bob@example.com',
			'cy@example.com',
		]);
	});

	describe('checked before any request', () => {
		it.each<[string, Record<string, unknown>, RegExp]>([
			[
				'required variables missing (untouched fields hold null or "")',
				{ ...employee, salary: null, position: '' },
				/^The template needs 'Position', 'Salary'$/,
			],
			[
				'a role without an email in the template, not given',
				{ ...employee, 'recipient:1:email': '' },
				/^The template needs 'Employee Email'$/,
			],
			[
				'an email that is not one',
				{ ...employee, 'recipient:1:email': 'jane@' },
				/'Employee Email' is not an email address: "jane@"/,
			],
			[
				'a date that is not one',
				{ ...employee, startDate: '={{ "soon" }}' },
				/'Start date' is not a date/,
			],
		])('%s', async (_label, value, message) => {
			const { id, fields } = await withFields();
			await ctx.refused(params(id, fields, value), message);
		});

		it('Name over 50 characters; Expiry Days over 730; a tag that is not an ID', async () => {
			const template = ctx.sandbox.createTemplate(offerTemplate());
			for (const [extra, message] of [
				[{ name: 'n'.repeat(51) }, "'Name' must be 1 to 50 characters long; it is 51"],
				[{ options: { expiryDays: 731 } }, "'Expiry Days' must be a whole number from 1 to 730"],
				[{ options: { tagIds: 'vip' } }, "'Tag IDs' holds something that is not a tag ID: vip"],
			] as const) {
				const result = await ctx.run(params(template.templateId, [], {}, extra));
				expect(result.error!.message).toContain(message);
			}
			expect(ctx.sandbox.requests).toEqual([]);
		});
	});

	// docs/api.md#create-session-from-template: a role whose name the template leaves empty must be
	// given one, even when its email is fixed; a placeholder is never sent as a signer's name.
	describe('a role with a fixed email but no name in the template', () => {
		/** A witness role with only an email, and a fixed HR Manager: nothing else is mandatory. */
		const unnamedRole: CreateTemplateInput = {
			name: 'Witnessed',
			status: 'active',
			recipients: [
				{ key: 'witness', name: '', email: 'witness@example.com' },
				{ key: 'hr', name: 'HR Manager', email: 'hr@example.com' },
			],
		};
		const laterRole = {
			'recipient:2:name': 'Jane Citizen',
			'recipient:2:email': 'jane@example.com',
		};

		it('its name is mandatory and has no default; its email is pre-filled', async () => {
			const { fields } = await withFields(unnamedRole);
			expect(fields.map((f) => [f.id, f.displayName, f.required, f.defaultValue ?? null])).toEqual([
				['recipient:1:name', 'Recipient 1 Name', true, null],
				['recipient:1:email', 'Recipient 1 Email', false, 'witness@example.com'],
				['recipient:2:name', 'HR Manager Name', false, 'HR Manager'],
				['recipient:2:email', 'HR Manager Email', false, 'hr@example.com'],
			]);
		});

		// Untouched fields as the editor saves them: "" or null.
		it.each([
			['no role given', { 'recipient:1:name': '' }],
			['a later role given', { 'recipient:1:name': null, ...laterRole }],
		])(
			'its name not given (%s): refused before any request, naming the field and the item',
			async (_label, value) => {
				const { id, fields } = await withFields(unnamedRole);
				const result = await ctx.refused(
					params(id, fields, value),
					"The template needs 'Recipient 1 Name'",
				);
				expect(result.error!.description).toContain("'Recipients and Variables'");
			},
		);

		it('its name given: sent with the template’s email, no placeholder', async () => {
			const { id, fields } = await withFields(unnamedRole);
			const value = { 'recipient:1:name': 'Wes Witness', ...laterRole };
			const result = await ctx.ok(params(id, fields, value));
			const stored = ctx.sandbox.getSession(result.items[0].json.sessionId as string)!;
			expect(stored.recipients.map((r) => [r.name, r.email])).toEqual([
				['Wes Witness', 'witness@example.com'],
				['Jane Citizen', 'jane@example.com'],
			]);
		});

		it('fields loaded at run time (a template from an expression) are checked the same way', async () => {
			const template = ctx.sandbox.createTemplate(unnamedRole);
			const result = await ctx.run(...fromExpression(template.templateId, laterRole));
			const expected = { type: NodeOperationError, itemIndex: 0 };
			expectError(result, "The template needs 'Recipient 1 Name'", expected);
			expect(ctx.apiRequests().map((r) => r.method)).toEqual(['GET']);
		});
	});

	it('no saved fields (a template from an expression): Get Template first, then the same checks', async () => {
		const template = ctx.sandbox.createTemplate(offerTemplate());
		await ctx.ok(...fromExpression(template.templateId, employee));
		expect(ctx.apiRequests().map((r) => r.method)).toEqual(['GET', 'POST']);
	});

	describe("AirSign's refusals, in words a builder can act on", () => {
		it('a draft template: TEMPLATE_NOT_ACTIVE', async () => {
			const { id, fields } = await withFields(offerTemplate({ status: 'draft' }));
			const result = await ctx.run(params(id, fields, employee));
			const message =
				'The template is a draft, so no session can be made from it [TEMPLATE_NOT_ACTIVE]';
			expectError(result, message, { type: NodeApiError });
		});

		it('the template changed after its fields were loaded: MISSING_VARIABLES says to refresh', async () => {
			const { id, fields } = await withFields();
			const stale = fields.filter((f) => f.id !== 'salary');
			const result = await ctx.run(params(id, stale, employee));
			expect(result.error!.message).toBe(
				'AirSign says required variables of the template are missing [MISSING_VARIABLES]',
			);
			expect(result.error!.description).toContain('refresh the fields');
			expect(result.error!.description).toContain('salary');
		});

		it("another organisation's template: 404", async () => {
			const theirs = ctx.sandbox.createTemplate({
				orgId: ctx.sandbox.other.orgId,
				status: 'active',
			});
			const result = await ctx.run(params(theirs.templateId, [], {}));
			expect(result.error!.message).toBe('AirSign has no template with this ID [NOT_FOUND]');
		});

		it('a plan feature the organisation lacks: 403 naming it', async () => {
			const { id, fields } = await withFields();
			ctx.sandbox.setPlanFeatures(ctx.sandbox.demo.orgId, ['Session Expiry']);
			const options = { senderProfileId: DEMO_SENDER_PROFILE_ID };
			const result = await ctx.run(params(id, fields, employee, { options }));
			expectError(
				result,
				'Your AirSign plan does not include Sender Profiles [PLAN_FEATURE_UNAVAILABLE]',
				{ description: "Remove 'Sender Profile ID'", httpCode: '403' },
			);
		});
	});

	describe('never created twice', () => {
		it('the answer lost after AirSign created the session: one request, "check AirSign … the session may exist"', async () => {
			const sleeps = recordSleeps();
			const { id, fields } = await withFields();
			ctx.sandbox.injectFault({ kind: 'dropAfter', path: '/api/v1/SessionFromTemplate' });
			const result = await ctx.run(params(id, fields, employee));
			expect(result.error!.message).toBe(
				'No answer from AirSign (connection closed by the server): check AirSign before running again: the session may exist',
			);
			expect(ctx.sandbox.listAllSessions()).toHaveLength(1);
			expect(posts()).toHaveLength(1);
			expect(sleeps.requested).toEqual([]);
		});

		it('a 502 is not retried; a 429 is waited out and sent once', async () => {
			const sleeps = recordSleeps();
			const { id, fields } = await withFields();
			const path = '/api/v1/SessionFromTemplate';
			ctx.sandbox.injectFault({ kind: 'status', status: 502, path });
			const failed = await ctx.run(params(id, fields, employee));
			expect(failed.error!.message).toContain(
				'[HTTP 502 INTERNAL]: check AirSign before running again',
			);
			ctx.sandbox.injectFault({ kind: 'rateLimit', path, retryAfter: 3 });
			await ctx.ok(params(id, fields, employee));
			expect(sleeps.requested).toEqual([3000]);
			expect(posts().map((r) => r.status)).toEqual([502, 429, 200]);
			expect(ctx.sandbox.listAllSessions()).toHaveLength(1);
		});
	});
});
