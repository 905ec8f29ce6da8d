import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	itemsAtOnceOption,
	maxRateLimitWaitOption,
	optionsCollection,
} from '../../descriptions/options';
import { documentFields, documentOptions } from '../../descriptions/sessionDocuments';
import { expiryOptions } from '../../descriptions/sessionSettings';
import { withPlanFeatures } from '../../errors/messages';
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
	...documentFields,
	{
		displayName: 'Attach Uploaded PDFs',
		name: 'attachments',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.fileReference }}',
		description: `Reference PDFs uploaded with Upload: file IDs separated by commas, or Upload's output items or their "fileReference" (one or a list). At most ${LIMITS.files - 1} with one document.`,
	},
	sendImmediatelyField,
	documentOptions,
	optionsCollection([...expiryOptions(false), maxRateLimitWaitOption, itemsAtOnceOption]),
];

export const itemsAtOnce = true;

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
			failures: withPlanFeatures(
				failures,
				settings.features,
				createdSessionFailures[403].description,
			),
			maxRateLimitWaitMs: maxRateLimitWaitMs(this, options),
			write: { mayExist: 'the session may exist' },
		},
	);
	return [withUtcTimestamps(body as IDataObject)];
}

export const identify = identifyByParameters('name');
