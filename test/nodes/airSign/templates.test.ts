import '../../harness';

import type { INodeParameters } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	expectError,
	getManyParams as sessionList,
	recordSleeps,
	tokenCredential,
	useAirSign,
	WHOLE_ANSWER,
	locator,
	onId,
	seedTemplates,
} from './helpers';
import { offerDocument as document, offerTemplateParams as params } from './offerTemplate';

const ctx = useAirSign();
const getManyParams = (extra = {}) => sessionList({ resource: 'template', ...extra });
const getParams = onId('template', 'get');
const listed = () => ctx.apiRequests().filter((r) => r.path === '/api/v1/Templates');

describe('Template → Get Many', () => {
	it('defaults: active templates, Limit 50, one item each as AirSign lists it', async () => {
		seedTemplates(ctx.sandbox, 3);
		seedTemplates(ctx.sandbox, 2, 'draft');
		const result = await ctx.ok(getManyParams());
		expect(result.items.map((i) => i.json.name)).toEqual([
			'Template 000',
			'Template 001',
			'Template 002',
		]);
		expect(Object.keys(result.items[0].json).sort()).toEqual(
			[
				'createdAt',
				'hasVariables',
				'name',
				'recipientCount',
				'selfSignOnly',
				'status',
				'templateId',
				'updatedAt',
			].sort(),
		);
		expect(listed().map((r) => r.query)).toEqual([{ status: 'active', limit: '50', offset: '0' }]);
		expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 0 }]);
	});

	it('Status Draft', async () => {
		seedTemplates(ctx.sandbox, 1);
		seedTemplates(ctx.sandbox, 2, 'draft');
		const result = await ctx.run(getManyParams({ status: 'draft' }));
		expect(result.items).toHaveLength(2);
		expect(listed()[0].query.status).toBe('draft');
	});

	it('Return All over 250: every template once, in order, pages of 100 (3 requests); Limit 150: 100 then 50', async () => {
		const seeded = seedTemplates(ctx.sandbox, 250);
		const all = await ctx.run(getManyParams({ returnAll: true }));
		expect(all.items.map((i) => i.json.templateId)).toEqual(seeded.map((t) => t.templateId));
		expect(listed().map((r) => [r.query.limit, r.query.offset])).toEqual([
			['100', '0'],
			['100', '100'],
			['100', '200'],
		]);
		ctx.sandbox.clearRequests();
		const some = await ctx.run(getManyParams({ limit: 150 }));
		expect(some.items).toHaveLength(150);
		expect(listed().map((r) => [r.query.limit, r.query.offset])).toEqual([
			['100', '0'],
			['50', '100'],
		]);
	});

	it('a read: a 5xx is retried; a 400 is not', async () => {
		const sleeps = recordSleeps();
		seedTemplates(ctx.sandbox, 1);
		ctx.sandbox.injectFault({ kind: 'status', status: 500, path: '/api/v1/Templates' });
		expect((await ctx.run(getManyParams())).items).toHaveLength(1);
		expect(listed().map((r) => r.status)).toEqual([500, 200]);
		// (A Status AirSign does not know never reaches it: test/nodes/airSign/fuzzFindings.test.ts.)
		ctx.sandbox.injectFault({ kind: 'status', status: 400, path: '/api/v1/Templates' });
		const bad = await ctx.run(getManyParams());
		expectError(bad, /^AirSign refused the request \[HTTP 400/, { type: NodeApiError });
		expect(listed().map((r) => r.status)).toEqual([500, 200, 400]);
		expect(sleeps.requested).toEqual([500]);
	});

	it('a Limit below 1 from an expression is refused before any request', async () => {
		await ctx.refused(getManyParams({ limit: '={{ 0 }}' }), /'Limit' must be/);
	});
});

describe('Template → Get', () => {
	it('the template with its roles and variables; timestamps in ISO UTC', async () => {
		const template = ctx.sandbox.createTemplate({
			name: 'Offer',
			status: 'active',
			recipients: [{ key: 'employee', name: 'Employee' }],
			variables: [{ name: 'startDate', displayName: 'Start date', type: 'date' }],
		});
		const result = await ctx.ok(getParams(locator(template.templateId, 'list'), WHOLE_ANSWER));
		expect(result.items[0].json).toMatchObject({
			templateId: template.templateId,
			name: 'Offer',
			createdAt: template.createdAt,
			recipients: [{ recipientId: 'default', name: 'Employee', email: '' }],
			variables: [{ name: 'startDate', displayName: 'Start date', type: 'date', required: true }],
		});
	});

	it("404 for an unknown or another organisation's template; a malformed ID is refused before any request", async () => {
		const theirs = ctx.sandbox.createTemplate({ orgId: ctx.sandbox.other.orgId });
		const result = await ctx.run(getParams(theirs.templateId));
		expect(result.error!.message).toBe('AirSign has no template with this ID [NOT_FOUND]');
		ctx.sandbox.clearRequests();
		const bad = await ctx.run(getParams('={{ "Templates?x" }}'));
		expect(bad.error!.message).toBe('Template ID "Templates?x" is not a valid AirSign template ID');
		expect(ctx.sandbox.requests).toEqual([]);
	});

	it('By URL: the editorUrl of a created template', async () => {
		const template = ctx.sandbox.createTemplate();
		const url = `${ctx.sandbox.baseUrl}/app/templates/${template.templateId}/edit`;
		const result = await ctx.run(getParams(locator(url, 'url')));
		expect(result.items[0].json.templateId).toBe(template.templateId);
	});
});

const withTemplatesScope = async () => {
	const scopes = ['write:sessions', 'write:templates'];
	ctx.cred = await tokenCredential(ctx, ctx.sandbox.issueToken({ scopes }));
};

describe('Template → Create', () => {
	it('a draft with its roles and variables; the output carries editorUrl', async () => {
		await withTemplatesScope();
		const result = await ctx.ok(params(WHOLE_ANSWER));
		const out = result.items[0].json;
		expect(out).toMatchObject({ name: 'Offer letter', status: 'draft' });
		expect(out.editorUrl).toBe(`${ctx.sandbox.baseUrl}/app/templates/${out.templateId}/edit`);
		const variables = out.variables as Array<Record<string, unknown>>;
		expect(variables.map((v) => [v.name, v.type, v.required, v.defaultValue])).toEqual([
			['employeeName', 'text', true, null],
			['employeeEmail', 'text', true, null],
			['startDate', 'date', true, null],
			['salary', 'number', false, 90000],
		]);
		const stored = ctx.sandbox.getTemplate(out.templateId as string)!;
		expect(stored.recipients.map((r) => [r.key, r.name, r.email])).toEqual([
			['employee', 'Employee', '{{{employeeEmail}}}'],
			['hr', 'HR Manager', 'hr@example.com'],
		]);
	});

	it('Activate: sessions can be made from it at once', async () => {
		await withTemplatesScope();
		const result = await ctx.run(params({ activate: true }));
		expect(result.items[0].json.status).toBe('active');
	});

	describe('checked before any request', () => {
		const cases: Record<string, [INodeParameters, RegExp]> = {
			'a document that is not JSON': [{ document: '{ nope' }, /^'Document' is not valid JSON$/],
			'a title over 40': [
				{ document: JSON.stringify({ ...document, title: 'T'.repeat(41) }) },
				/the title is 41 characters/,
			],
			'a token not declared': [
				{ variables: { variable: [{ name: 'employeeName' }, { name: 'employeeEmail' }] } },
				/The token \{\{\{startDate\}\}\} is used but 'Variables' declares no "startDate"/,
			],
			'a variable name that cannot be a token': [
				{ variables: { variable: [{ name: '1st' }] } },
				/'Variables' \[0\]: 'Name' must be letters, digits and "_"/,
			],
			'51 variables': [
				{ variables: { variable: Array.from({ length: 51 }, (_, i) => ({ name: `v${i}` })) } },
				/holds 51 variables; AirSign takes at most 50/,
			],
			'no recipients': [
				{ recipients: {} },
				/'Recipients' must hold 1 to 20 recipients; it holds 0/,
			],
			'an email that is neither blank, a token nor an email': [
				{ recipients: { recipient: [{ key: 'employee', email: 'hr@' }, { key: 'hr' }] } },
				/'Email' must be an email address, a \{\{\{variable\}\}\} or empty/,
			],
			'a role without its signature block': [
				{ recipients: { recipient: [{ key: 'employee' }, { key: 'hr' }, { key: 'ceo' }] } },
				/Recipient "ceo" has 0 signature blocks/,
			],
			'a number default that is not a number': [
				{ variables: { variable: [{ name: 'salary', type: 'number', defaultValue: 'lots' }] } },
				/'Default Value' of a number variable must be a number/,
			],
			'Name over 50': [{ name: 'n'.repeat(51) }, /'Name' must be 1 to 50 characters long/],
		};
		it.each(Object.entries(cases))('%s', async (_label, [extra, message]) => {
			await ctx.refused(params(extra), message);
		});
	});

	it('403 without the scope write:templates names it', async () => {
		const result = await ctx.run(params());
		expectError(result, /./, { type: NodeApiError, description: 'write:templates' });
		expect(ctx.sandbox.listAllTemplates()).toEqual([]);
	});

	it('403 for Session Expiry defaults names the feature', async () => {
		await withTemplatesScope();
		ctx.sandbox.setPlanFeatures(ctx.sandbox.demo.orgId, []);
		const result = await ctx.run(params({ options: { expiryDays: 30 } }));
		expectError(
			result,
			'Your AirSign plan does not include Session Expiry [PLAN_FEATURE_UNAVAILABLE]',
		);
	});

	it('the answer lost after AirSign created it: not retried, "the template may exist"', async () => {
		await withTemplatesScope();
		ctx.sandbox.injectFault({ kind: 'dropAfter', path: '/api/v1/Template', method: 'POST' });
		const result = await ctx.run(params());
		expect(result.error!.message).toBe(
			'No answer from AirSign (connection closed by the server): check AirSign before running again: the template may exist',
		);
		expect(ctx.sandbox.listAllTemplates()).toHaveLength(1);
		expect(ctx.apiRequests()).toHaveLength(1);
	});
});
