import { randomUUID } from 'node:crypto';
import type { SandboxContext } from './context';
import { apiError, json, type Reply } from './http';

/** Standard alphabet only, padding only at the end; the length is checked apart (a regex over 9 MB of groups is slow). */
const BASE64_ALPHABET = /^[A-Za-z0-9+/]*={0,2}$/;
const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');
const MAX_FILE_NAME_CHARS = 255;

/** Bodies beyond this cannot hold a legal upload: base64 of the limit plus room for the JSON around it. */
export function maxUploadBodyBytes(maxFileBytes: number): number {
	return Math.ceil((maxFileBytes * 4) / 3) + 64 * 1024;
}

/**
 * docs/api.md#upload-file after authentication: fields, then INVALID_BASE64, INVALID_FILE_TYPE,
 * FILE_TOO_LARGE in that order.
 */
export function uploadFile(ctx: SandboxContext, orgId: string, rawBody: Buffer): Reply {
	let body: unknown;
	try {
		body = JSON.parse(rawBody.toString('utf8'));
	} catch {
		return apiError(400, 'INVALID_JSON', 'The request body is not valid JSON');
	}
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		return apiError(400, 'VALIDATION_ERROR', 'The request body must be a JSON object', {
			field: 'body',
		});
	}
	const { fileName, data } = body as Record<string, unknown>;

	if (typeof fileName !== 'string' || fileName.trim() === '') {
		return apiError(
			400,
			'VALIDATION_ERROR',
			'fileName is required and must be a non-empty string',
			{ field: 'fileName' },
		);
	}
	if ([...fileName].length > MAX_FILE_NAME_CHARS) {
		return apiError(
			400,
			'VALIDATION_ERROR',
			`fileName must be at most ${MAX_FILE_NAME_CHARS} characters`,
			{
				field: 'fileName',
			},
		);
	}
	if (typeof data !== 'string') {
		return apiError(400, 'VALIDATION_ERROR', 'data is required and must be a base64 string', {
			field: 'data',
		});
	}

	if (data.length % 4 !== 0 || !BASE64_ALPHABET.test(data)) {
		return apiError(
			400,
			'INVALID_BASE64',
			'data must be standard base64 (A-Z a-z 0-9 + /, = padding) without a data: URI prefix',
		);
	}
	const bytes = Buffer.from(data, 'base64');
	if (bytes.length < PDF_MAGIC.length || !bytes.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC)) {
		return apiError(
			400,
			'INVALID_FILE_TYPE',
			'Only PDF files are accepted (the content does not start with %PDF-)',
		);
	}
	if (bytes.length > ctx.config.maxFileBytes) {
		return apiError(
			413,
			'FILE_TOO_LARGE',
			`The decoded file is larger than ${ctx.config.maxFileBytes} bytes`,
		);
	}

	const storedName = /\.pdf$/i.test(fileName) ? fileName : `${fileName}.pdf`;
	const fileId = randomUUID();
	ctx.store.files.set(fileId, { fileName: storedName, bytes, orgId });
	return json(200, {
		fileId,
		fileName: storedName,
		fileType: 'application/pdf',
		sizeBytes: bytes.length,
	});
}
