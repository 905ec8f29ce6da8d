/**
 * Regression tests for what the fuzzing (test/fuzz) found: each a plain example that failed
 * before its fix. docs/reliability.md lists them.
 */
import '../../harness';

import { describe, expect, it } from 'vitest';

import { apiRequests, runAirSign, useSandbox } from './helpers';

const ctx = useSandbox();
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
					recipient: 'email',
					recipientEmail: '={{ $json.email }}',
				},
				{ input: [{ json: { email: recipientEmail } }] },
			);
			expect(result.error?.message).toMatch(/^"Recipient Email" is not an email address/);
			expect(result.error?.message).not.toMatch(FORBIDDEN);
		}
		expect(apiRequests(ctx.sandbox)).toEqual([]);
	});

	it('Session Get Many: a Sort By or Sort Order AirSign does not know is refused before any request', async () => {
		for (const options of [{ sortBy: 'status' }, { sortOrder: 'ASC' }]) {
			const result = await runAirSign(ctx, {
				resource: 'session',
				operation: 'getMany',
				returnAll: false,
				limit: 5,
				options: Object.fromEntries(Object.entries(options).map(([k, v]) => [k, `={{ "${v}" }}`])),
			});
			expect(result.error?.message).toMatch(
				/^"Sort (By|Order)" must be (one of completedDate, createdAt, name, updatedAt|asc or desc), not "(status|ASC)"$/,
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
		expect(result.error?.message).toBe('"Status" must be active or draft, not "archived"');
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
				expect(result.error?.message).toMatch(/^"Limit" must be a whole number of at least 1/);
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
		expect(result.error?.message).toBe('"Status" has an unknown value: {"state":"done"}');
		expect(apiRequests(ctx.sandbox)).toEqual([]);
	});

	it('Create From Template: a recipient email given as an object is refused as such, not sent as "[object Object]"', async () => {
		const template = ctx.sandbox.createTemplate({
			name: 'Offer',
			status: 'active',
			recipients: [{ key: 'employee', name: 'Employee' }],
		});
		const result = await runAirSign(ctx, {
			resource: 'session',
			operation: 'createFromTemplate',
			templateId: { __rl: true, mode: 'id', value: template.templateId },
			fields: {
				mappingMode: 'defineBelow',
				value: { 'recipient:1:name': 'Jane', 'recipient:1:email': '={{ { at: "x" } }}' },
				schema: [
					{
						id: 'recipient:1:name',
						displayName: 'Employee Name',
						required: true,
						display: true,
						type: 'string',
						defaultMatch: false,
					},
					{
						id: 'recipient:1:email',
						displayName: 'Employee Email',
						required: true,
						display: true,
						type: 'string',
						defaultMatch: false,
					},
				],
			},
		});
		expect(result.error?.message).toBe('"Employee Email" must be text, not {"at":"x"}');
		expect(apiRequests(ctx.sandbox)).toEqual([]);
	});
});
