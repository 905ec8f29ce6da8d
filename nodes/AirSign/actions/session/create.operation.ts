import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	itemsAtOnceOption,
	maxRateLimitWaitOption,
	optionsCollection,
} from '../../descriptions/options';
import { expiryOptions } from '../../descriptions/sessionSettings';
import { planFeatureFailures } from '../../errors/messages';
import type { FailureMessages } from '../../errors/messages';
import { readAttachments } from '../../helpers/attachments';
import { LIMITS } from '../../helpers/constants';
import { withUtcTimestamps } from '../../helpers/dates';
import { maxRateLimitWaitMs } from '../../helpers/options';
import { readSessionSettings } from '../../helpers/sessionSettings';
import { readName } from '../../helpers/validation';
import { callAirSign } from '../../transport/call';
import { blockFailures, readDocuments } from './createDocuments';
import { createdSessionFailures, sendImmediatelyField } from './createShared';
import { identifyByParameters } from '../itemIdentity';
import { inputError } from '../../errors/inputError';

const simple = { show: { documentMode: ['simple'] } };
const json = { show: { documentMode: ['json'] } };

const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Service agreement – Acme Pty Ltd',
		description: `Name of the session in AirSign, 1 to ${LIMITS.name} characters`,
	},
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
	{
		displayName: 'Recipients',
		name: 'recipients',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Recipient',
		displayOptions: simple,
		description: `Who signs, 1 to ${LIMITS.recipients}. Each gets a signature block at the end of the document.`,
		options: [
			{
				displayName: 'Recipient',
				name: 'recipient',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '', required: true },
					{
						displayName: 'Email',
						name: 'email',
						type: 'string',
						placeholder: 'name@email.com',
						default: '',
						required: true,
					},
					{
						displayName: 'Signing Order',
						name: 'signingOrder',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: 0,
						description: 'Position in the signing order; 0 signs in the order listed',
					},
					{
						displayName: 'Signature Label',
						name: 'label',
						type: 'string',
						default: '',
						description: `Label of the recipient’s signature block, at most ${LIMITS.label} characters. Empty: the recipient’s name.`,
					},
				],
			},
		],
	},
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
	{
		displayName: 'Attach Uploaded PDFs',
		name: 'attachments',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.fileReference }}',
		description: `Reference PDFs uploaded with Upload: file IDs separated by commas, or Upload's output items or their "fileReference" (one or a list). At most ${LIMITS.files - 1} with one document.`,
	},
	sendImmediatelyField,
	{
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
	},
	optionsCollection([...expiryOptions(false), maxRateLimitWaitOption, itemsAtOnceOption]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['session'], operation: ['create'] } },
	properties,
);

const failures: FailureMessages = { ...createdSessionFailures, ...blockFailures };

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const node = this.getNode();
	const name = readName(this, itemIndex);
	const { documents, recipients } = readDocuments(this, itemIndex);
	const attachments = readAttachments(
		node,
		this.getNodeParameter('attachments', itemIndex, ''),
		itemIndex,
	);
	const files = [...documents.map((document) => ({ type: 'blocks', document })), ...attachments];
	if (files.length > LIMITS.files) {
		throw inputError(
			node,
			`A session holds at most ${LIMITS.files} files; this one would hold ${files.length} (${documents.length} document(s) and ${attachments.length} uploaded PDF(s))`,
			{ itemIndex, description: 'Attach fewer uploaded PDFs, or merge them into one PDF first.' },
		);
	}
	const sendImmediately = this.getNodeParameter('sendImmediately', itemIndex, false) as boolean;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const settings = readSessionSettings(node, options, itemIndex, false);

	const { body } = await callAirSign(
		this,
		{
			method: 'POST',
			path: '/Session',
			body: { name, files, recipients, sendImmediately, ...settings.body },
			itemIndex,
		},
		{
			failures: (answer) => ({
				...failures,
				...planFeatureFailures(
					answer.body,
					settings.features,
					createdSessionFailures[403].description,
				),
			}),
			maxRateLimitWaitMs: maxRateLimitWaitMs(this, options),
			write: { mayExist: 'the session may exist' },
		},
	);
	return [withUtcTimestamps(body as IDataObject)];
}

/** The session it was to create, by the name given. */
export const identify = identifyByParameters('name');
