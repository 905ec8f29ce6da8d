/**
 * Regression tests for what the fuzzing (test/fuzz) found: each a plain example that failed
 * before its fix (inputs; the answers and dates are in fuzzFindingsAnswers.test.ts).
 * docs/reliability.md lists them.
 */
import '../../harness';

import { describe, expect, it } from 'vitest';

import { binaryItem } from '../../harness';
import {
	expectRefused,
	fromTemplateParams,
	getManyParams,
	locator,
	savedField,
	sendParams,
	uploadParams,
	useAirSign,
	runOk,
} from './helpers';

const ctx = useAirSign();
const recipients = [{ name: 'Ann', email: 'ann@example.com' }];
const FORBIDDEN = /TypeError|undefined|\[object Object\]/;
const firstFive = (extra: object) => getManyParams({ returnAll: false, limit: 5, ...extra });

describe('fuzz findings: inputs', () => {
	it('an ID given as an object (an expression of the wrong type) is shown as JSON, never "[object Object]"', async () => {
		await expectRefused(
			ctx,
			sendParams('={{ $json.id }}'),
			'Session ID {"id":"x"} is not a valid AirSign session ID',
			{ input: [{ json: { id: { id: 'x' } } }] },
		);
	});

	it('an email given as an object or missing names the parameter without "[object Object]" or "undefined"', async () => {
		const session = ctx.sandbox.createSession({ recipients, status: 'pending' });
		for (const recipientEmail of [{ a: 1 }, undefined]) {
			const params = {
				resource: 'session',
				operation: 'sendInvitation',
				sessionId: session.sessionId,
				recipient: 'specific',
				recipientLocator: locator('={{ $json.email }}', 'email'),
			};
			const input = [{ json: { email: recipientEmail } }];
			const result = await expectRefused(ctx, params, /^'Recipient' is not an email address/, {
				input,
			});
			expect(result.error?.message).not.toMatch(FORBIDDEN);
		}
	});

	it('Session Get Many: a Sort By or Sort Order AirSign does not know is refused before any request', async () => {
		for (const sort of [{ sortBy: '={{ "status" }}' }, { sortOrder: '={{ "ASC" }}' }]) {
			await expectRefused(
				ctx,
				firstFive({ sort }),
				/^'Sort (By|Order)' must be (one of completedDate, createdAt, name, updatedAt|asc or desc), not "(status|ASC)"$/,
			);
		}
	});

	it('Template Get Many: a Status other than active or draft is refused before any request', async () => {
		await expectRefused(
			ctx,
			firstFive({ resource: 'template', status: '={{ "archived" }}' }),
			'\'Status\' must be active or draft, not "archived"',
		);
	});

	it('Limit given as an object or nothing names the parameter without "[object Object]" or "undefined"', async () => {
		for (const resource of ['session', 'template']) {
			for (const limit of ['={{ $json.nothing }}', '={{ { n: 1 } }}']) {
				const result = await expectRefused(
					ctx,
					getManyParams({ resource, returnAll: false, limit }),
					/^'Limit' must be a whole number of at least 1/,
				);
				expect(result.error?.message).not.toMatch(FORBIDDEN);
			}
		}
	});
});

describe('fuzz findings: inputs given as objects', () => {
	it('Get Many: a Status filter given as an object is an unknown state, shown as JSON', async () => {
		await expectRefused(
			ctx,
			firstFive({ filters: { status: '={{ { state: "done" } }}' } }),
			'\'Status\' has an unknown value: {"state":"done"}',
		);
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
		await expectRefused(
			ctx,
			fromTemplateParams(locator(template.templateId), value, schema),
			'\'Employee Email\' must be text, not {"at":"x"}',
		);
	});
});

describe('fuzz findings: text parameters given as numbers or objects', () => {
	it('Create Session: a Name given as an object is refused, not created as "[object Object]"', async () => {
		const params = {
			resource: 'session',
			operation: 'create',
			name: '={{ { first: "Ann" } }}',
			title: 'Agreement',
			recipients: { recipient: recipients },
		};
		await expectRefused(ctx, params, '\'Name\' must be text, not {"first":"Ann"}');
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
		const result = await runOk(ctx, uploadParams({ fileName: '={{ 42 }}' }), {
			input: [binaryItem(bytes, { fileName: 'a.pdf', mimeType: 'application/pdf' })],
		});
		expect(result.items[0].json.fileName).toBe('42.pdf');
	});

	it('Create Template: a role name given as an object is refused, not stored as "[object Object]"', async () => {
		const document = {
			format: 'blocks',
			title: 'Offer',
			blocks: [{ type: 'signatureBlock', recipient: 'r1', label: 'Sign' }],
		};
		const params = {
			resource: 'template',
			operation: 'create',
			name: 'Offer',
			document: JSON.stringify(document),
			recipients: { recipient: [{ key: 'r1', name: '={{ { role: "x" } }}' }] },
		};
		await expectRefused(
			ctx,
			params,
			'\'Recipients\' [0]: \'Role Name\' must be text, not {"role":"x"}',
		);
	});
});
