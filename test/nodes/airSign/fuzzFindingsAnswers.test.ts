/**
 * Regression tests for what the fuzzing (test/fuzz) found: each a plain example that failed
 * before its fix (dates, answers, variable values; the inputs are in fuzzFindings.test.ts).
 * docs/reliability.md lists them.
 */
import '../../harness';

import { describe, expect, it } from 'vitest';

import {
	apiRequests,
	fromTemplateParams,
	savedField,
	locator,
	recordSleeps,
	runAirSign,
	useAirSign,
} from './helpers';
import { offerTemplate } from './offerTemplate';

const ctx = useAirSign();
const employee = { key: 'employee', name: 'Employee', email: 'emp@example.com' };
describe('fuzz findings: days that do not exist', () => {
	it('Create From Template: a date variable of 2025-02-30 is refused, not sent as 2025-03-02', async () => {
		const template = ctx.sandbox.createTemplate(
			offerTemplate({
				title: 'Offer',
				text: 'From {{{start}}}',
				recipients: [employee],
				variables: [{ name: 'start', type: 'date', required: true }],
			}),
		);
		const result = await runAirSign(
			ctx,
			fromTemplateParams(locator(template.templateId), { start: '2025-02-30' }, [
				savedField('start', 'start (date)', 'dateTime'),
			]),
		);
		expect(result.error?.message).toBe('\'start\' is not a date: "2025-02-30"');
		expect(apiRequests(ctx.sandbox)).toEqual([]);
	});

	it('Get Many: a Created After of 2025-02-30 is refused, not read as 2025-03-02', async () => {
		const result = await runAirSign(ctx, {
			resource: 'session',
			operation: 'getMany',
			returnAll: false,
			limit: 5,
			filters: { createdAfter: '2025-02-30T10:00:00Z' },
		});
		expect(result.error?.message).toBe(
			'\'Created After\' is not a valid date: "2025-02-30T10:00:00Z"',
		);
		expect(apiRequests(ctx.sandbox)).toEqual([]);
	});

	it('Create Session (Block Documents): a recipient without a key or a block without a type says so without "undefined"', async () => {
		const base = { resource: 'session', operation: 'create', documentMode: 'json', name: 'S' };
		const doc = {
			format: 'blocks',
			title: 'T',
			blocks: [{ type: 'signatureBlock', recipient: 'a', label: 'A' }],
		};
		const noKey = await runAirSign(ctx, {
			...base,
			documents: JSON.stringify(doc),
			recipientsJson: JSON.stringify([{ name: 'Ann', email: 'ann@example.com' }]),
		});
		expect(noKey.error?.message).toBe(
			'\'Recipients (JSON)\' [0]: "key" must be letters, digits, "_" or "-", not nothing',
		);
		const noType = await runAirSign(ctx, {
			...base,
			documents: JSON.stringify({ ...doc, blocks: [{ text: 'x' }, ...doc.blocks] }),
			recipientsJson: JSON.stringify([{ key: 'a', name: 'Ann', email: 'ann@example.com' }]),
		});
		expect(noType.error?.message).toBe(
			'\'Documents\' [0] block 0: "type" must be heading, paragraph, spacer, pageBreak or signatureBlock, not nothing',
		);
		expect(apiRequests(ctx.sandbox)).toEqual([]);
	});
});

describe('fuzz findings: answers', () => {
	it.each([
		['a list of numbers', [0]],
		['null entries', [null]],
		['no list at all', undefined],
	])(
		'Template Get Many: templates as %s is an unreadable answer, not items that are not objects',
		async (_label, templates) => {
			recordSleeps(); // the read's back-off, without its real waits
			ctx.sandbox.createTemplate({ name: 'Offer', status: 'active' });
			ctx.sandbox.injectFault({
				kind: 'mangle',
				path: '/api/v1/Templates',
				count: 3,
				answer: {
					edits: [
						templates === undefined
							? { path: ['templates'], delete: true }
							: { path: ['templates'], value: templates },
					],
				},
			});
			const result = await runAirSign(ctx, {
				resource: 'template',
				operation: 'getMany',
				returnAll: true,
			});
			expect(result.error?.message).toBe('AirSign answered HTTP 200 with a body that is not JSON');
			expect(result.items).toEqual([]);
		},
	);
});

describe('fuzz findings: dates out of ISO 8601', () => {
	it.each([
		['a list holding a number', '={{ [-1723900101] }}'],
		['epoch milliseconds past the year 9999', '={{ 8.64e15 }}'],
	])(
		'Get Many: Updated Before as %s is refused, not sent as a year AirSign cannot read',
		async (_label, value) => {
			const result = await runAirSign(ctx, {
				resource: 'session',
				operation: 'getMany',
				returnAll: false,
				limit: 5,
				filters: { updatedBefore: value },
			});
			expect(result.error?.message).toMatch(/^'Updated Before' is not a valid date: /);
			expect(apiRequests(ctx.sandbox)).toEqual([]);
		},
	);
});

describe('fuzz findings: variable values of the wrong type', () => {
	it('Create From Template: a text variable given as a list is refused, not sent as ""', async () => {
		const template = ctx.sandbox.createTemplate(
			offerTemplate({
				title: 'Offer for {{{company}}}',
				text: '',
				recipients: [employee],
				variables: [{ name: 'company', type: 'text', required: true }],
			}),
		);
		const result = await runAirSign(
			ctx,
			fromTemplateParams(locator(template.templateId), { company: '={{ [] }}' }, [
				savedField('company', 'company (text)', 'string'),
			]),
		);
		expect(result.error?.message).toBe("'company' must be text, not []");
		expect(apiRequests(ctx.sandbox)).toEqual([]);
	});
});

describe('fuzz findings: template answers with entries that are not objects', () => {
	/** Create From Template with no saved fields, its Get Template answer edited by `edits`. */
	async function createFromMangledTemplate(edits: Array<{ path: string[]; value: unknown }>) {
		const template = ctx.sandbox.createTemplate({
			name: 'Offer',
			status: 'active',
			recipients: [employee],
		});
		ctx.sandbox.injectFault({
			kind: 'mangle',
			path: `/api/v1/Template/${template.templateId}`,
			answer: { edits },
		});
		const result = await runAirSign(ctx, {
			resource: 'session',
			operation: 'createFromTemplate',
			templateId: locator(template.templateId),
			fields: { mappingMode: 'defineBelow', value: {} },
		});
		return { result, templatePath: `/api/v1/Template/${template.templateId}` };
	}

	it('Create From Template: a Get Template answer with a null role does not crash reading its fields', async () => {
		const { result, templatePath } = await createFromMangledTemplate([
			{ path: ['recipients'], value: [null] },
			{ path: ['variables'], value: [null, 3] },
		]);
		expect(result.error?.message ?? '').not.toMatch(/Cannot read properties/);
		expect(result.error?.message).toBe(
			"The template needs 'Recipient 1 Name', 'Recipient 1 Email'",
		);
		expect(apiRequests(ctx.sandbox).map((r) => r.path)).toEqual([templatePath]);
	});

	it('Create From Template: a variable without a name is no field (no "undefined" in a message)', async () => {
		const { result, templatePath } = await createFromMangledTemplate([
			{ path: ['variables'], value: [{}, { name: ' ', type: 'text' }] },
		]);
		// A nameless variable cannot be given a value: AirSign says if the template needs it.
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ name: 'Offer', status: 'draft' });
		expect(apiRequests(ctx.sandbox).map((r) => r.path)).toEqual([
			templatePath,
			'/api/v1/SessionFromTemplate',
		]);
	});
});
