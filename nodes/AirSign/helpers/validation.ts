import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	MAX_FILE_NAME_LENGTH,
	MAX_UPLOAD_BYTES,
	MAX_UPLOAD_TEXT,
	PDF_SIGNATURE,
} from './constants';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Session IDs go into the URL path, so only a well-formed UUID is ever placed
 * there: anything else is refused before a request is made.
 */
export function assertSessionId(node: INode, value: unknown, itemIndex: number): string {
	const sessionId = typeof value === 'string' ? value.trim() : '';
	if (!UUID_PATTERN.test(sessionId)) {
		const shown = typeof value === 'string' ? `"${value.slice(0, 60)}"` : String(value);
		throw new NodeOperationError(node, `Session ID ${shown} is not a valid AirSign session ID`, {
			itemIndex,
			description:
				'A session ID is a UUID such as 3f2b8a1e-7c4d-4e8f-9a0b-1c2d3e4f5a6b. Map the "sessionId" field of a List Sessions (Get Many) result, or copy it from AirSign.',
		});
	}
	return sessionId;
}

function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} bytes`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

/** Checks the bytes the way the service will, so a bad file fails here with a clear message. */
export function assertUploadablePdf(
	node: INode,
	bytes: Buffer,
	binaryPropertyName: string,
	itemIndex: number,
): void {
	if (bytes.length === 0) {
		throw new NodeOperationError(
			node,
			`The file in binary property "${binaryPropertyName}" is empty`,
			{
				itemIndex,
				description: 'Check the node that produced the file: it gave a file with no content.',
			},
		);
	}
	if (bytes.length > MAX_UPLOAD_BYTES) {
		throw new NodeOperationError(
			node,
			`The file in binary property "${binaryPropertyName}" is ${formatBytes(bytes.length)}; AirSign accepts PDFs up to ${MAX_UPLOAD_TEXT}`,
			{
				itemIndex,
				description: `The limit is ${MAX_UPLOAD_BYTES.toLocaleString('en-US')} bytes. Compress the PDF or split it into several documents.`,
			},
		);
	}
	if (bytes.subarray(0, PDF_SIGNATURE.length).toString('latin1') !== PDF_SIGNATURE) {
		throw new NodeOperationError(
			node,
			`The file in binary property "${binaryPropertyName}" is not a PDF; AirSign accepts only PDF files`,
			{
				itemIndex,
				description:
					'A PDF starts with the bytes "%PDF-". Convert the document to PDF first (for example with a conversion service), then upload it.',
			},
		);
	}
}

/**
 * The service appends ".pdf" when it is missing; doing the same here lets the
 * output and later steps show the name that will be stored.
 */
export function normaliseFileName(node: INode, value: string, itemIndex: number): string {
	const fileName = value.trim();
	if (fileName === '') {
		throw new NodeOperationError(node, 'The file name is empty', {
			itemIndex,
			description: 'Set "File Name", or leave it empty to use the name of the binary file.',
		});
	}
	if (fileName.length > MAX_FILE_NAME_LENGTH) {
		throw new NodeOperationError(
			node,
			`The file name is ${fileName.length} characters long; AirSign accepts at most ${MAX_FILE_NAME_LENGTH}`,
			{ itemIndex, description: 'Shorten the value of "File Name".' },
		);
	}
	if (/\.pdf$/i.test(fileName)) return fileName;
	const withExtension = `${fileName}.pdf`;
	// A name of 252 to 255 characters is valid as it is; the service then appends ".pdf" itself.
	return withExtension.length <= MAX_FILE_NAME_LENGTH ? withExtension : fileName;
}
