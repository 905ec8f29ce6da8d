import { randomUUID } from 'node:crypto';
import type { Call } from './context';
import {
	ApiProblem,
	invalid,
	isJsonContentType,
	isPlainObject,
	json,
	readBody,
	type Reply,
} from './http';

/** Standard alphabet only, padding only at the end; the length is checked apart (a regex over 9 MB of groups is slow). */
const BASE64_ALPHABET = /^[A-Za-z0-9+/]*={0,2}$/;
const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');
const MAX_FILE_NAME_CHARS = 255;

/**
 * docs/api.md#upload-file after authentication and scope: Content-Type (415), the body's size
 * (a body beyond base64 of the limit plus room for the JSON around it cannot hold a legal upload),
 * fields, then INVALID_BASE64, INVALID_FILE_TYPE, FILE_TOO_LARGE in that order.
 */
export async function uploadFile({ ctx, orgId, req }: Call): Promise<Reply> {
	const { maxFileBytes } = ctx.config;
	if (!isJsonContentType(req.headers['content-type']))
		throw new ApiProblem(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
	const raw = await readBody(req, Math.ceil((maxFileBytes * 4) / 3) + 64 * 1024);
	if (!raw.ok) {
		const message = `The request is larger than a ${maxFileBytes}-byte file can be`;
		throw new ApiProblem(413, 'FILE_TOO_LARGE', message);
	}
	let body: unknown;
	try {
		body = JSON.parse(raw.body.toString('utf8'));
	} catch {
		throw new ApiProblem(400, 'INVALID_JSON', 'The request body is not valid JSON');
	}
	if (!isPlainObject(body)) throw invalid('body', 'The request body must be a JSON object');
	const { fileName, data } = body;
	if (typeof fileName !== 'string' || fileName.trim() === '')
		throw invalid('fileName', 'fileName is required and must be a non-empty string');
	if ([...fileName].length > MAX_FILE_NAME_CHARS)
		throw invalid('fileName', `fileName must be at most ${MAX_FILE_NAME_CHARS} characters`);
	if (typeof data !== 'string')
		throw invalid('data', 'data is required and must be a base64 string');
	if (data.length % 4 !== 0 || !BASE64_ALPHABET.test(data)) {
		const message =
			'data must be standard base64 (A-Z a-z 0-9 + /, = padding) without a data: URI prefix';
		throw new ApiProblem(400, 'INVALID_BASE64', message);
	}
	const bytes = Buffer.from(data, 'base64');
	if (!bytes.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC)) {
		const message = 'Only PDF files are accepted (the content does not start with %PDF-)';
		throw new ApiProblem(400, 'INVALID_FILE_TYPE', message);
	}
	if (bytes.length > maxFileBytes) {
		const message = `The decoded file is larger than ${maxFileBytes} bytes`;
		throw new ApiProblem(413, 'FILE_TOO_LARGE', message);
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
