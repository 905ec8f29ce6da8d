import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { itemOptions, maxRateLimitWaitMs, optionsCollection } from '../../descriptions/options';
import { expiryOptions, readSessionSettings } from '../../descriptions/sessionSettings';
import { failer } from '../../errors/nodeError';
import type { FailureMessages } from '../../errors/messages';
import { blockFailures, valueRefused, withPlanFeatures } from '../../errors/messages';
import { checkBlockDocument, checkSignatureBlocks } from '../../helpers/blockDocument';
import { LIMITS } from '../../helpers/constants';
import { parseJson, readName } from '../../helpers/validation';
import { callAirSign } from '../../transport/call';
import { identifyByParameters } from '../itemIdentity';
import {
	checkTemplateRecipients,
	checkTokensDeclared,
	checkVariables,
	templateRecipientsAndVariables,
} from './recipientsAndVariables';
import type { ShapeName } from '../shapes';

export const description: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		description: `Name of the template, 1 to ${LIMITS.name} characters`,
	},
	{
		displayName:
			"Write variables as {{{name}}} (three braces). Keep 'Document' a fixed value: as an n8n expression, the braces would be read as one.",
		name: 'tokenNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Document',
		name: 'document',
		type: 'json',
		default: '',
		required: true,
		description:
			'A block document ({ "format": "blocks", "title", "blocks": [...] }) whose texts may hold {{{variable}}} tokens; each signature block names a recipient key',
	},
	...templateRecipientsAndVariables,
	{
		displayName: 'Activate',
		name: 'activate',
		type: 'boolean',
		default: false,
		description:
			'Whether sessions can be made from it at once. Off: a draft, reviewed in AirSign at the output’s editorUrl.',
	},
	optionsCollection([...expiryOptions(false), ...itemOptions]),
];

const scope =
	'Its token lacks the scope write:templates, which Create Template needs. Ask the AirSign administrator for a client with that scope.';

const failures: FailureMessages = {
	...blockFailures,
	UNDECLARED_VARIABLE: {
		message: 'The document uses a {{{token}}} that is not a variable',
		description: "Declare it under 'Variables', or correct the token.",
	},
	...valueRefused('the template'),
};

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const fail = failer(this.getNode(), itemIndex);
	const name = readName(this.getNodeParameter('name', itemIndex, ''), fail);
	const document = parseJson(this.getNodeParameter('document', itemIndex), "'Document'", fail);
	const checked = checkBlockDocument(document, "'Document'", fail);
	const recipients = checkTemplateRecipients(
		(this.getNodeParameter('recipients.recipient', itemIndex, []) as IDataObject[]) ?? [],
		fail,
	);
	checkSignatureBlocks([checked], recipients as Array<{ key: string }>, "'Document'", fail);
	const variables = checkVariables(
		(this.getNodeParameter('variables.variable', itemIndex, []) as IDataObject[]) ?? [],
		fail,
	);
	checkTokensDeclared(checked, recipients, variables, fail);
	const activate = this.getNodeParameter('activate', itemIndex, false) as boolean;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const settings = readSessionSettings(options, false, fail);

	const { body } = await callAirSign(
		this,
		{
			method: 'POST',
			path: '/Template',
			body: { name, document: checked, recipients, variables, activate, ...settings.body },
			itemIndex,
		},
		{
			failures: withPlanFeatures(failures, settings.features, scope),
			maxRateLimitWaitMs: maxRateLimitWaitMs(this, options),
			write: { mayExist: 'the template may exist' },
		},
	);
	return [body as IDataObject];
}

export const identify = identifyByParameters('name');

/** Its items are templates: Simplify and a tool's Output apply (actions/shapes.ts). */
export const output: ShapeName = 'template';
