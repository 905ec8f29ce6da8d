/** The fuzzed operations (test/fuzz/inputCases.ts): Template Get Many, Template Get and Create From Template. */
import fc from 'fast-check';
import type { INodeParameters } from 'n8n-workflow';
import { COMPLETION_EMAIL_RECIPIENTS, LIMITS } from '../../../nodes/AirSign/helpers/constants';
import { templateFields } from '../../../nodes/AirSign/actions/session/templateFields';
import { DEMO_SENDER_PROFILE_ID, type Sandbox } from '../../../sandbox';
import { offerTemplate, type OfferSpec } from '../../nodes/airSign/offerTemplate';
import { ref, type OperationUnderTest, type Slot } from '../inputCases';
import {
	email,
	junk,
	name,
	notEmail,
	notText,
	notUuid,
	shortText,
	textOfLength,
	uuid,
} from '../values';
import {
	at,
	checkSessionNames,
	expiryDaysSlot,
	isoDate,
	limitSlot,
	locatorAt,
	maxWaitSlot,
	reminderSlot,
	UUID_ANYWHERE,
} from './common';

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
		},
		maxWaitSlot,
	],
	cost: 1,
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
		},
		{
			key: 'employeeName',
			label: /Employee Name/,
			place: at('fields', 'value', 'recipient:1:name'),
			valid: shortText(40),
			invalid: fc.constantFrom('', null),
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
		},
		{
			key: 'company',
			label: /company/,
			place: at('fields', 'value', 'company'),
			valid: shortText(40),
			invalid: fc.constantFrom('', null),
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
		},
		expiryDaysSlot(true),
		reminderSlot,
		{
			key: 'senderProfileId',
			label: /Sender Profile ID/,
			place: at('options', 'senderProfileId'),
			valid: fc.constantFrom('', SENDER, ` ${SENDER} `),
			invalid: notUuid().filter((t) => t.trim() !== ''),
		},
		{
			key: 'completionEmailRecipients',
			label: /Completion Email Recipients/,
			place: at('options', 'completionEmailRecipients'),
			valid: fc.constantFrom(...COMPLETION_EMAIL_RECIPIENTS),
			invalid: fc.constantFrom('everyone', 'All', 'sender', ''),
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
		},
	],
	cost: 1,
	setup: (sandbox, n) => ({ template: activeTemplates(sandbox, n) }),
	checkOutput: checkSessionNames,
};
