/** The fuzzed operations (test/fuzz/inputCases.ts): Template Get Many, Template Get and Create From Template. */
import fc from 'fast-check';
import type { INodeParameters } from 'n8n-workflow';
import { COMPLETION_EMAIL_RECIPIENTS, LIMITS } from '../../../nodes/AirSign/helpers/constants';
import { templateFields } from '../../../nodes/AirSign/actions/session/templateFields';
import { DEMO_SENDER_PROFILE_ID, type Sandbox } from '../../../sandbox';
import { offerTemplate, type OfferSpec } from '../../nodes/airSign/offerTemplate';
import { type OperationUnderTest } from '../inputCases';
import { email, name, notEmail, notUuid, shortText, textOfLength, uuid } from '../values';
import {
	slot,
	checkSessionNames,
	expiryDaysSlot,
	idSlot,
	isoDate,
	limitSlot,
	maxWaitSlot,
	reminderSlot,
} from './common';

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
			valid: fc.oneof(fc.constant(''), name()),
			invalid: fc.integer({ min: LIMITS.name + 1, max: 300 }).chain((n) => textOfLength(n)),
		}),
		slot('employeeName', /Employee Name/, 'fields.value.recipient:1:name', {
			valid: shortText(40),
			invalid: fc.constantFrom('', null),
		}),
		slot('employeeEmail', /Employee Email/, 'fields.value.recipient:1:email', {
			valid: email(),
			invalid: fc.oneof(
				notEmail().filter((v) => v !== '' && v !== null),
				fc.constantFrom('', null),
			),
		}),
		slot('company', /company/, 'fields.value.company', {
			valid: shortText(40),
			invalid: fc.constantFrom('', null),
		}),
		slot('amount', /amount/, 'fields.value.amount', {
			valid: fc.oneof(
				fc.constant(''),
				fc.integer(),
				fc.double({ noNaN: true, noDefaultInfinity: true }),
				fc.integer().map(String),
			),
			invalid: fc.constantFrom('ten', '1,5', '12abc', 'Infinity', '--1'),
		}),
		slot('start', /start/, 'fields.value.start', {
			valid: fc.oneof(
				fc.constant(''),
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
		}),
	],
	setup: (sandbox, n) => ({ template: activeTemplates(sandbox, n) }),
	checkOutput: checkSessionNames,
};
