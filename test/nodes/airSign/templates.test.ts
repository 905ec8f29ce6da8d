import '../../harness';

import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { apiRequests, recordSleeps, runAirSign, useAirSign, runOk, WHOLE_ANSWER } from './helpers';

const ctx = useAirSign();
const getManyParams = (extra: Record<string, unknown> = {}) => ({
	resource: 'template',
	operation: 'getMany',
	...extra,
});
const getParams = (templateId: unknown) => ({
	resource: 'template',
	operation: 'get',
	templateId: templateId as string,
});
const listed = () => apiRequests(ctx.sandbox).filter((r) => r.path === '/api/v1/Templates');

function seedTemplates(count: number, status: 'active' | 'draft' = 'active') {
	for (let i = 0; i < count; i++)
		ctx.sandbox.createTemplate({ name: `Template ${String(i).padStart(3, '0')}`, status });
}

describe('Template → Get Many', () => {
	it('defaults: active templates, Limit 50, one item each as AirSign lists it', async () => {
		seedTemplates(3);
		seedTemplates(2, 'draft');
		const result = await runOk(ctx, getManyParams());
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
		seedTemplates(1);
		seedTemplates(2, 'draft');
		const result = await runAirSign(ctx, getManyParams({ status: 'draft' }));
		expect(result.items).toHaveLength(2);
		expect(listed()[0].query.status).toBe('draft');
	});

	it('Return All over 250: pages of 100 (3 requests); Limit 150: 100 then 50', async () => {
		seedTemplates(250);
		const all = await runAirSign(ctx, getManyParams({ returnAll: true }));
		expect(all.items).toHaveLength(250);
		expect(listed().map((r) => [r.query.limit, r.query.offset])).toEqual([
			['100', '0'],
			['100', '100'],
			['100', '200'],
		]);
		ctx.sandbox.clearRequests();
		const some = await runAirSign(ctx, getManyParams({ limit: 150 }));
		expect(some.items).toHaveLength(150);
		expect(listed().map((r) => [r.query.limit, r.query.offset])).toEqual([
			['100', '0'],
			['50', '100'],
		]);
	});

	it('a read: a 5xx is retried; a 400 is not', async () => {
		const sleeps = recordSleeps();
		seedTemplates(1);
		ctx.sandbox.injectFault({ kind: 'status', status: 500, path: '/api/v1/Templates' });
		expect((await runAirSign(ctx, getManyParams())).items).toHaveLength(1);
		expect(listed().map((r) => r.status)).toEqual([500, 200]);
		// (A Status AirSign does not know never reaches it: test/nodes/airSign/fuzzFindings.test.ts.)
		ctx.sandbox.injectFault({ kind: 'status', status: 400, path: '/api/v1/Templates' });
		const bad = await runAirSign(ctx, getManyParams());
		expect(bad.error).toBeInstanceOf(NodeApiError);
		expect(bad.error!.message).toMatch(/^AirSign refused the request \[HTTP 400/);
		expect(listed().map((r) => r.status)).toEqual([500, 200, 400]);
		expect(sleeps.requested).toEqual([500]);
	});

	it('a Limit below 1 from an expression is refused before any request', async () => {
		const result = await runAirSign(ctx, getManyParams({ limit: '={{ 0 }}' }));
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(ctx.sandbox.requests).toEqual([]);
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
		const result = await runOk(ctx, {
			...getParams({ __rl: true, mode: 'list', value: template.templateId }),
			...WHOLE_ANSWER,
		});
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
		const result = await runAirSign(ctx, getParams(theirs.templateId));
		expect(result.error!.message).toBe('AirSign has no template with this ID [NOT_FOUND]');
		ctx.sandbox.clearRequests();
		const bad = await runAirSign(ctx, getParams('={{ "Templates?x" }}'));
		expect(bad.error!.message).toBe('Template ID "Templates?x" is not a valid AirSign template ID');
		expect(ctx.sandbox.requests).toEqual([]);
	});

	it('By URL: the editorUrl of a created template', async () => {
		const template = ctx.sandbox.createTemplate();
		const url = `${ctx.sandbox.baseUrl}/app/templates/${template.templateId}/edit`;
		const result = await runAirSign(ctx, getParams({ __rl: true, mode: 'url', value: url }));
		expect(result.items[0].json.templateId).toBe(template.templateId);
	});
});
