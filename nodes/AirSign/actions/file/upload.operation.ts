import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { itemOptions, maxRateLimitWaitMs, optionsCollection } from '../../descriptions/options';
import type { Fail } from '../../errors/nodeError';
import { failer } from '../../errors/nodeError';
import type { FailureMessages } from '../../errors/messages';
import {
	MAX_FILE_NAME_LENGTH,
	MAX_UPLOAD_BYTES,
	MAX_UPLOAD_TEXT,
	PDF_SIGNATURE,
} from '../../helpers/constants';
import { chars, textOf } from '../../helpers/validation';
import { callAirSign } from '../../transport/call';
import { parameterAsGiven } from '../itemIdentity';
import { uploadSource } from './uploadSource';

export const description: INodeProperties[] = [
	{
		displayName:
			'Uploaded PDFs are reference documents: signature fields are placed on block documents, not on uploaded PDFs. Put the output\'s "fileReference" into a session\'s files.',
		name: 'referenceDocumentNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the input binary field holding the PDF',
		description: `The PDF to upload: at most ${MAX_UPLOAD_TEXT} (${MAX_UPLOAD_BYTES} bytes), and it must really be a PDF`,
	},
	{
		displayName: 'File Name',
		name: 'fileName',
		type: 'string',
		default: '',
		placeholder: 'e.g. employment-contract.pdf',
		description: `Name to store the file under, at most ${MAX_FILE_NAME_LENGTH} characters; ".pdf" is added when missing. Leave empty to use the name of the binary file, or "document.pdf" when it has none.`,
	},
	optionsCollection(itemOptions),
];

const tooLarge = {
	message: 'The file is larger than AirSign accepts',
	description: `AirSign accepts PDFs up to ${MAX_UPLOAD_TEXT}. Compress the PDF or split it into several documents.`,
};

const failures: FailureMessages = {
	INVALID_BASE64: {
		message: 'AirSign could not decode the uploaded data',
		description:
			'The node sends the binary file as base64. Check that the input binary field holds the PDF itself.',
	},
	INVALID_FILE_TYPE: {
		message: 'AirSign accepts only PDF files, and this file is not one',
		description: 'Convert the document to PDF before uploading it.',
	},
	FILE_TOO_LARGE: tooLarge,
	413: tooLarge,
	// AirSign's two 400s, when the answer names neither (no code, or one this node does not know).
	400: {
		message: 'AirSign refused the uploaded data: it is not valid base64 or not a PDF',
		description:
			'The node sends the binary file as base64: check that the input binary field holds the PDF itself, and convert other documents to PDF first.',
	},
	403: {
		description:
			'Its token lacks the scope write:files or write:sessions, one of which Upload needs. Ask the AirSign administrator for a client with one of them.',
	},
};

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const binaryPropertyName = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
	const binaryData = this.helpers.assertBinaryData(itemIndex, binaryPropertyName);
	const fail = failer(this.getNode(), itemIndex);
	const given = textOf(this.getNodeParameter('fileName', itemIndex, ''), "'File Name'", fail);
	const fileName = fileNameToStore(given.trim() || binaryData.fileName || 'document.pdf', fail);

	// Size and first bytes only: a file that cannot be uploaded costs no request, and the file
	// is read once, as it is sent.
	const source = await uploadSource(this, binaryData);
	assertUploadablePdf(source, binaryPropertyName, fail);

	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	// A 429 means AirSign did not process the request: it is waited out and sent again. A request
	// that may have reached AirSign is not.
	const { body } = await callAirSign(
		this,
		{ method: 'POST', path: '/File', body: source.body(fileName), itemIndex, timeoutMs: 300_000 },
		{ failures, maxRateLimitWaitMs: maxRateLimitWaitMs(this, options), write: {} },
	);
	const uploaded = body as IDataObject;
	return [
		{
			fileId: uploaded.fileId,
			fileName: uploaded.fileName,
			fileType: uploaded.fileType,
			sizeBytes: uploaded.sizeBytes,
			fileReference: { type: 'uploadedPdf', fileId: uploaded.fileId },
		},
	];
}

function assertUploadablePdf(
	file: { size: number; head: Buffer },
	binaryField: string,
	fail: Fail,
) {
	const what = `The file in binary property "${binaryField}"`;
	if (file.size === 0)
		throw fail(
			`${what} is empty`,
			'Check the node that produced the file: it gave a file with no content.',
		);
	if (file.size > MAX_UPLOAD_BYTES)
		throw fail(
			`${what} is ${formatBytes(file.size)}; AirSign accepts PDFs up to ${MAX_UPLOAD_TEXT}`,
			`The limit is ${MAX_UPLOAD_BYTES.toLocaleString('en-US')} bytes. Compress the PDF or split it into several documents.`,
		);
	if (file.head.subarray(0, PDF_SIGNATURE.length).toString('latin1') !== PDF_SIGNATURE)
		throw fail(
			`${what} is not a PDF; AirSign accepts only PDF files`,
			'A PDF starts with the bytes "%PDF-". Convert the document to PDF first (for example with a conversion service), then upload it.',
		);
}

function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} bytes`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

/** The name AirSign will store: it appends ".pdf" when missing, so the output shows that too. */
function fileNameToStore(value: string, fail: Fail): string {
	const fileName = value.trim();
	if (fileName === '')
		throw fail(
			'The file name is empty',
			"Set 'File Name', or leave it empty to use the name of the binary file.",
		);
	const length = chars(fileName);
	if (length > MAX_FILE_NAME_LENGTH)
		throw fail(
			`The file name is ${length} characters long; AirSign accepts at most ${MAX_FILE_NAME_LENGTH}`,
			"Shorten the value of 'File Name'.",
		);
	if (/\.pdf$/i.test(fileName)) return fileName;
	// A name of 252 to 255 characters is valid as it is; AirSign then appends ".pdf" itself.
	return length + 4 <= MAX_FILE_NAME_LENGTH ? `${fileName}.pdf` : fileName;
}

// The File Name given, else the binary's own name.
export function identify(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const field = parameterAsGiven(this, 'binaryPropertyName', itemIndex);
	const fileName =
		parameterAsGiven(this, 'fileName', itemIndex) ??
		(field === undefined ? undefined : this.getInputData()[itemIndex]?.binary?.[field]?.fileName);
	return fileName === undefined ? {} : { fileName };
}
