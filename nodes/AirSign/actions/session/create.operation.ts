import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { itemOptions, maxRateLimitWaitMs, optionsCollection } from '../../descriptions/options';
import { documentFields, documentOptions } from '../../descriptions/sessionDocuments';
import { expiryOptions, readSessionSettings } from '../../descriptions/sessionSettings';
import type { Fail } from '../../errors/nodeError';
import { failer } from '../../errors/nodeError';
import type { FailureMessages } from '../../errors/messages';
import { blockFailures, valueRefused, withPlanFeatures } from '../../errors/messages';
import { LIMITS, UUID_PATTERN } from '../../helpers/constants';
import { readName } from '../../helpers/validation';
import { callAirSign } from '../../transport/call';
import { identifyByParameters } from '../itemIdentity';
import { readDocuments } from './createDocuments';
import type { ShapeName } from '../shapes';

// Create From Template shares Send Immediately and these failures.
export const sendImmediatelyField: INodeProperties = {
	displayName: 'Send Immediately',
	name: 'sendImmediately',
	type: 'boolean',
	default: false,
	description:
		'Whether to email the signing invitations at once. Off: the session stays a draft and the output carries its draftUrl, to review it in AirSign and send it (for example with Send).',
};

export const createdSessionFailures = {
	...valueRefused('the request'),
	SELF_SIGN_ONLY: {
		message: 'The session is self-sign only, so it cannot be sent',
		description: "Turn 'Send Immediately' off: the owner signs a self-sign session in AirSign.",
	},
	403: {
		description:
			'Its token lacks the scope write:sessions, which creating a session needs. Ask the AirSign administrator for a client with that scope.',
	},
};

export const description: INodeProperties[] = [
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
	optionsCollection([...expiryOptions(false), ...itemOptions]),
];

const failures: FailureMessages = { ...createdSessionFailures, ...blockFailures };

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const fail = failer(this.getNode(), itemIndex);
	const name = readName(this.getNodeParameter('name', itemIndex, ''), fail);
	const { documents, recipients } = readDocuments(this, itemIndex);
	const attachments = readAttachments(this.getNodeParameter('attachments', itemIndex, ''), fail);
	const files = [...documents.map((document) => ({ type: 'blocks', document })), ...attachments];
	if (files.length > LIMITS.files)
		throw fail(
			`A session holds at most ${LIMITS.files} files; this one would hold ${files.length} (${documents.length} document(s) and ${attachments.length} uploaded PDF(s))`,
			'Attach fewer uploaded PDFs, or merge them into one PDF first.',
		);
	const sendImmediately = this.getNodeParameter('sendImmediately', itemIndex, false) as boolean;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const settings = readSessionSettings(options, false, fail);

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
	return [body as IDataObject];
}

export const identify = identifyByParameters('name');

// File IDs (separated by commas or lines), Upload's output items or their fileReference, one or a
// list, or JSON text of those.
const LABEL = "'Attach Uploaded PDFs'";

function readAttachments(value: unknown, failItem: Fail): IDataObject[] {
	const fail = (shown: unknown) =>
		failItem(
			`${LABEL} holds something that is not an uploaded file: ${JSON.stringify(shown)?.slice(0, 100)}`,
			'Give file IDs separated by commas, or map the output of Upload: for one file {{ $json.fileReference }}, for several {{ $("Upload").all().map(i => i.json.fileReference) }}.',
		);
	let entries: unknown[];
	if (value === undefined || value === null || value === '') return [];
	if (typeof value === 'string') {
		const text = value.trim();
		if (text.startsWith('[') || text.startsWith('{')) {
			let parsed: unknown;
			try {
				parsed = JSON.parse(text);
			} catch {
				throw fail(text);
			}
			return readAttachments(parsed, failItem);
		}
		entries = text.split(/[\s,]+/).filter(Boolean);
	} else {
		entries = Array.isArray(value) ? value : [value];
	}
	return entries.map((entry) => {
		if (typeof entry === 'string') {
			if (!UUID_PATTERN.test(entry.trim())) throw fail(entry);
			return { type: 'uploadedPdf', fileId: entry.trim() };
		}
		const item = (entry ?? {}) as IDataObject;
		const reference = (item.fileReference ?? item) as IDataObject;
		const fileId = reference.fileId;
		if (typeof fileId !== 'string' || !UUID_PATTERN.test(fileId.trim())) throw fail(entry);
		if (reference.type !== undefined && reference.type !== 'uploadedPdf') throw fail(entry);
		const fileName = typeof item.fileName === 'string' ? item.fileName : undefined;
		return { type: 'uploadedPdf', fileId: fileId.trim(), ...(fileName && { fileName }) };
	});
}

/** Its items are sessions: Simplify and a tool's Output apply (actions/shapes.ts). */
export const output: ShapeName = 'session';
