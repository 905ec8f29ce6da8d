import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	ResourceMapperField,
} from 'n8n-workflow';

import { templateLocator } from '../../descriptions/locators';
import { itemOptions, maxRateLimitWaitMs, optionsCollection } from '../../descriptions/options';
import { expiryOptions, readSessionSettings } from '../../descriptions/sessionSettings';
import type { FailureMessages } from '../../errors/messages';
import { notFound, withPlanFeatures } from '../../errors/messages';
import { failer } from '../../errors/nodeError';
import { LIMITS } from '../../helpers/constants';
import { readLocatorId, readName } from '../../helpers/validation';
import { callAirSign } from '../../transport/call';
import { getTemplate } from '../../transport/templates';
import { identifyByParameters } from '../itemIdentity';
import { createdSessionFailures, sendImmediatelyField } from './create.operation';
import { readTemplateValues, templateFields } from './templateFields';
import { readTemplateSettings, templateSessionOptions } from './templateSettings';
import type { ShapeName } from '../shapes';

export const description: INodeProperties[] = [
	templateLocator('The active template the session is made from'),
	{
		displayName: 'Recipients and Variables',
		name: 'fields',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		typeOptions: {
			loadOptionsDependsOn: ['templateId.value'],
			resourceMapper: {
				resourceMapperMethod: 'getTemplateFields',
				mode: 'add',
				fieldWords: { singular: 'field', plural: 'fields' },
				addAllFields: true,
				multiKeyMatch: false,
			},
		},
		description:
			"The template’s recipient roles ('Employee Name', 'Employee Email') and variables. Automatic mapping fills variables from input fields of the same name.",
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		placeholder: 'e.g. Employment contract – Jane Citizen',
		description: `Name of the session, 1 to ${LIMITS.name} characters. Empty: the template’s name.`,
	},
	sendImmediatelyField,
	optionsCollection([...expiryOptions(true), ...templateSessionOptions, ...itemOptions]),
];

const refresh =
	"The template may have changed since its fields were loaded: open 'Recipients and Variables' and refresh the fields.";

const failures: FailureMessages = {
	...createdSessionFailures,
	TEMPLATE_NOT_ACTIVE: {
		message: 'The template is a draft, so no session can be made from it',
		description:
			'Activate it in AirSign first, or pick another: the list shows only active templates.',
	},
	TOO_MANY_RECIPIENTS: {
		message: 'More recipients were given than the template has',
		description: refresh,
	},
	MISSING_VARIABLES: {
		message: 'AirSign says required variables of the template are missing',
		description: refresh,
	},
	// Any of the above, when the answer does not say which (no code, or one this node does not know).
	400: {
		message: 'AirSign refused to create the session from the template',
		description: `The template may be a draft, the node may give more recipients than it has or miss a required variable, or AirSign refused a value. ${refresh}`,
	},
	404: notFound('template'),
};

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const fail = failer(this.getNode(), itemIndex);
	const given = this.getNodeParameter('templateId', itemIndex);
	const templateId = readLocatorId(given, 'template', fail);
	const name = readName(this.getNodeParameter('name', itemIndex, ''), fail, true);
	const sendImmediately = this.getNodeParameter('sendImmediately', itemIndex, false) as boolean;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const settings = readSessionSettings(options, true, fail);
	readTemplateSettings(options, settings, fail);
	const maxWaitMs = maxRateLimitWaitMs(this, options);

	// Checked against the fields the builder saw; loaded now only if none were saved (a
	// template chosen by an expression, or a workflow written by hand).
	let fields = this.getNodeParameter('fields.schema', itemIndex, []) as ResourceMapperField[];
	if (!Array.isArray(fields) || fields.length === 0)
		fields = templateFields(await getTemplate(this, templateId, itemIndex, maxWaitMs));
	const mappingMode = this.getNodeParameter('fields.mappingMode', itemIndex, 'defineBelow');
	const values = (
		mappingMode === 'autoMapInputData'
			? this.getInputData()[itemIndex].json
			: // The node checks and converts every value itself, with the fields' display names.
				this.getNodeParameter('fields.value', itemIndex, {}, { skipValidation: true })
	) as IDataObject;
	const timezone = this.getTimezone();
	const { recipients, variableValues } = readTemplateValues(fields, values ?? {}, timezone, fail);

	const body: IDataObject = {
		templateId,
		...(name !== '' && { name }),
		sendImmediately,
		...(recipients && { recipients }),
		...(Object.keys(variableValues).length > 0 && { variableValues }),
		...settings.body,
	};
	const { body: created } = await callAirSign(
		this,
		{ method: 'POST', path: '/SessionFromTemplate', body, itemIndex },
		{
			failures: withPlanFeatures(
				failures,
				settings.features,
				createdSessionFailures[403].description,
			),
			maxRateLimitWaitMs: maxWaitMs,
			write: { mayExist: 'the session may exist' },
		},
	);
	return [created as IDataObject];
}

export const identify = identifyByParameters('templateId', 'name');

/** Its items are sessions: Simplify and a tool's Output apply (actions/shapes.ts). */
export const output: ShapeName = 'session';
