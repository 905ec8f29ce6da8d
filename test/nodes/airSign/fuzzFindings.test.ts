/** Fuzz findings (test/fuzz): plain examples that failed before their fix (docs/reliability.md). */
import { binaryItem, type HarnessInputItem } from '../../harness';

import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	fromTemplateParams,
	getManyParams,
	locator,
	recordSleeps,
	savedField,
	sendParams,
	type TestContext,
	uploadParams,
	useAirSign,
} from './helpers';
import { blockDoc, jsonMode } from './createSessionParams';
import { offerTemplate, type OfferSpec } from './offerTemplate';

const ctx = useAirSign();
const ann = { name: 'Ann', email: 'ann@example.com' };
const employee = { key: 'employee', name: 'Employee', email: 'emp@example.com' };
const FORBIDDEN = /TypeError|undefined|\[object Object\]/;
const activeOffer = () =>
	ctx.sandbox.createTemplate({ name: 'Offer', status: 'active', recipients: [employee] });
const firstFive = (extra: object) => getManyParams({ returnAll: false, limit: 5, ...extra });
/** A template whose only variable is `variable`, required: its locator. */
const oneVariable = (
	title: string,
	text: string,
	variable: NonNullable<OfferSpec['variables']>[number],
) => {
	const variables = [{ ...variable, required: true }];
	const spec = offerTemplate({ title, text, recipients: [employee], variables });
	return locator(ctx.sandbox.createTemplate(spec).templateId);
};
/** Name, the node's parameters (and input), the refusal's message: each before any request. */
type Refusal = [string, (c: TestContext) => INodeParameters, string | RegExp, HarnessInputItem[]?];
const refusals: Refusal[] = [
	[
		'an ID given as an object (an expression of the wrong type) is shown as JSON',
		() => sendParams('={{ $json.id }}'),
		'Session ID {"id":"x"} is not a valid AirSign session ID',
		[{ json: { id: { id: 'x' } } }],
	],
	...[{ a: 1 }, undefined].map(
		(email): Refusal => [
			`an email given as ${JSON.stringify(email)} names the parameter`,
			(c) => ({
				resource: 'session',
				operation: 'sendInvitation',
				sessionId: c.sandbox.createSession({ recipients: [ann], status: 'pending' }).sessionId,
				recipient: 'specific',
				recipientLocator: locator('={{ $json.email }}', 'email'),
			}),
			/^'Recipient' is not an email address/,
			[{ json: { email } }],
		],
	),
	...[{ sortBy: '={{ "status" }}' }, { sortOrder: '={{ "ASC" }}' }].map(
		(sort): Refusal => [
			`Session Get Many: a Sort By or Sort Order AirSign does not know (${JSON.stringify(sort)})`,
			() => firstFive({ sort }),
			/^'Sort (By|Order)' must be (one of completedDate, createdAt, name, updatedAt|asc or desc), not "(status|ASC)"$/,
		],
	),
	[
		'Template Get Many: a Status other than active or draft',
		() => firstFive({ resource: 'template', status: '={{ "archived" }}' }),
		'\'Status\' must be active or draft, not "archived"',
	],
	...['session', 'template'].flatMap((resource) =>
		['={{ $json.nothing }}', '={{ { n: 1 } }}'].map(
			(limit): Refusal => [
				`${resource} Limit given as ${limit} names the parameter`,
				() => getManyParams({ resource, returnAll: false, limit }),
				/^'Limit' must be a whole number of at least 1/,
			],
		),
	),
	[
		'Get Many: a Status filter given as an object is an unknown state, shown as JSON',
		() => firstFive({ filters: { status: '={{ { state: "done" } }}' } }),
		'\'Status\' has an unknown value: {"state":"done"}',
	],
	[
		'Create From Template: a recipient email given as an object is refused as such',
		(c) => {
			const recipients = [{ key: 'employee', name: 'Employee' }];
			const template = c.sandbox.createTemplate({ name: 'Offer', status: 'active', recipients });
			const value = { 'recipient:1:name': 'Jane', 'recipient:1:email': '={{ { at: "x" } }}' };
			const schema = [
				savedField('recipient:1:name', 'Employee Name', 'string'),
				savedField('recipient:1:email', 'Employee Email', 'string'),
			];
			return fromTemplateParams(locator(template.templateId), value, schema);
		},
		'\'Employee Email\' must be text, not {"at":"x"}',
	],
	[
		'Create Session: a Name given as an object is refused, not created as "[object Object]"',
		() => ({
			resource: 'session',
			operation: 'create',
			name: '={{ { first: "Ann" } }}',
			title: 'Agreement',
			recipients: { recipient: [ann] },
		}),
		'\'Name\' must be text, not {"first":"Ann"}',
	],
	[
		'Create Template: a role name given as an object is refused, not stored as "[object Object]"',
		() => ({
			resource: 'template',
			operation: 'create',
			name: 'Offer',
			document: JSON.stringify(blockDoc(['r1'])),
			recipients: { recipient: [{ key: 'r1', name: '={{ { role: "x" } }}' }] },
		}),
		'\'Recipients\' [0]: \'Role Name\' must be text, not {"role":"x"}',
	],
	[
		'Create From Template: a date variable of 2025-02-30 is refused, not sent as 2025-03-02',
		() =>
			fromTemplateParams(
				oneVariable('Offer', 'From {{{start}}}', { name: 'start', type: 'date' }),
				{ start: '2025-02-30' },
				[savedField('start', 'start (date)', 'dateTime')],
			),
		'\'start\' is not a date: "2025-02-30"',
	],
	[
		'Get Many: a Created After of 2025-02-30 is refused, not read as 2025-03-02',
		() => firstFive({ filters: { createdAfter: '2025-02-30T10:00:00Z' } }),
		'\'Created After\' is not a valid date: "2025-02-30T10:00:00Z"',
	],
	[
		'Create Session (Block Documents): a recipient without a key says so without "undefined"',
		() => jsonMode(blockDoc(['a']), [ann]),
		'\'Recipients (JSON)\' [0]: "key" must be letters, digits, "_" or "-", not nothing',
	],
	[
		'Create Session (Block Documents): a block without a type says so without "undefined"',
		() => {
			const document = blockDoc(['a']);
			return jsonMode({ ...document, blocks: [{ text: 'x' }, ...document.blocks] }, [
				{ key: 'a', ...ann },
			]);
		},
		'\'Documents\' [0] block 0: "type" must be heading, paragraph, spacer, pageBreak or signatureBlock, not nothing',
	],
	...['={{ [-1723900101] }}', '={{ 8.64e15 }}'].map(
		(value): Refusal => [
			`Get Many: Updated Before as ${value} is refused, not sent as a year AirSign cannot read`,
			() => firstFive({ filters: { updatedBefore: value } }),
			/^'Updated Before' is not a valid date: /,
		],
	),
	[
		'Create From Template: a text variable given as a list is refused, not sent as ""',
		() =>
			fromTemplateParams(
				oneVariable('Offer for {{{company}}}', '', { name: 'company', type: 'text' }),
				{ company: '={{ [] }}' },
				[savedField('company', 'company (text)', 'string')],
			),
		"'company' must be text, not []",
	],
];

describe('fuzz findings: refused before any request, never "[object Object]" or "undefined"', () => {
	it.each(refusals)('%s', async (_label, params, message, input) => {
		const result = await ctx.refused(params(ctx), message, input ? { input } : {});
		expect(result.error?.message).not.toMatch(FORBIDDEN);
	});
});

describe('fuzz findings: text parameters given as numbers', () => {
	it('Create From Template: a Name given as a number is its text (it was a TypeError)', async () => {
		const templateId = locator(activeOffer().templateId);
		const result = await ctx.ok(fromTemplateParams(templateId, {}, [], { name: '={{ 2025 }}' }));
		expect(result.items[0].json.name).toBe('2025');
	});

	it('Upload: a File Name given as a number is its text (it was a TypeError)', async () => {
		const bytes = Buffer.from('%PDF-1.7\nhello');
		const result = await ctx.ok(uploadParams({ fileName: '={{ 42 }}' }), {
			input: [binaryItem(bytes, { fileName: 'a.pdf', mimeType: 'application/pdf' })],
		});
		expect(result.items[0].json.fileName).toBe('42.pdf');
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
			const edit = templates === undefined ? { delete: true } : { value: templates };
			ctx.sandbox.injectFault({
				kind: 'mangle',
				path: '/api/v1/Templates',
				count: 3,
				answer: { edits: [{ path: ['templates'], ...edit }] },
			});
			const result = await ctx.run(getManyParams({ resource: 'template', returnAll: true }));
			expect(result.error?.message).toBe('AirSign answered HTTP 200 with a body that is not JSON');
			expect(result.items).toEqual([]);
		},
	);

	/** Create From Template with no saved fields, its Get Template answer edited by `edits`. */
	async function createFromMangledTemplate(edits: Array<{ path: string[]; value: unknown }>) {
		const { templateId } = activeOffer();
		const templatePath = `/api/v1/Template/${templateId}`;
		ctx.sandbox.injectFault({ kind: 'mangle', path: templatePath, answer: { edits } });
		const result = await ctx.run(fromTemplateParams(locator(templateId), {}));
		return { result, templatePath };
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
		expect(ctx.apiRequests().map((r) => r.path)).toEqual([templatePath]);
	});

	it('Create From Template: a variable without a name is no field (no "undefined" in a message)', async () => {
		const { result, templatePath } = await createFromMangledTemplate([
			{ path: ['variables'], value: [{}, { name: ' ', type: 'text' }] },
		]);
		// A nameless variable cannot be given a value: AirSign says if the template needs it.
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ name: 'Offer', status: 'draft' });
		expect(ctx.apiRequests().map((r) => r.path)).toEqual([
			templatePath,
			'/api/v1/SessionFromTemplate',
		]);
	});
});
