import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { BINARY_ENCODING } from 'n8n-workflow';

import { PDF_SIGNATURE } from '../../helpers/constants';
import { StreamedBody } from '../../transport/request';

// A multiple of 3, so each step's base64 has no padding; small enough (64 KiB of text) for V8 to
// free each step's string in its young generation.
const CHUNK_BYTES = 3 * 16 * 1024;
// Base64 n8n already holds goes out in longer slices (a multiple of 4): each is one copy and one
// socket write, and with V8's defaults they cost about the same memory (docs/performance.md).
const HELD_TEXT_SLICE = 256 * 1024;

export interface UploadSource {
	size: number;
	head: Buffer;
	body: (fileName: string) => StreamedBody;
}

// The file is streamed from n8n's binary store, or its base64 sent as it is: never decoded whole.
export async function uploadSource(
	ctx: IExecuteFunctions,
	binaryData: IBinaryData,
): Promise<UploadSource> {
	return binaryData.id
		? await storedSource(ctx, binaryData.id)
		: inMemorySource(binaryData.data ?? '');
}

async function storedSource(ctx: IExecuteFunctions, id: string): Promise<UploadSource> {
	const { fileSize } = await ctx.helpers.getBinaryMetadata(id);
	const size = Number(fileSize);
	const head =
		size > 0 ? await firstBytes(await ctx.helpers.getBinaryStream(id, 64)) : Buffer.alloc(0);
	return {
		size,
		head,
		body: (fileName) =>
			jsonBody(fileName, size, async () =>
				base64Chunks(await ctx.helpers.getBinaryStream(id, CHUNK_BYTES), size),
			),
	};
}

// Node decodes base64 leniently (it skips what is not base64 and stops at '='), so canonical text
// decodes to 3 bytes per 4 characters less its padding. Decoded natively step by step into one
// scratch buffer: a regex scan, or a new buffer per step, costs more than the upload's encoding.
export function isCanonicalBase64(text: string): boolean {
	if (text.length % 4 !== 0 || text.includes('-') || text.includes('_')) return false;
	const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
	const step = (CHUNK_BYTES / 3) * 4;
	const scratch = Buffer.allocUnsafe(CHUNK_BYTES);
	let decoded = 0;
	for (let start = 0; start < text.length; start += step)
		decoded += scratch.write(text.slice(start, start + step), BINARY_ENCODING);
	return decoded === (text.length / 4) * 3 - padding;
}

function inMemorySource(base64: string): UploadSource {
	// Anything else (white space, a data: prefix, junk an earlier node put there) is decoded the
	// lenient way n8n decodes it, so that AirSign never receives base64 it would refuse.
	if (!isCanonicalBase64(base64)) return bytesSource(Buffer.from(base64, BINARY_ENCODING));
	const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
	const size = (base64.length / 4) * 3 - padding;
	const head = Buffer.from(base64.slice(0, 8), BINARY_ENCODING);
	return {
		size,
		head,
		body: (fileName) =>
			jsonBody(fileName, size, async () => storedBase64Chunks(base64), base64.length),
	};
}

function bytesSource(bytes: Buffer): UploadSource {
	return {
		size: bytes.length,
		head: bytes.subarray(0, 8),
		body: (fileName) =>
			jsonBody(fileName, bytes.length, async () => base64Chunks(inChunks(bytes), bytes.length)),
	};
}

async function* inChunks(bytes: Buffer): AsyncGenerator<Buffer> {
	for (let start = 0; start < bytes.length; start += CHUNK_BYTES)
		yield bytes.subarray(start, start + CHUNK_BYTES);
}

function jsonBody(
	fileName: string,
	size: number,
	openData: () => Promise<AsyncIterable<Buffer>>,
	base64Length = Math.ceil(size / 3) * 4,
): StreamedBody {
	const head = Buffer.from(`{"fileName":${JSON.stringify(fileName)},"data":"`, 'utf8');
	const tail = Buffer.from('"}', 'utf8');
	// Nothing is opened before the client reads: a request that never leaves holds no file.
	return new StreamedBody(head.length + base64Length + tail.length, async function* () {
		yield head;
		yield* await openData();
		yield tail;
	});
}

async function* storedBase64Chunks(base64: string): AsyncGenerator<Buffer> {
	for (let start = 0; start < base64.length; start += HELD_TEXT_SLICE) {
		yield Buffer.from(base64.slice(start, start + HELD_TEXT_SLICE), 'latin1');
	}
}

// A file that is not the size its metadata said fails, rather than send a body of another length.
async function* base64Chunks(stream: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
	let carry = Buffer.alloc(0);
	let read = 0;
	for await (const chunk of stream) {
		read += chunk.length;
		const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
		const whole = bytes.length - (bytes.length % 3);
		carry = Buffer.from(bytes.subarray(whole));
		if (whole > 0) yield Buffer.from(bytes.subarray(0, whole).toString('base64'), 'latin1');
	}
	if (read !== size) {
		throw new Error(`The stored file has ${read} bytes, not the ${size} its metadata says`);
	}
	if (carry.length > 0) yield Buffer.from(carry.toString('base64'), 'latin1');
}

/** The first chunk of a stream (enough for the PDF signature); leaving the loop closes it. */
async function firstBytes(stream: AsyncIterable<Buffer>): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let length = 0;
	for await (const chunk of stream) {
		chunks.push(chunk);
		length += chunk.length;
		if (length >= PDF_SIGNATURE.length) break;
	}
	return Buffer.concat(chunks);
}
