import '../../harness';

import type { INodeParameters } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { offerDocument as document, offerTemplateParams as params } from './offerTemplate';
import {
	apiRequests,
	runAirSign,
	tokenCredential,
	useAirSign,
	runOk,
	expectRefused,
	WHOLE_ANSWER,
} from './helpers';

const ctx = useAirSign();
const withTemplatesScope = async () => {
	const scopes = ['write:sessions', 'write:templates'];
	ctx.cred = await tokenCredential(ctx, ctx.sandbox.issueToken({ scopes }));
};

describe('Template → Create', () => {
	it('a draft with its roles and variables; the output carries editorUrl', async () => {
		await withTemplatesScope();
		const result = await runOk(ctx, params(WHOLE_ANSWER));
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
		const result = await runAirSign(ctx, params({ activate: true }));
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
			await expectRefused(ctx, params(extra), message);
		});
	});

	it('403 without the scope write:templates names it', async () => {
		const result = await runAirSign(ctx, params());
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect(result.error!.description).toContain('write:templates');
		expect(ctx.sandbox.listAllTemplates()).toEqual([]);
	});

	it('403 for Session Expiry defaults names the feature', async () => {
		await withTemplatesScope();
		ctx.sandbox.setPlanFeatures(ctx.sandbox.demo.orgId, []);
		const result = await runAirSign(ctx, params({ options: { expiryDays: 30 } }));
		expect(result.error!.message).toBe(
			'Your AirSign plan does not include Session Expiry [PLAN_FEATURE_UNAVAILABLE]',
		);
	});

	it('the answer lost after AirSign created it: not retried, "the template may exist"', async () => {
		await withTemplatesScope();
		ctx.sandbox.injectFault({ kind: 'dropAfter', path: '/api/v1/Template', method: 'POST' });
		const result = await runAirSign(ctx, params());
		expect(result.error!.message).toBe(
			'No answer from AirSign (connection closed by the server): check AirSign before running again: the template may exist',
		);
		expect(ctx.sandbox.listAllTemplates()).toHaveLength(1);
		expect(apiRequests(ctx.sandbox)).toHaveLength(1);
	});
});
