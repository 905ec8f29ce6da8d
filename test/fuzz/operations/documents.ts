/** The fuzzed operations (test/fuzz/inputCases.ts): Create Session (Title and Text, Block Documents) and Create Template. */
import fc from 'fast-check';
import { LIMITS } from '../../../nodes/AirSign/helpers/constants';
import { type OperationUnderTest } from '../inputCases';
import {
	anyText,
	badName,
	email,
	name,
	notEmail,
	notUuid,
	shortText,
	textOfLength,
} from '../values';
import { checkSessionNames, expiryDaysSlot, reminderSlot, slot } from './common';

/** The "Name" of Create Session and Create Template: required, 1 to LIMITS.name characters. */
const nameSlot = slot('name', /'Name'/, 'name', {
	valid: name(),
	invalid: badName(),
});

const overLimit = (limit: number, max = limit * 3) =>
	fc.integer({ min: limit + 1, max }).chain((n) => textOfLength(n));

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
			valid: fc.oneof(fc.constant(''), shortText(LIMITS.label)),
			invalid: overLimit(LIMITS.label),
		}),
		slot('subtitle', /'Subtitle'/, 'documentOptions.subtitle', {
			valid: fc.oneof(fc.constant(''), shortText(LIMITS.subtitle)),
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
			valid: fc.oneof(fc.constant(''), shortText(30)),
		}),
		slot('roleEmail', /'Recipients' \[0\]|token/, 'recipients.recipient.0.email', {
			valid: fc.oneof(fc.constant(''), email(), fc.constant('{{{company}}}')),
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
