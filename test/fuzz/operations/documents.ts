/**
 * The fuzzed operations (test/fuzz/inputCases.ts): Create Session (Title and Text, Block
 * Documents), Create Template, Template Get Many and Get, and Create From Template.
 */
import fc from 'fast-check';
import type { INodeParameters } from 'n8n-workflow';
import { COMPLETION_EMAIL_RECIPIENTS, LIMITS } from '../../../nodes/AirSign/helpers/constants';
import { templateFields } from '../../../nodes/AirSign/actions/session/templateFields';
import { DEMO_SENDER_PROFILE_ID, type Sandbox } from '../../../sandbox';
import { offerTemplate, type OfferSpec } from '../../nodes/airSign/offerTemplate';
import { type OperationUnderTest } from '../inputCases';
import {
	anyText,
	badName,
	email,
	name,
	notEmail,
	notUuid,
	orBlank,
	overLimit,
	shortText,
	uuid,
} from '../values';
import {
	checkSessionNames,
	expiryDaysSlot,
	idSlot,
	isoDate,
	limitSlot,
	maxWaitSlot,
	reminderSlot,
	slot,
} from './sessions';

/** The "Name" of Create Session and Create Template: required, 1 to LIMITS.name characters. */
const nameSlot = slot('name', /'Name'/, 'name', {
	valid: name(),
	invalid: badName(),
});

export const createSimple: OperationUnderTest = {
	name: 'Session Create (Title and Text)',
	params: {
		resource: 'session',
		operation: 'create',
		documentMode: 'simple',
		recipients: { recipient: [{}] },
	},
	slots: [
		nameSlot,
		slot('title', /'Title'/, 'title', {
			valid: shortText(LIMITS.title),
			invalid: fc.oneof(fc.constantFrom('', '   '), overLimit(LIMITS.title)),
		}),
		slot('body', /'Body'/, 'body', { valid: anyText(300) }),
		slot('recipientName', /'Recipients' \[0\]/, 'recipients.recipient.0.name', {
			valid: shortText(40),
			invalid: fc.constantFrom('', '  ', null),
		}),
		slot('recipientEmail', /'Recipients' \[0\]/, 'recipients.recipient.0.email', {
			valid: email(),
			invalid: notEmail(),
		}),
		slot('signatureLabel', /'Recipients' \[0\]/, 'recipients.recipient.0.label', {
			valid: orBlank(shortText(LIMITS.label)),
			invalid: overLimit(LIMITS.label),
		}),
		slot('subtitle', /'Subtitle'/, 'documentOptions.subtitle', {
			valid: orBlank(shortText(LIMITS.subtitle)),
			invalid: overLimit(LIMITS.subtitle, 400),
		}),
		slot('attachments', /Attach Uploaded PDFs/, 'attachments', {
			valid: fc.constantFrom('', ' '),
			invalid: fc.oneof(
				fc.constantFrom(
					'not-a-file',
					'{"fileId": "x"}',
					'[1, 2]',
					'{broken',
					'[{"type":"blocks","fileId":"3f2b8a1e-7c4d-4e8f-9a0b-1c2d3e4f5a6b"}]',
				),
				fc.array(
					notUuid().filter((t) => t.trim() !== '' && !/[\s,]/.test(t) && !/^[[{]/.test(t.trim())),
					{ minLength: 1, maxLength: 2 },
				),
			),
		}),
		expiryDaysSlot(false),
		reminderSlot,
	],
	checkOutput: checkSessionNames,
};

const blockDoc = (recipientKeys: string[], title: fc.Arbitrary<string> = shortText(LIMITS.title)) =>
	fc
		.record({
			title,
			paragraphs: fc.array(shortText(80), { maxLength: 3 }),
			fontSize: fc.option(fc.integer({ min: LIMITS.fontSize.min, max: LIMITS.fontSize.max }), {
				nil: undefined,
			}),
		})
		.map(({ title, paragraphs, fontSize }) => ({
			format: 'blocks',
			title,
			blocks: [
				...paragraphs.map((text) => ({
					type: 'paragraph',
					text,
					...(fontSize !== undefined && { fontSize }),
				})),
				...recipientKeys.map((key) => ({
					type: 'signatureBlock',
					recipient: key,
					label: `Sign ${key}`,
				})),
			],
		}));

/** One documented rule of the block format broken (docs/api.md#block-documents). */
const brokenDoc = (recipientKeys: string[]) => {
	type Block = Record<string, unknown>;
	const doc = blockDoc(recipientKeys);
	const blocks = (change: (blocks: Block[]) => Block[]) =>
		doc.map((d) => ({ ...d, blocks: change(d.blocks) }));
	const isSignature = (block: Block) => block.type === 'signatureBlock';
	return fc.oneof(
		doc.map(({ format: _format, ...d }) => d),
		doc.map((d) => ({ ...d, title: '' })),
		overLimit(LIMITS.title).chain((title) => blockDoc(recipientKeys, fc.constant(title))),
		blocks(() => []),
		blocks((b) => [...b, { type: 'image', src: 'x' }]),
		blocks((b) => [{ type: 'paragraph', text: 'x', fontSize: 99 }, ...b]),
		blocks((b) => [{ type: 'spacer', height: 0 }, ...b]),
		blocks((b) => [...b, { type: 'signatureBlock', recipient: 'nobody', label: 'x' }]),
		blocks((b) => [...b, ...b.filter(isSignature)]),
		blocks((b) => b.filter((block) => !isSignature(block))),
		blocks((b) => [{ type: 'heading', text: 'h'.repeat(LIMITS.heading + 1) }, ...b]),
		fc.constantFrom('{', '', 'null', '42'),
	);
};

/** A value as JSON text or as the object itself (both ways a builder gives JSON). */
const asTextOrObject = <T>(arbitrary: fc.Arbitrary<T>) =>
	fc
		.tuple(arbitrary, fc.boolean())
		.map(([value, text]) => (text && typeof value !== 'string' ? JSON.stringify(value) : value));

const blockRecipients = [{ key: 'a', name: 'Ann', email: 'ann@example.com' }];

export const createJson: OperationUnderTest = {
	name: 'Session Create (Block Documents)',
	params: { resource: 'session', operation: 'create', documentMode: 'json', name: 'Block session' },
	slots: [
		slot('documents', /'Documents'|Recipient "a"/, 'documents', {
			valid: asTextOrObject(
				fc.oneof(
					blockDoc(['a']),
					blockDoc(['a']).map((doc) => [doc]),
				),
			),
			invalid: asTextOrObject(brokenDoc(['a'])),
		}),
		slot('recipientsJson', /'Recipients \(JSON\)'|Recipient "/, 'recipientsJson', {
			valid: asTextOrObject(
				fc.constantFrom(blockRecipients, [{ ...blockRecipients[0], signingOrder: 1 }]),
			),
			invalid: asTextOrObject(
				fc.constantFrom(
					[],
					[{ ...blockRecipients[0], key: 'a b' }],
					[blockRecipients[0], blockRecipients[0]],
					[{ ...blockRecipients[0], email: 'ann' }],
					[{ ...blockRecipients[0], name: '' }],
					[{ ...blockRecipients[0], signingOrder: -1 }],
					[{ ...blockRecipients[0], signingOrder: 1.5 }],
					{ ...blockRecipients[0] },
				),
			),
		}),
	],
};

export const createTemplate: OperationUnderTest = {
	name: 'Template Create',
	params: {
		resource: 'template',
		operation: 'create',
		recipients: { recipient: [{ key: 'emp' }] },
		variables: { variable: [{ name: 'company' }] },
	},
	slots: [
		nameSlot,
		slot('document', /'Document'|Recipient "emp"|token/, 'document', {
			valid: asTextOrObject(
				blockDoc(['emp']).map((doc) => ({
					...doc,
					blocks: [{ type: 'paragraph', text: 'For {{{company}}}' }, ...doc.blocks],
				})),
			),
			invalid: asTextOrObject(
				fc.oneof(
					brokenDoc(['emp']),
					blockDoc(['emp']).map((doc) => ({
						...doc,
						blocks: [{ type: 'paragraph', text: 'For {{{undeclared}}}' }, ...doc.blocks],
					})),
				),
			),
		}),
		slot('roleName', /'Recipients' \[0\]/, 'recipients.recipient.0.name', {
			valid: orBlank(shortText(30)),
		}),
		slot('roleEmail', /'Recipients' \[0\]|token/, 'recipients.recipient.0.email', {
			valid: orBlank(email(), fc.constant('{{{company}}}')),
			invalid: fc.constantFrom('ann', 'ann@', 'a b@x.com', '{{{nobody}}}'),
		}),
		slot('variableType', /'Variables' \[0\]/, 'variables.variable.0.type', {
			valid: fc.constantFrom('text', 'date', 'number'),
			invalid: fc.constantFrom('string', 'Text', 'image', ''),
		}),
		slot('variableDefault', /'Variables' \[0\]/, 'variables.variable.0.defaultValue', {
			valid: fc.constant(''),
		}),
		expiryDaysSlot(false),
	],
	scopes: ['write:templates'],
};

export const getManyTemplates: OperationUnderTest = {
	name: 'Template Get Many',
	params: { resource: 'template', operation: 'getMany', returnAll: false },
	slots: [
		limitSlot,
		slot('status', /Status/, 'status', {
			valid: fc.constantFrom('active', 'draft'),
			invalid: fc.constantFrom('Active', 'archived', 'all', ''),
		}),
		maxWaitSlot,
	],
};

const TEMPLATE_VARIABLES: OfferSpec['variables'] = [
	{ name: 'company', type: 'text', required: true },
	{ name: 'amount', type: 'number', required: false },
	{ name: 'start', type: 'date', required: false },
];

function activeTemplates(sandbox: Sandbox, n: number): string[] {
	return Array.from(
		{ length: n },
		(_, i) =>
			sandbox.createTemplate(
				offerTemplate({
					name: `Template ${i}`,
					title: 'Contract {{{company}}}',
					text: 'Pay {{{amount}}} from {{{start}}}',
					recipients: [{ key: 'employee', name: 'Employee' }],
					variables: TEMPLATE_VARIABLES,
				}),
			).templateId,
	);
}

export const getTemplateOperations: OperationUnderTest[] = (['id', 'url', 'list'] as const).map(
	(mode) => ({
		name: `Template Get (${mode})`,
		params: { resource: 'template', operation: 'get' },
		slots: [idSlot('templateId', 'template', mode)],
		setup: (sandbox, n) => ({ template: activeTemplates(sandbox, n) }),
	}),
);

const SENDER = DEMO_SENDER_PROFILE_ID;
/** A field the template requires: text, not blank. */
const requiredText = { valid: shortText(40), invalid: fc.constantFrom('', null) };

export const createFromTemplate: OperationUnderTest = {
	name: 'Session Create From Template',
	params: {
		resource: 'session',
		operation: 'createFromTemplate',
		// What the editor saves: the fields loaded for the template (all fixtures have this shape).
		fields: {
			mappingMode: 'defineBelow',
			value: {},
			schema: templateFields({
				recipients: [{ name: 'Employee', email: '' }],
				variables: TEMPLATE_VARIABLES,
			}) as unknown as INodeParameters[],
		},
	},
	slots: [
		idSlot('templateId', 'template', 'id'),
		slot('name', /Name/, 'name', {
			valid: orBlank(name()),
			invalid: overLimit(LIMITS.name, 300),
		}),
		slot('employeeName', /Employee Name/, 'fields.value.recipient:1:name', requiredText),
		slot('employeeEmail', /Employee Email/, 'fields.value.recipient:1:email', {
			valid: email(),
			invalid: fc.oneof(
				notEmail().filter((v) => v !== '' && v !== null),
				fc.constantFrom('', null),
			),
		}),
		slot('company', /company/, 'fields.value.company', requiredText),
		slot('amount', /amount/, 'fields.value.amount', {
			valid: orBlank(
				fc.integer(),
				fc.double({ noNaN: true, noDefaultInfinity: true }),
				fc.integer().map(String),
			),
			invalid: fc.constantFrom('ten', '1,5', '12abc', 'Infinity', '--1'),
		}),
		slot('start', /start/, 'fields.value.start', {
			valid: orBlank(
				isoDate(),
				isoDate().map((d) => d.slice(0, 10)),
			),
			invalid: fc.constantFrom('tomorrow-ish', '2025-02-30', '31.31.2025', 'date'),
		}),
		expiryDaysSlot(true),
		reminderSlot,
		slot('senderProfileId', /Sender Profile ID/, 'options.senderProfileId', {
			valid: fc.constantFrom('', SENDER, ` ${SENDER} `),
			invalid: notUuid().filter((t) => t.trim() !== ''),
		}),
		slot(
			'completionEmailRecipients',
			/Completion Email Recipients/,
			'options.completionEmailRecipients',
			{
				valid: fc.constantFrom(...COMPLETION_EMAIL_RECIPIENTS),
				invalid: fc.constantFrom('everyone', 'All', 'sender', ''),
			},
		),
		slot('tagIds', /Tag IDs/, 'options.tagIds', {
			valid: orBlank(
				fc.array(uuid(), { maxLength: 3 }),
				fc.array(uuid(), { maxLength: 3 }).map((ids) => ids.join(', ')),
			),
			invalid: fc.oneof(
				fc.array(
					notUuid().filter((t) => t.trim() !== '' && !t.includes(',')),
					{ minLength: 1, maxLength: 2 },
				),
			),
		}),
	],
	setup: (sandbox, n) => ({ template: activeTemplates(sandbox, n) }),
	checkOutput: checkSessionNames,
};
