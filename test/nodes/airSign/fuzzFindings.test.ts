/**
 * Regression tests for what the fuzzing (test/fuzz) found: each a plain example that failed
 * before its fix (inputs; the answers and dates are in fuzzFindingsAnswers.test.ts).
 * docs/reliability.md lists them.
 */
import '../../harness';

import { describe, expect, it } from 'vitest';

import { binaryItem } from '../../harness';
import {
	apiRequests,
	fromTemplateParams,
	locator,
	runAirSign,
	savedField,
	useAirSign,
	runOk,
} from './helpers';

const ctx = useAirSign();
const recipients = [{ name: 'Ann', email: 'ann@example.com' }];
const FORBIDDEN = /TypeError|undefined|\[object Object\]/;

describe('fuzz findings: inputs', () => {
	it('an ID given as an object (an expression of the wrong type) is shown as JSON, never "[object Object]"', async () => {
		const result = await runAirSign(
			ctx,
			{ resource: 'session', operation: 'send', sessionId: '={{ $json.id }}' },
			{ input: [{ json: { id: { id: 'x' } } }] },
		);
		expect(result.error?.message).toBe('Session ID {"id":"x"} is not a valid AirSign session ID');
		expect(apiRequests(ctx.sandbox)).toEqual([]);
	});

	it('an email given as an object or missing names the parameter without "[object Object]" or "undefined"', async () => {
		const session = ctx.sandbox.createSession({ recipients, status: 'pending' });
		for (const recipientEmail of [{ a: 1 }, undefined]) {
			const result = await runAirSign(
				ctx,
				{
					resource: 'session',
					operation: 'sendInvitation',
					sessionId: session.sessionId,
					recipient: 'specific',
					recipientLocator: { __rl: true, mode: 'email', value: '={{ $json.email }}' },
				},
				{ input: [{ json: { email: recipientEmail } }] },
			);
			expect(result.error?.message).toMatch(/^'Recipient' is not an email address/);
			expect(result.error?.message).not.toMatch(FORBIDDEN);
		}
		expect(apiRequests(ctx.sandbox)).toEqual([]);
	});

	it('Session Get Many: a Sort By or Sort Order AirSign does not know is refused before any request', async () => {
		const cases = [{ sortBy: 'status' }, { sortOrder: 'ASC' }].map((sort) =>
			Object.fromEntries(Object.entries(sort).map(([k, v]) => [k, `={{ "${v}" }}`])),
		);
		for (const sort of cases) {
			const result = await runAirSign(ctx, {
				resource: 'session',
				operation: 'getMany',
				returnAll: false,
				limit: 5,
				sort,
			});
			expect(result.error?.message).toMatch(
				/^'Sort (By|Order)' must be (one of completedDate, createdAt, name, updatedAt|asc or desc), not "(status|ASC)"$/,
			);
		}
		expect(apiRequests(ctx.sandbox)).toEqual([]);
	});

	it('Template Get Many: a Status other than active or draft is refused before any request', async () => {
		const result = await runAirSign(ctx, {
			resource: 'template',
			operation: 'getMany',
			returnAll: false,
			limit: 5,
			status: '={{ "archived" }}',
		});
		expect(result.error?.message).toBe('\'Status\' must be active or draft, not "archived"');
		expect(apiRequests(ctx.sandbox)).toEqual([]);
	});

	it('Limit given as an object or nothing names the parameter without "[object Object]" or "undefined"', async () => {
		for (const resource of ['session', 'template']) {
			for (const limit of ['={{ $json.nothing }}', '={{ { n: 1 } }}']) {
				const result = await runAirSign(ctx, {
					resource,
					operation: 'getMany',
					returnAll: false,
					limit,
				});
				expect(result.error?.message).toMatch(/^'Limit' must be a whole number of at least 1/);
				expect(result.error?.message).not.toMatch(FORBIDDEN);
			}
		}
		expect(apiRequests(ctx.sandbox)).toEqual([]);
	});
});

describe('fuzz findings: inputs given as objects', () => {
	it('Get Many: a Status filter given as an object is an unknown state, shown as JSON', async () => {
		const result = await runAirSign(ctx, {
			resource: 'session',
			operation: 'getMany',
			returnAll: false,
			limit: 5,
			filters: { status: '={{ { state: "done" } }}' },
		});
		expect(result.error?.message).toBe('\'Status\' has an unknown value: {"state":"done"}');
		expect(apiRequests(ctx.sandbox)).toEqual([]);
	});

	it('Create From Template: a recipient email given as an object is refused as such, not sent as "[object Object]"', async () => {
		const template = ctx.sandbox.createTemplate({
			name: 'Offer',
			status: 'active',
			recipients: [{ key: 'employee', name: 'Employee' }],
		});
		const value = { 'recipient:1:name': 'Jane', 'recipient:1:email': '={{ { at: "x" } }}' };
		const schema = [
			savedField('recipient:1:name', 'Employee Name', 'string'),
			savedField('recipient:1:email', 'Employee Email', 'string'),
		];
		const result = await runAirSign(
			ctx,
			fromTemplateParams(locator(template.templateId), value, schema),
		);
		expect(result.error?.message).toBe('\'Employee Email\' must be text, not {"at":"x"}');
		expect(apiRequests(ctx.sandbox)).toEqual([]);
	});
});

describe('fuzz findings: text parameters given as numbers or objects', () => {
	it('Create Session: a Name given as an object is refused, not created as "[object Object]"', async () => {
		const result = await runAirSign(ctx, {
			resource: 'session',
			operation: 'create',
			name: '={{ { first: "Ann" } }}',
			title: 'Agreement',
			recipients: { recipient: [{ name: 'Ann', email: 'ann@example.com' }] },
		});
		expect(result.error?.message).toBe('\'Name\' must be text, not {"first":"Ann"}');
		expect(apiRequests(ctx.sandbox)).toEqual([]);
	});

	it('Create From Template: a Name given as a number is its text (it was a TypeError)', async () => {
		const template = ctx.sandbox.createTemplate({
			name: 'Offer',
			status: 'active',
			recipients: [{ key: 'employee', name: 'Employee', email: 'emp@example.com' }],
		});
		const result = await runOk(ctx, {
			resource: 'session',
			operation: 'createFromTemplate',
			templateId: locator(template.templateId),
			name: '={{ 2025 }}',
			fields: { mappingMode: 'defineBelow', value: {} },
		});
		expect(result.items[0].json.name).toBe('2025');
	});

	it('Upload: a File Name given as a number is its text (it was a TypeError)', async () => {
		const bytes = Buffer.from('%PDF-1.7\nhello');
		const result = await runOk(
			ctx,
			{ resource: 'file', operation: 'upload', binaryPropertyName: 'data', fileName: '={{ 42 }}' },
			{ input: [binaryItem(bytes, { fileName: 'a.pdf', mimeType: 'application/pdf' })] },
		);
		expect(result.items[0].json.fileName).toBe('42.pdf');
	});

	it('Create Template: a role name given as an object is refused, not stored as "[object Object]"', async () => {
		const result = await runAirSign(ctx, {
			resource: 'template',
			operation: 'create',
			name: 'Offer',
			document: JSON.stringify({
				format: 'blocks',
				title: 'Offer',
				blocks: [{ type: 'signatureBlock', recipient: 'r1', label: 'Sign' }],
			}),
			recipients: { recipient: [{ key: 'r1', name: '={{ { role: "x" } }}' }] },
		});
		expect(result.error?.message).toBe(
			'\'Recipients\' [0]: \'Role Name\' must be text, not {"role":"x"}',
		);
		expect(apiRequests(ctx.sandbox)).toEqual([]);
	});
});
