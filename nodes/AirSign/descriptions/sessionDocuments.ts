import type { INodeProperties } from 'n8n-workflow';

import { LIMITS } from '../helpers/constants';

const simple = { show: { documentMode: ['simple'] } };
const json = { show: { documentMode: ['json'] } };

export function recipientsCollection(
	description: string,
	values: INodeProperties[],
	displayOptions?: INodeProperties['displayOptions'],
): INodeProperties {
	return {
		displayName: 'Recipients',
		name: 'recipients',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Recipient',
		...(displayOptions && { displayOptions }),
		description,
		options: [{ displayName: 'Recipient', name: 'recipient', values }],
	};
}

export const signingOrderField: INodeProperties = {
	displayName: 'Signing Order',
	name: 'signingOrder',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 0,
	description: 'Position in the signing order; 0 signs in the order listed',
};

export const documentFields: INodeProperties[] = [
	{
		displayName: 'Document',
		name: 'documentMode',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Title and Text',
				value: 'simple',
				description: 'Write the document here; a signature block is added for each recipient',
			},
			{
				name: 'Block Documents (JSON)',
				value: 'json',
				description: 'One or more documents in AirSign’s block format, with recipients and keys',
			},
		],
		default: 'simple',
	},
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		required: true,
		displayOptions: simple,
		description: `Printed in every page’s header: one line, at most ${LIMITS.title} characters (AirSign says "about 30")`,
	},
	{
		displayName: 'Body',
		name: 'body',
		type: 'string',
		typeOptions: { rows: 8 },
		default: '',
		displayOptions: simple,
		description:
			'The text of the document. Blank lines separate paragraphs; a paragraph starting with "# " is a heading.',
	},
	recipientsCollection(
		`Who signs, 1 to ${LIMITS.recipients}. Each gets a signature block at the end of the document.`,
		[
			{ displayName: 'Name', name: 'name', type: 'string', default: '', required: true },
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				placeholder: 'e.g. nathan@example.com',
				default: '',
				required: true,
			},
			signingOrderField,
			{
				displayName: 'Signature Label',
				name: 'label',
				type: 'string',
				default: '',
				description: `Label of the recipient’s signature block, at most ${LIMITS.label} characters. Empty: the recipient’s name.`,
			},
		],
		simple,
	),
	{
		displayName: 'Documents',
		name: 'documents',
		type: 'json',
		default: '',
		required: true,
		displayOptions: json,
		description:
			'One block document ({ "format": "blocks", "title", "blocks": [...] }) or a list of them. Each signature block names a recipient key.',
	},
	{
		displayName: 'Recipients (JSON)',
		name: 'recipientsJson',
		type: 'json',
		default: '',
		required: true,
		displayOptions: json,
		description:
			'A list of { "key", "name", "email", "signingOrder"? }; a key is letters, digits, "_" and "-"',
	},
];

export const documentOptions: INodeProperties = {
	displayName: 'Document Options',
	name: 'documentOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: simple,
	options: [
		{
			displayName: 'Footer Label',
			name: 'footerLabel',
			type: 'string',
			default: '',
			description: 'Footer text of every page ("page X of Y" is added). Empty: the title.',
		},
		{
			displayName: 'Subtitle',
			name: 'subtitle',
			type: 'string',
			default: '',
			description: `Printed under the title, at most ${LIMITS.subtitle} characters`,
		},
	],
};
