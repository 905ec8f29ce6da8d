import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { FailureMessages } from '../../errors/wording';
import { MAX_FILE_NAME_LENGTH, MAX_UPLOAD_BYTES, MAX_UPLOAD_TEXT } from '../../helpers/constants';
import { assertUploadablePdf, normaliseFileName, textOf } from '../../helpers/validation';
import { apiRequest } from '../../transport/request';
import { parameterAsGiven } from '../itemIdentity';
import { itemsAtOnceOption, optionsCollection } from '../../descriptions/options';

const properties: INodeProperties[] = [
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
	optionsCollection([itemsAtOnceOption]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['file'], operation: ['upload'] } },
	properties,
);

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
	403: {
		description:
			'Its token lacks the scope write:files or write:sessions, one of which Upload needs. Ask the AirSign administrator for a client with one of them.',
	},
};

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const binaryPropertyName = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
	const binaryData = this.helpers.assertBinaryData(itemIndex, binaryPropertyName);
	const requestedName = textOf(
		this.getNode(),
		this.getNodeParameter('fileName', itemIndex, ''),
		'"File Name"',
		itemIndex,
	).trim();
	const fileName = normaliseFileName(
		this.getNode(),
		requestedName || binaryData.fileName || 'document.pdf',
		itemIndex,
	);

	// getBinaryDataBuffer reads the bytes wherever n8n keeps them (memory, disk or S3).
	const bytes = await this.helpers.getBinaryDataBuffer(itemIndex, binaryPropertyName);
	assertUploadablePdf(this.getNode(), bytes, binaryPropertyName, itemIndex);

	const { body } = await apiRequest(
		this,
		{
			method: 'POST',
			path: '/File',
			body: jsonUploadBody(fileName, bytes),
			itemIndex,
			timeoutMs: 300_000,
		},
		failures,
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

/** Bytes encoded per step: a multiple of 3, so each chunk's base64 has no padding. */
const BASE64_CHUNK_BYTES = 3 * 256 * 1024;

/**
 * `{"fileName":…,"data":"<base64>"}` written straight into one Buffer of the exact
 * size. Handing the HTTP client an object would cost two more copies of the
 * base64 text (JSON.stringify, then the string's bytes) for a file of up to 7 MB.
 */
function jsonUploadBody(fileName: string, bytes: Buffer): Buffer {
	const head = Buffer.from(`{"fileName":${JSON.stringify(fileName)},"data":"`, 'utf8');
	const tail = Buffer.from('"}', 'utf8');
	const body = Buffer.allocUnsafe(head.length + Math.ceil(bytes.length / 3) * 4 + tail.length);
	let offset = head.copy(body, 0);
	for (let start = 0; start < bytes.length; start += BASE64_CHUNK_BYTES) {
		const chunk = bytes.subarray(start, start + BASE64_CHUNK_BYTES);
		offset += body.write(chunk.toString('base64'), offset, 'latin1');
	}
	tail.copy(body, offset);
	return body;
}

/** The file it was to upload: the File Name given, else the binary's own name. */
export function identify(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const fileName =
		parameterAsGiven(this, 'fileName', itemIndex) ??
		binaryFileName(this, parameterAsGiven(this, 'binaryPropertyName', itemIndex), itemIndex);
	return fileName === undefined ? {} : { fileName };
}

function binaryFileName(
	ctx: IExecuteFunctions,
	binaryPropertyName: string | undefined,
	itemIndex: number,
): string | undefined {
	if (binaryPropertyName === undefined) return undefined;
	return ctx.getInputData()[itemIndex]?.binary?.[binaryPropertyName]?.fileName;
}
