/**
 * Regression tests for what the fuzzing (test/fuzz) found: each a plain example that failed
 * before its fix (dates, answers, variable values; the inputs are in fuzzFindings.test.ts).
 * docs/reliability.md lists them.
 */
import '../../harness';

import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	apiRequests,
	expectRefused,
	fromTemplateParams,
	getManyParams,
	savedField,
	locator,
	recordSleeps,
	runAirSign,
	useAirSign,
} from './helpers';
import { offerTemplate, type OfferSpec } from './offerTemplate';

type TemplateVariable = NonNullable<OfferSpec['variables']>[number];

const ctx = useAirSign();
const employee = { key: 'employee', name: 'Employee', email: 'emp@example.com' };
const firstFive = (filters: INodeParameters) =>
	getManyParams({ returnAll: false, limit: 5, filters });
/** A template whose only variable is `variable`, required: its locator. */
const oneVariable = (title: string, text: string, variable: TemplateVariable) => {
	const variables = [{ ...variable, required: true }];
	const spec = offerTemplate({ title, text, recipients: [employee], variables });
	return locator(ctx.sandbox.createTemplate(spec).templateId);
};

describe('fuzz findings: days that do not exist', () => {
	it('Create From Template: a date variable of 2025-02-30 is refused, not sent as 2025-03-02', async () => {
		const params = fromTemplateParams(
			oneVariable('Offer', 'From {{{start}}}', { name: 'start', type: 'date' }),
			{ start: '2025-02-30' },
			[savedField('start', 'start (date)', 'dateTime')],
		);
		await expectRefused(ctx, params, '\'start\' is not a date: "2025-02-30"');
	});

	it('Get Many: a Created After of 2025-02-30 is refused, not read as 2025-03-02', async () => {
		await expectRefused(
			ctx,
			firstFive({ createdAfter: '2025-02-30T10:00:00Z' }),
			'\'Created After\' is not a valid date: "2025-02-30T10:00:00Z"',
		);
	});

	it('Create Session (Block Documents): a recipient without a key or a block without a type says so without "undefined"', async () => {
		const base = { resource: 'session', operation: 'create', documentMode: 'json', name: 'S' };
		const doc = {
			format: 'blocks',
			title: 'T',
			blocks: [{ type: 'signatureBlock', recipient: 'a', label: 'A' }],
		};
		const ann = { name: 'Ann', email: 'ann@example.com' };
		await expectRefused(
			ctx,
			{ ...base, documents: JSON.stringify(doc), recipientsJson: JSON.stringify([ann]) },
			'\'Recipients (JSON)\' [0]: "key" must be letters, digits, "_" or "-", not nothing',
		);
		await expectRefused(
			ctx,
			{
				...base,
				documents: JSON.stringify({ ...doc, blocks: [{ text: 'x' }, ...doc.blocks] }),
				recipientsJson: JSON.stringify([{ key: 'a', ...ann }]),
			},
			'\'Documents\' [0] block 0: "type" must be heading, paragraph, spacer, pageBreak or signatureBlock, not nothing',
		);
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
			const result = await runAirSign(
				ctx,
				getManyParams({ resource: 'template', returnAll: true }),
			);
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
			await expectRefused(
				ctx,
				firstFive({ updatedBefore: value }),
				/^'Updated Before' is not a valid date: /,
			);
		},
	);
});

describe('fuzz findings: variable values of the wrong type', () => {
	it('Create From Template: a text variable given as a list is refused, not sent as ""', async () => {
		const params = fromTemplateParams(
			oneVariable('Offer for {{{company}}}', '', { name: 'company', type: 'text' }),
			{ company: '={{ [] }}' },
			[savedField('company', 'company (text)', 'string')],
		);
		await expectRefused(ctx, params, "'company' must be text, not []");
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
