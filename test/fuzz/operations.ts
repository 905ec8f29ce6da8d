/**
 * Every operation of the AirSign node and every parameter it reads, as the input properties fuzz
 * them (test/fuzz/inputCases.ts): where each sits, what names it, and its valid, rule-breaking and
 * junk values. The rules are the specs' (LIMITS and friends in helpers/constants.ts).
 */
import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { expect } from 'vitest';

import {
	COMPLETION_EMAIL_RECIPIENTS,
	LIMITS,
	MAX_UPLOAD_BYTES,
	REMINDER_FREQUENCIES,
	SESSION_STATUSES,
} from '../../nodes/AirSign/helpers/constants';
import { templateFields } from '../../nodes/AirSign/actions/session/templateFields';
import { DEMO_SENDER_PROFILE_ID, type Sandbox } from '../../sandbox';
import { binaryInput } from '../harness';
import { ref, type OperationUnderTest, type Slot } from './inputCases';
import {
	anyText,
	badFileName,
	badName,
	email,
	fileName,
	junk,
	name,
	notEmail,
	notText,
	notUuid,
	shortText,
	textOfLength,
	uuid,
} from './values';

/** Sets `params[a][b]...` = value, creating objects on the way. */
const at =
	(...path: string[]) =>
	(params: INodeParameters, value: string) => {
		let node = params as IDataObject;
		for (const step of path.slice(0, -1)) node = (node[step] ??= {}) as IDataObject;
		node[path[path.length - 1]] = value;
	};
/** A resource locator parameter whose value comes from the item. */
const locatorAt =
	(name: string, mode: 'id' | 'url' | 'list') => (params: INodeParameters, value: string) => {
		params[name] = { __rl: true, mode, value };
	};

const recipients = [{ name: 'Ann', email: 'ann@example.com' }];
const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

function drafts(sandbox: Sandbox, n: number): string[] {
	return Array.from(
		{ length: n },
		(_, i) => sandbox.createSession({ name: `Draft ${i}`, recipients }).sessionId,
	);
}

// ---- shared slots ----------------------------------------------------------------------------

const sessionIdSlot = (fixture: string, mode: 'id' | 'url' | 'list' | 'plain'): Slot => ({
	key: 'sessionId',
	label: /session ID|URL/i,
	place: mode === 'plain' ? at('sessionId') : locatorAt('sessionId', mode),
	valid: mode === 'url' ? ref(fixture, ['url']) : ref(fixture, ['plain', 'upper', 'spaced']),
	// By URL: any text holding exactly one UUID is read as a link to it (AirSign's links are not
	// documented), so only text without one, or with several, breaks the rule.
	invalid: fc.oneof(
		mode === 'url' ? notUuid().filter((text) => !UUID_ANYWHERE.test(text)) : notUuid(),
		mode === 'url'
			? fc.constantFrom('https://app.airsign.example/app/sessions/', 'no link at all')
			: notUuid(),
		fc
			.tuple(uuid(), uuid())
			.map(([a, b]) => (mode === 'url' ? `https://x.example/${a}/${b}` : `${a},${b}`)),
	),
	junk: fc.oneof(junk(), notText(), uuid()),
});

const expiryDaysSlot = (fromTemplate: boolean): Slot => ({
	key: 'expiryDays',
	label: /Expiry Days/,
	place: at('options', 'expiryDays'),
	valid: fc.integer({ min: fromTemplate ? 0 : LIMITS.expiryDays.min, max: LIMITS.expiryDays.max }),
	invalid: fc.oneof(
		fc.integer({ min: LIMITS.expiryDays.max + 1, max: 100_000 }),
		fc.integer({ min: -1000, max: fromTemplate ? -1 : 0 }),
		fc.double({ min: 1.01, max: 729.99, noInteger: true }),
	),
	junk: junk(),
});

const reminderSlot: Slot = {
	key: 'reminderFrequency',
	label: /Reminder Frequency/,
	place: at('options', 'reminderFrequency'),
	valid: fc.constantFrom(...REMINDER_FREQUENCIES),
	invalid: fc.oneof(
		anyText().filter((t) => !(REMINDER_FREQUENCIES as readonly string[]).includes(t)),
		fc.constantFrom('Daily', 'yearly', ' weekly'),
	),
	junk: junk(),
};

const maxWaitSlot: Slot = {
	key: 'maxRateLimitWait',
	label: /Max Wait/,
	place: at('options', 'maxRateLimitWait'),
	valid: fc.integer({ min: 0, max: 900 }),
	junk: junk(),
};

/** Get Many's Limit, sessions and templates alike. */
const limitSlot: Slot = {
	key: 'limit',
	label: /Limit/,
	place: at('limit'),
	valid: fc.integer({ min: 1, max: 500 }),
	invalid: fc.oneof(
		fc.integer({ min: -100, max: 0 }),
		fc.double({ min: 0.1, max: 99.9, noInteger: true }),
	),
	junk: junk(),
};

// ---- operations ------------------------------------------------------------------------------

const LOCATOR_MODES = ['id', 'url', 'list', 'plain'] as const;

export const sendOperations: OperationUnderTest[] = LOCATOR_MODES.map((mode) => ({
	name: `Session Send (${mode})`,
	params: { resource: 'session', operation: 'send' },
	slots: [sessionIdSlot('draft', mode)],
	cost: 1,
	setup: (sandbox, n) => ({ draft: drafts(sandbox, n) }),
}));

export const getSessionOperations: OperationUnderTest[] = LOCATOR_MODES.map((mode) => ({
	name: `Session Get (${mode})`,
	params: { resource: 'session', operation: 'get' },
	slots: [sessionIdSlot('draft', mode), maxWaitSlot],
	cost: 1,
	setup: (sandbox, n) => ({ draft: drafts(sandbox, n) }),
}));

export const sendInvitation: OperationUnderTest = {
	name: 'Session Send Invitation',
	params: { resource: 'session', operation: 'sendInvitation', recipient: 'email' },
	slots: [
		sessionIdSlot('pending', 'id'),
		{
			key: 'recipientEmail',
			label: /Recipient Email/,
			place: at('recipientEmail'),
			valid: fc.constantFrom('ann@example.com', ' ann@example.com ', 'ANN@example.com'),
			invalid: notEmail(),
			junk: fc.oneof(junk(), email()),
		},
	],
	cost: 1,
	setup: (sandbox, n) => {
		const pending = Array.from({ length: n }, (_, i) => {
			const session = sandbox.createSession({
				name: `Pending ${i}`,
				recipients,
				status: 'pending',
			});
			return session.sessionId;
		});
		return { pending };
	},
};

export const sendInvitationById: OperationUnderTest = {
	name: 'Session Send Invitation (by recipient ID)',
	params: { resource: 'session', operation: 'sendInvitation', recipient: 'id' },
	slots: [
		sessionIdSlot('pending', 'id'),
		{
			key: 'recipientId',
			label: /Recipient ID/,
			place: at('recipientId'),
			valid: ref('recipient', ['plain', 'upper', 'spaced']),
			invalid: notUuid(),
			junk: fc.oneof(junk(), uuid()),
		},
	],
	cost: 1,
	setup: (sandbox, n) => {
		const sessions = Array.from({ length: n }, (_, i) =>
			sandbox.createSession({ name: `Pending ${i}`, recipients, status: 'pending' }),
		);
		return {
			pending: sessions.map((s) => s.sessionId),
			recipient: sessions.map((s) => s.recipients[0].recipientId),
		};
	},
};

const isoDate = () =>
	fc
		.date({
			min: new Date('2000-01-01T00:00:00Z'),
			max: new Date('2090-01-01T00:00:00Z'),
			noInvalidDate: true,
		})
		.map((d) => d.toISOString());

export const getManySessions: OperationUnderTest = {
	name: 'Session Get Many',
	params: { resource: 'session', operation: 'getMany', returnAll: false },
	slots: [
		limitSlot,
		{
			key: 'createdAfter',
			label: /Created After/,
			place: at('filters', 'createdAfter'),
			valid: fc.oneof(fc.constant(''), fc.constant('2001-01-01T00:00:00Z')),
			invalid: fc.constantFrom('yesterday-ish', 'not a date', '2025-13-45', '31/31/2025'),
			junk: junk(),
		},
		{
			key: 'updatedBefore',
			label: /Updated Before/,
			place: at('filters', 'updatedBefore'),
			valid: fc.oneof(
				fc.constant(''),
				isoDate().filter((d) => d > '2001'),
			),
			invalid: fc.constantFrom('soon', '2025-02-30T99:00', 'T12:00'),
			junk: junk(),
		},
		{
			key: 'status',
			label: /Status/,
			place: at('filters', 'status'),
			valid: fc.subarray([...SESSION_STATUSES]),
			invalid: fc.oneof(
				fc.constantFrom(['done'], ['Draft'], 'pending,unknown', ['in progress']),
				fc.array(
					shortText(10).filter((t) => !(SESSION_STATUSES as readonly string[]).includes(t.trim())),
					{
						minLength: 1,
						maxLength: 2,
					},
				),
			),
			junk: junk(),
		},
		{
			key: 'recipientEmail',
			label: /Recipient Email/,
			place: at('filters', 'recipientEmail'),
			valid: fc.oneof(fc.constant(''), email()),
			invalid: fc.constantFrom('ann', 'ann@', '@x.com', 'a b@x.com'),
			junk: junk(),
		},
		{
			key: 'nameFilter',
			label: /Name/,
			place: at('filters', 'name'),
			valid: fc.oneof(fc.constant(''), anyText(30)),
			junk: junk(),
		},
		{
			key: 'sortBy',
			label: /Sort By/,
			place: at('options', 'sortBy'),
			valid: fc.constantFrom('completedDate', 'createdAt', 'name', 'updatedAt'),
			invalid: fc.constantFrom('status', 'UpdatedAt', 'random', 'name desc'),
			// (blank means AirSign's default; spaces around a value are trimmed)
			junk: junk(),
		},
		{
			key: 'sortOrder',
			label: /Sort Order/,
			place: at('options', 'sortOrder'),
			valid: fc.constantFrom('asc', 'desc'),
			invalid: fc.constantFrom('ASC', 'up', 'descending', 'asc,desc'),
			junk: junk(),
		},
	],
	// No sessions exist: one List Sessions request per item.
	cost: 1,
};

export const getManyTemplates: OperationUnderTest = {
	name: 'Template Get Many',
	params: { resource: 'template', operation: 'getMany', returnAll: false },
	slots: [
		limitSlot,
		{
			key: 'status',
			label: /Status/,
			place: at('status'),
			valid: fc.constantFrom('active', 'draft'),
			invalid: fc.constantFrom('Active', 'archived', 'all', ''),
			junk: junk(),
		},
		maxWaitSlot,
	],
	cost: 1,
};

const TEMPLATE_VARIABLES = [
	{ name: 'company', type: 'text', required: true },
	{ name: 'amount', type: 'number', required: false },
	{ name: 'start', type: 'date', required: false },
];

function activeTemplates(sandbox: Sandbox, n: number): string[] {
	return Array.from(
		{ length: n },
		(_, i) =>
			sandbox.createTemplate({
				name: `Template ${i}`,
				status: 'active',
				recipients: [{ key: 'employee', name: 'Employee' }],
				variables: TEMPLATE_VARIABLES,
				document: {
					format: 'blocks',
					title: 'Contract {{{company}}}',
					blocks: [
						{ type: 'paragraph', text: 'Pay {{{amount}}} from {{{start}}}' },
						{ type: 'signatureBlock', recipient: 'employee', label: 'Employee' },
					],
				},
			} as never).templateId,
	);
}

const templateIdSlot = (mode: 'id' | 'url' | 'list'): Slot => ({
	key: 'templateId',
	label: /template ID|URL/i,
	place: locatorAt('templateId', mode),
	valid: mode === 'url' ? ref('template', ['url']) : ref('template', ['plain', 'upper', 'spaced']),
	invalid: fc.oneof(
		mode === 'url' ? notUuid().filter((text) => !UUID_ANYWHERE.test(text)) : notUuid(),
		fc.tuple(uuid(), uuid()).map(([a, b]) => `https://x.example/${a}/${b}`),
	),
	junk: fc.oneof(junk(), notText()),
});

export const getTemplateOperations: OperationUnderTest[] = (['id', 'url', 'list'] as const).map(
	(mode) => ({
		name: `Template Get (${mode})`,
		params: { resource: 'template', operation: 'get' },
		slots: [templateIdSlot(mode)],
		cost: 1,
		setup: (sandbox, n) => ({ template: activeTemplates(sandbox, n) }),
	}),
);

const SENDER = DEMO_SENDER_PROFILE_ID;

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
		templateIdSlot('id'),
		{
			key: 'name',
			label: /Name/,
			place: at('name'),
			valid: fc.oneof(fc.constant(''), name()),
			invalid: fc.integer({ min: LIMITS.name + 1, max: 300 }).chain((n) => textOfLength(n)),
			junk: junk(),
		},
		{
			key: 'employeeName',
			label: /Employee Name/,
			place: at('fields', 'value', 'recipient:1:name'),
			valid: shortText(40),
			invalid: fc.constantFrom('', null),
			junk: junk(),
		},
		{
			key: 'employeeEmail',
			label: /Employee Email/,
			place: at('fields', 'value', 'recipient:1:email'),
			valid: email(),
			invalid: fc.oneof(
				notEmail().filter((v) => v !== '' && v !== null),
				fc.constantFrom('', null),
			),
			junk: junk(),
		},
		{
			key: 'company',
			label: /company/,
			place: at('fields', 'value', 'company'),
			valid: shortText(40),
			invalid: fc.constantFrom('', null),
			junk: junk(),
		},
		{
			key: 'amount',
			label: /amount/,
			place: at('fields', 'value', 'amount'),
			valid: fc.oneof(
				fc.constant(''),
				fc.integer(),
				fc.double({ noNaN: true, noDefaultInfinity: true }),
				fc.integer().map(String),
			),
			invalid: fc.constantFrom('ten', '1,5', '12abc', 'Infinity', '--1'),
			junk: junk(),
		},
		{
			key: 'start',
			label: /start/,
			place: at('fields', 'value', 'start'),
			valid: fc.oneof(
				fc.constant(''),
				isoDate(),
				isoDate().map((d) => d.slice(0, 10)),
			),
			invalid: fc.constantFrom('tomorrow-ish', '2025-02-30', '31.31.2025', 'date'),
			junk: junk(),
		},
		expiryDaysSlot(true),
		reminderSlot,
		{
			key: 'senderProfileId',
			label: /Sender Profile ID/,
			place: at('options', 'senderProfileId'),
			valid: fc.constantFrom('', SENDER, ` ${SENDER} `),
			invalid: notUuid().filter((t) => t.trim() !== ''),
			junk: junk(),
		},
		{
			key: 'completionEmailRecipients',
			label: /Completion Email Recipients/,
			place: at('options', 'completionEmailRecipients'),
			valid: fc.constantFrom(...COMPLETION_EMAIL_RECIPIENTS),
			invalid: fc.constantFrom('everyone', 'All', 'sender', ''),
			junk: junk(),
		},
		{
			key: 'tagIds',
			label: /Tag IDs/,
			place: at('options', 'tagIds'),
			valid: fc.oneof(
				fc.constant(''),
				fc.array(uuid(), { maxLength: 3 }),
				fc.array(uuid(), { maxLength: 3 }).map((ids) => ids.join(', ')),
			),
			invalid: fc.oneof(
				fc.array(
					notUuid().filter((t) => t.trim() !== '' && !t.includes(',')),
					{ minLength: 1, maxLength: 2 },
				),
			),
			junk: junk(),
		},
	],
	cost: 1,
	setup: (sandbox, n) => ({ template: activeTemplates(sandbox, n) }),
	checkOutput: (output) => {
		for (const session of output) {
			expect(String(session.name)).not.toContain('[object Object]');
		}
	},
};

// ---- Upload ----------------------------------------------------------------------------------

/** A file as the previous node made it: what bytes, under which MIME type. */
export type FileGiven =
	| { kind: 'pdf'; size: number; mimeType?: string }
	| { kind: 'empty' }
	| { kind: 'truncatedHeader'; length: number }
	| { kind: 'notPdf'; text: string; mimeType?: string }
	| { kind: 'notBase64'; data: string };

const PDF_HEADER = '%PDF-1.7\n';
function fileBytes(file: FileGiven): Buffer {
	switch (file.kind) {
		case 'pdf': {
			const bytes = Buffer.alloc(file.size, 0x20);
			bytes.write(
				PDF_HEADER.slice(0, Math.max(5, Math.min(file.size, PDF_HEADER.length))),
				'latin1',
			);
			return bytes;
		}
		case 'empty':
			return Buffer.alloc(0);
		case 'truncatedHeader':
			return Buffer.from('%PDF-'.slice(0, file.length), 'latin1');
		case 'notPdf':
			return Buffer.from(file.text, 'utf8');
		default:
			return Buffer.alloc(0);
	}
}

const mimeTypes = fc.constantFrom(
	undefined,
	'application/pdf',
	'text/plain',
	'image/png',
	'application/octet-stream',
);

const fileSlot: Slot = {
	key: 'file',
	label: /binary property "data"/,
	place: () => undefined,
	binary: (value) => {
		const file = value as FileGiven;
		if (file.kind === 'notBase64')
			// Binary data whose stored base64 is not base64 (a hand-written or corrupted item).
			return { data: { data: file.data, mimeType: 'application/pdf', fileName: 'x.pdf' } };
		return {
			data: binaryInput(fileBytes(file), {
				fileName: 'input.pdf',
				mimeType: 'mimeType' in file ? file.mimeType : 'application/pdf',
			}),
		};
	},
	valid: fc.oneof(
		{
			arbitrary: fc.record({
				kind: fc.constant('pdf' as const),
				size: fc.integer({ min: 5, max: 4096 }),
				mimeType: mimeTypes,
			}),
			weight: 60,
		},
		// Exactly the limit (helpers/constants.ts): accepted.
		{ arbitrary: fc.constant<FileGiven>({ kind: 'pdf', size: MAX_UPLOAD_BYTES }), weight: 1 },
	),
	invalid: fc.oneof(
		{ arbitrary: fc.constant<FileGiven>({ kind: 'empty' }), weight: 10 },
		{
			arbitrary: fc
				.integer({ min: 1, max: 4 })
				.map((length): FileGiven => ({ kind: 'truncatedHeader', length })),
			weight: 10,
		},
		{
			arbitrary: fc
				.record({
					kind: fc.constant('notPdf' as const),
					text: fc.string({ minLength: 1, maxLength: 200 }),
					mimeType: mimeTypes,
				})
				.filter((file) => !file.text.startsWith('%PDF-')),
			weight: 10,
		},
		{
			arbitrary: fc.constantFrom<FileGiven>({ kind: 'notBase64', data: '!!! not base64 !!!' }),
			weight: 5,
		},
		// One byte over the limit: refused before the upload.
		{ arbitrary: fc.constant<FileGiven>({ kind: 'pdf', size: MAX_UPLOAD_BYTES + 1 }), weight: 1 },
	),
};

// Stored base64 that is not base64 but whose readable part decodes to "%PDF-": n8n decodes it
// leniently, so the node sees a PDF header (junk: success or a clear error).
fileSlot.junk = fc.constant<FileGiven>({ kind: 'notBase64', data: 'JVBERi0%%%%' });

export const upload: OperationUnderTest = {
	name: 'File Upload',
	params: { resource: 'file', operation: 'upload', binaryPropertyName: 'data' },
	slots: [
		fileSlot,
		{
			key: 'fileName',
			label: /file name|File Name/,
			place: at('fileName'),
			valid: fc.oneof(fc.constant(''), fileName()),
			invalid: badFileName(),
			junk: junk(),
		},
		{
			key: 'binaryPropertyName',
			label: /binary/i,
			place: at('binaryPropertyName'),
			valid: fc.constantFrom('data', ' data'.trim()),
			junk: fc.oneof(junk(), fc.constantFrom('Data', 'file', 'data ')),
		},
	],
	cost: 1,
};

// ---- Create Session (Title and Text) ---------------------------------------------------------

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
		{
			key: 'name',
			label: /"Name"/,
			place: at('name'),
			valid: name(),
			invalid: badName(),
			junk: junk(),
		},
		{
			key: 'title',
			label: /"Title"/,
			place: at('title'),
			valid: shortText(LIMITS.title),
			invalid: fc.oneof(fc.constantFrom('', '   '), overLimit(LIMITS.title)),
			junk: junk(),
		},
		{ key: 'body', label: /"Body"/, place: at('body'), valid: anyText(300), junk: junk() },
		{
			key: 'recipientName',
			label: /"Recipients" \[0\]/,
			place: at('recipients', 'recipient', '0', 'name'),
			valid: shortText(40),
			invalid: fc.constantFrom('', '  ', null),
			junk: junk(),
		},
		{
			key: 'recipientEmail',
			label: /"Recipients" \[0\]/,
			place: at('recipients', 'recipient', '0', 'email'),
			valid: email(),
			invalid: notEmail(),
			junk: junk(),
		},
		{
			key: 'signatureLabel',
			label: /"Recipients" \[0\]/,
			place: at('recipients', 'recipient', '0', 'label'),
			valid: fc.oneof(fc.constant(''), shortText(LIMITS.label)),
			invalid: overLimit(LIMITS.label),
			junk: junk(),
		},
		{
			key: 'subtitle',
			label: /"Subtitle"/,
			place: at('documentOptions', 'subtitle'),
			valid: fc.oneof(fc.constant(''), shortText(LIMITS.subtitle)),
			invalid: overLimit(LIMITS.subtitle, 400),
			junk: junk(),
		},
		{
			key: 'attachments',
			label: /Attach Uploaded PDFs/,
			place: at('attachments'),
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
			junk: junk(),
		},
		expiryDaysSlot(false),
		reminderSlot,
	],
	cost: 1,
	checkOutput: (output) => {
		for (const session of output) expect(String(session.name)).not.toContain('[object Object]');
	},
};

// ---- Create Session (Block Documents, JSON) and Create Template -------------------------------

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

/** One documented rule of the block format broken (section 4). */
const brokenDoc = (recipientKeys: string[]) =>
	fc.oneof(
		blockDoc(recipientKeys).map(({ format: _format, ...doc }) => doc),
		blockDoc(recipientKeys).map((doc) => ({ ...doc, title: '' })),
		overLimit(LIMITS.title).chain((title) => blockDoc(recipientKeys, fc.constant(title))),
		blockDoc(recipientKeys).map((doc) => ({ ...doc, blocks: [] })),
		blockDoc(recipientKeys).map((doc) => ({
			...doc,
			blocks: [...doc.blocks, { type: 'image', src: 'x' }],
		})),
		blockDoc(recipientKeys).map((doc) => ({
			...doc,
			blocks: [{ type: 'paragraph', text: 'x', fontSize: 99 }, ...doc.blocks],
		})),
		blockDoc(recipientKeys).map((doc) => ({
			...doc,
			blocks: [{ type: 'spacer', height: 0 }, ...doc.blocks],
		})),
		blockDoc(recipientKeys).map((doc) => ({
			...doc,
			blocks: [...doc.blocks, { type: 'signatureBlock', recipient: 'nobody', label: 'x' }],
		})),
		blockDoc(recipientKeys).map((doc) => ({
			...doc,
			blocks: [...doc.blocks, ...doc.blocks.filter((b) => b.type === 'signatureBlock')],
		})),
		blockDoc(recipientKeys).map((doc) => ({
			...doc,
			blocks: doc.blocks.filter((b) => b.type !== 'signatureBlock'),
		})),
		blockDoc(recipientKeys).map((doc) => ({
			...doc,
			blocks: [{ type: 'heading', text: 'h'.repeat(LIMITS.heading + 1) }, ...doc.blocks],
		})),
		fc.constantFrom('{', '', 'null', '42'),
	);

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
		{
			key: 'documents',
			label: /"Documents"|Recipient "a"/,
			place: at('documents'),
			valid: asTextOrObject(
				fc.oneof(
					blockDoc(['a']),
					blockDoc(['a']).map((doc) => [doc]),
				),
			),
			invalid: asTextOrObject(brokenDoc(['a'])),
			junk: junk(),
		},
		{
			key: 'recipientsJson',
			label: /"Recipients \(JSON\)"|Recipient "/,
			place: at('recipientsJson'),
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
			junk: junk(),
		},
	],
	cost: 1,
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
		{
			key: 'name',
			label: /"Name"/,
			place: at('name'),
			valid: name(),
			invalid: badName(),
			junk: junk(),
		},
		{
			key: 'document',
			label: /"Document"|Recipient "emp"|token/,
			place: at('document'),
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
			junk: junk(),
		},
		{
			key: 'roleName',
			label: /"Recipients" \[0\]/,
			place: at('recipients', 'recipient', '0', 'name'),
			valid: fc.oneof(fc.constant(''), shortText(30)),
			junk: junk(),
		},
		{
			key: 'roleEmail',
			label: /"Recipients" \[0\]|token/,
			place: at('recipients', 'recipient', '0', 'email'),
			valid: fc.oneof(fc.constant(''), email(), fc.constant('{{{company}}}')),
			invalid: fc.constantFrom('ann', 'ann@', 'a b@x.com', '{{{nobody}}}'),
			junk: junk(),
		},
		{
			key: 'variableType',
			label: /"Variables" \[0\]/,
			place: at('variables', 'variable', '0', 'type'),
			valid: fc.constantFrom('text', 'date', 'number'),
			invalid: fc.constantFrom('string', 'Text', 'image', ''),
			junk: junk(),
		},
		{
			key: 'variableDefault',
			label: /"Variables" \[0\]/,
			place: at('variables', 'variable', '0', 'defaultValue'),
			valid: fc.constant(''),
			junk: junk(),
		},
		expiryDaysSlot(false),
	],
	cost: 1,
	scopes: ['write:templates'],
};
