import { binaryItem } from '../../harness';

import fc from 'fast-check';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { isCanonicalBase64 } from '../../../nodes/AirSign/actions/file/uploadSource';
import { MAX_UPLOAD_BYTES } from '../../../nodes/AirSign/helpers/constants';
import {
	expectError,
	pdf,
	recordSleeps,
	tokenCredential,
	uploadParams,
	useAirSign,
	stubAirSign,
	storedAs,
} from './helpers';

const ctx = useAirSign();
/** Upload of one item: these bytes (a 100-byte PDF unless given), under this name. */
const uploadOne = (params = uploadParams(), bytes = pdf(100), fileName?: string) =>
	ctx.run(params, { input: [binaryItem(bytes, fileName ? { fileName } : {})] });

describe('Upload File', () => {
	it('uses "File Name" when set and appends .pdf; falls back to document.pdf when the binary has no name', async () => {
		const named = await ctx.run(uploadParams({ fileName: 'Offer letter' }), {
			input: [binaryItem(pdf(100), { fileName: 'ignored.pdf', mimeType: 'application/pdf' })],
		});
		expect(named.items[0].json.fileName).toBe('Offer letter.pdf');
		const unnamed = await ctx.ok(uploadParams(), {
			input: [
				{
					json: {},
					binary: { data: { data: pdf(100).toString('base64'), mimeType: 'application/pdf' } },
				},
			],
		});
		expect(unnamed.items[0].json.fileName).toBe('document.pdf');
	});

	it('reads the binary property named in the parameter, per item through an expression', async () => {
		const a = pdf(300, 0x61);
		const b = pdf(400, 0x62);
		const result = await ctx.ok(
			uploadParams({ binaryPropertyName: '={{ $json.prop }}', fileName: '={{ $json.name }}' }),
			{
				input: [
					binaryItem(a, {
						property: 'first',
						fileName: 'a.pdf',
						json: { prop: 'first', name: 'A' },
					}),
					binaryItem(b, {
						property: 'second',
						fileName: 'b.pdf',
						json: { prop: 'second', name: 'B.PDF' },
					}),
				],
			},
		);
		expect(result.items.map((i) => [i.json.fileName, i.json.sizeBytes, i.pairedItem])).toEqual([
			['A.pdf', 300, { item: 0 }],
			['B.PDF', 400, { item: 1 }],
		]);
		expect(storedAs(ctx.sandbox, result.items[1], b)).toBe(true);
	});

	it('7 MB: one byte over is refused locally, naming the property and item, with no request', async () => {
		const result = await uploadOne(uploadParams(), pdf(MAX_UPLOAD_BYTES + 1), 'big.pdf');
		expectError(result, /binary property "data".*7 MB/, {
			type: NodeOperationError,
			itemIndex: 0,
		});
		expect(ctx.apiRequests()).toEqual([]);
	});

	it('7 MB, with the stricter reading on the server (7,000,000), a 7,100,000-byte PDF passes the local check and the 413 is mapped', async () => {
		ctx.sandbox.config.maxFileBytes = 7_000_000;
		const result = await uploadOne(uploadParams(), pdf(7_100_000), 'big.pdf');
		expect(ctx.apiRequests()).toEqual([
			expect.objectContaining({ path: '/api/v1/File', status: 413 }),
		]);
		expectError(result, 'The file is larger than AirSign accepts [FILE_TOO_LARGE]', {
			type: NodeApiError,
			description: 'up to 7 MB',
			httpCode: '413',
			itemIndex: 0,
		});
	});
	describe('local refusals (no request sent)', () => {
		const cases: Array<[string, Buffer, RegExp]> = [
			['a non-PDF file', Buffer.from('PK\u0003\u0004 this is a docx'), /is not a PDF/],
			['an empty file', Buffer.alloc(0), /is empty/],
			['a file that starts with %PDF but lower-case', Buffer.from('%pdf-1.4 nope'), /is not a PDF/],
		];
		it.each(cases)('refuses %s', async (_label, bytes, message) => {
			const input = [binaryItem(bytes, { fileName: 'x.pdf' })];
			await ctx.refused(uploadParams(), message, { input });
		});

		it('refuses a missing binary property and a file name over 255 characters', async () => {
			const missing = await uploadOne(uploadParams({ binaryPropertyName: 'nope' }));
			expect(missing.error?.message).toMatch(/nope/);
			const long = await uploadOne(uploadParams({ fileName: 'x'.repeat(256) }));
			expectError(long, /256 characters/, { type: NodeOperationError });
			expect(ctx.apiRequests()).toEqual([]);
		});

		it('a file name of 252–255 characters without .pdf is sent as it is (the service appends .pdf)', async () => {
			const name = 'n'.repeat(253);
			const result = await ctx.ok(uploadParams({ fileName: name }), {
				input: [binaryItem(pdf(100))],
			});
			expect(result.items[0].json.fileName).toBe(`${name}.pdf`);
		});
	});

	// docs/api.md#upload-file: at most 255 characters, and docs/api.md counts characters as Unicode
	// code points; "😀" is one character in two UTF-16 units.
	describe('the file name counted in characters (code points), as AirSign counts it', () => {
		it('200 and 255 emoji are taken (".pdf" appended); 256 are refused as 256 characters', async () => {
			for (const n of [200, 255]) {
				const name = '😀'.repeat(n);
				const result = await ctx.ok(uploadParams({ fileName: name }), {
					input: [binaryItem(pdf(100))],
				});
				expect(result.items[0].json.fileName).toBe(`${name}.pdf`);
			}
			ctx.sandbox.clearRequests();
			const long = await uploadOne(uploadParams({ fileName: '😀'.repeat(256) }));
			const message = 'The file name is 256 characters long; AirSign accepts at most 255';
			expectError(long, message, { type: NodeOperationError, itemIndex: 0 });
			expect(ctx.apiRequests()).toEqual([]);
		});

		it('the node appends ".pdf" itself while the name stays within 255 characters', async () => {
			const stub = await stubAirSign(ctx, (request) => ({
				status: 200,
				body: { fileId: 'f', fileName: JSON.parse(request.body).fileName, sizeBytes: 100 },
			}));
			// 126 emoji are 252 UTF-16 units: counted so, the name looked too long for ".pdf".
			for (const name of ['😀'.repeat(126), '😀'.repeat(251)]) {
				const result = await uploadOne(uploadParams({ fileName: name }));
				expect(JSON.parse(stub.requests.at(-1)?.body ?? '{}').fileName).toBe(`${name}.pdf`);
				expect(result.error).toBeUndefined();
			}
		});
	});

	describe('server codes the local checks keep from happening', () => {
		// The node never sends what the sandbox would answer these codes to: a stub answers them.
		it.each([
			['INVALID_BASE64', 'AirSign could not decode the uploaded data [INVALID_BASE64]'],
			[
				'INVALID_FILE_TYPE',
				'AirSign accepts only PDF files, and this file is not one [INVALID_FILE_TYPE]',
			],
		])('maps 400 %s', async (code, message) => {
			const stub = await stubAirSign(ctx, () => ({
				status: 400,
				body: { code, message: 'server words' },
			}));
			const result = await uploadOne(uploadParams(), pdf(100), 'a.pdf');
			expect(stub.requests).toHaveLength(1);
			expect(JSON.parse(stub.requests[0].body)).toEqual({
				fileName: 'a.pdf',
				data: pdf(100).toString('base64'),
			});
			const description = 'AirSign said: "server words"';
			expectError(result, message, { type: NodeApiError, description, httpCode: '400' });
		});
	});

	it('scopes: write:files alone suffices; a token with neither write scope gets the 403 message', async () => {
		ctx.cred = await tokenCredential(ctx, ctx.sandbox.issueToken({ scopes: ['write:files'] }));
		await ctx.ok(uploadParams(), { input: [binaryItem(pdf(100))] });
		ctx.cred = await tokenCredential(ctx, ctx.sandbox.issueToken({ scopes: ['write:templates'] }));
		const refused = await uploadOne();
		expectError(
			refused,
			'The AirSign credential is not allowed to do this [HTTP 403 INSUFFICIENT_SCOPE]',
			{ type: NodeApiError, description: 'write:files' },
		);
	});
});

// Upload streams `{"fileName":…,"data":"<base64>"}` of its exact length, in both binary modes.
describe.each(['default', 'filesystem'] as const)(
	'Upload File, streamed, binary mode %s',
	(binaryDataMode) => {
		it('uploads the binary input: output with fileReference, same bytes on the server', async () => {
			const bytes = Buffer.concat([pdf(2000), Buffer.from([0, 1, 2, 253, 254, 255])]);
			const result = await ctx.ok(uploadParams(), {
				binaryDataMode,
				input: [binaryItem(bytes, { fileName: 'contract.pdf', mimeType: 'application/pdf' })],
			});
			expect(result.items).toHaveLength(1);
			const out = result.items[0].json;
			expect(out).toEqual({
				fileId: expect.stringMatching(/^[0-9a-f-]{36}$/),
				fileName: 'contract.pdf',
				fileType: 'application/pdf',
				sizeBytes: bytes.length,
				fileReference: { type: 'uploadedPdf', fileId: out.fileId },
			});
			expect(result.items[0].pairedItem).toEqual({ item: 0 });
			expect(storedAs(ctx.sandbox, result.items[0], bytes)).toBe(true);
			expect(ctx.sandbox.files.get(out.fileId as string)?.orgId).toBe(ctx.sandbox.demo.orgId);
			expect(ctx.apiRequests()).toEqual([
				expect.objectContaining({ method: 'POST', path: '/api/v1/File', status: 200 }),
			]);
		});

		it('the body is the JSON AirSign expects, of exactly its Content-Length; sizes not a multiple of 3 too', async () => {
			const stub = await stubAirSign(ctx, () => ({
				status: 200,
				body: { fileId: 'f', fileName: 'a.pdf', fileType: 'application/pdf', sizeBytes: 1 },
			}));
			const files = [pdf(3 * 65_536 + 1, 0x41), pdf(200_002, 0x42), pdf(9, 0x43)];
			await ctx.ok(uploadParams({ fileName: 'a "quoted" name' }), {
				input: files.map((bytes) => binaryItem(bytes, { fileName: 'x.pdf' })),
				binaryDataMode,
			});
			const bodies = stub.requests.map((r) => ({
				length: Number(r.headers['content-length']),
				type: r.headers['content-type'],
				body: r.body,
			}));
			expect(bodies).toHaveLength(3);
			const sent = new Map(
				bodies.map(({ body }) => {
					const parsed = JSON.parse(body) as { fileName: string; data: string };
					return [parsed.data.length, parsed];
				}),
			);
			for (const bytes of files) {
				const parsed = sent.get(Math.ceil(bytes.length / 3) * 4)!;
				expect(parsed.fileName).toBe('a "quoted" name.pdf');
				expect(Buffer.from(parsed.data, 'base64').equals(bytes)).toBe(true);
			}
			for (const { length, type, body } of bodies) {
				expect(length).toBe(Buffer.byteLength(body));
				expect(type).toMatch(/^application\/json/);
			}
		});

		it('exactly the limit uploads; one byte over, not a PDF, or empty: refused before any request', async () => {
			const exact = pdf(MAX_UPLOAD_BYTES);
			const ok = await ctx.ok(uploadParams(), {
				input: [binaryItem(exact, { fileName: 'big.pdf' })],
				binaryDataMode,
			});
			expect(ok.items[0].json.sizeBytes).toBe(MAX_UPLOAD_BYTES);
			expect(storedAs(ctx.sandbox, ok.items[0], exact)).toBe(true);
			ctx.sandbox.clearRequests();
			const refusals: Array<[Buffer, RegExp]> = [
				[pdf(MAX_UPLOAD_BYTES + 1), /is 7\.00 MB; AirSign accepts PDFs up to 7 MB/],
				[Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(100_000)]), /is not a PDF/],
				[Buffer.from('%PD'), /is not a PDF/],
				[Buffer.alloc(0), /is empty/],
			];
			for (const [bytes, message] of refusals) {
				const result = await ctx.run(uploadParams(), {
					input: [binaryItem(pdf(100)), binaryItem(bytes, { fileName: 'x.pdf' })],
					binaryDataMode,
					continueOnFail: 'continueRegularOutput',
				});
				expect(result.items[1].json.error).toMatch(message);
				expect(result.items[1].pairedItem).toEqual({ item: 1 });
			}
			expect(ctx.apiRequests().map((r) => r.status)).toEqual([200, 200, 200, 200]);
		});

		it('a 429 (AirSign documents none for Upload) is waited out and the file sent again whole: one file stored', async () => {
			const sleeps = recordSleeps();
			ctx.sandbox.injectFault({ kind: 'rateLimit', path: '/api/v1/File', retryAfter: 3 });
			const bytes = pdf(300_001, 0x44);
			const result = await ctx.ok(uploadParams(), {
				input: [binaryItem(bytes, { fileName: 'a.pdf' })],
				binaryDataMode,
			});
			expect(ctx.sandbox.files.size).toBe(1);
			expect(storedAs(ctx.sandbox, result.items[0], bytes)).toBe(true);
			expect(ctx.apiRequests().map((r) => r.status)).toEqual([429, 200]);
			expect(sleeps.requested).toEqual([3000]);
		});

		it('five files at once: every one stored once, output in input order and paired', async () => {
			const files = Array.from({ length: 5 }, (_, i) => pdf(100_000 + i * 7, 0x30 + i));
			const result = await ctx.ok(uploadParams({ options: { itemsAtOnce: 5 } }), {
				input: files.map((bytes, i) => binaryItem(bytes, { fileName: `f${i}.pdf` })),
				binaryDataMode,
			});
			expect(result.items.map((i) => [i.json.fileName, i.json.sizeBytes, i.pairedItem])).toEqual(
				files.map((bytes, item) => [`f${item}.pdf`, bytes.length, { item }]),
			);
			for (const [i, item] of result.items.entries())
				expect(storedAs(ctx.sandbox, item, files[i])).toBe(true);
			expect(ctx.sandbox.files.size).toBe(5);
		});
	},
);

it('a refused file is a NodeOperationError naming the property and the item (filesystem mode)', async () => {
	const result = await ctx.run(uploadParams(), {
		input: [binaryItem(pdf(10)), binaryItem(Buffer.from('GIF89a'), { fileName: 'x.pdf' })],
		binaryDataMode: 'filesystem',
	});
	expectError(result, /binary property "data"/, { type: NodeOperationError, itemIndex: 1 });
	expect(ctx.apiRequests()).toHaveLength(1);
});

it('stored base64 that is not canonical (line breaks, junk an earlier node left) is decoded as n8n decodes it: AirSign never receives base64 it would refuse (found by fuzzing, in-memory mode)', async () => {
	const bytes = pdf(1_000, 0x44);
	const wrapped = (bytes.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');
	const result = await ctx.ok(uploadParams(), {
		input: [
			{
				json: {},
				binary: { data: { data: wrapped, mimeType: 'application/pdf', fileName: 'a.pdf' } },
			},
			{
				json: {},
				binary: { data: { data: 'JVBERi0%%%%', mimeType: 'application/pdf', fileName: 'b.pdf' } },
			},
		],
		continueOnFail: 'continueRegularOutput',
	});
	expect(result.items[0].json.sizeBytes).toBe(bytes.length);
	expect(storedAs(ctx.sandbox, result.items[0], bytes)).toBe(true);
	// "JVBERi0" decodes to the PDF signature and two bytes: a file AirSign takes or refuses as one.
	expect(result.items[1].json.code).not.toBe('INVALID_BASE64');
	expect(ctx.apiRequests().filter((r) => r.status === 400 && r.path === '/api/v1/File')).toEqual(
		[],
	);
});

describe('upload from memory: is the base64 canonical?', () => {
	/** The check before issue 50: a scan by regex. */
	const byRegex = (text: string) => {
		if (text.length % 4 !== 0 || /[^A-Za-z0-9+/=]/.test(text)) return false;
		const padding = text.indexOf('=');
		return padding === -1 || (padding >= text.length - 2 && /^=+$/.test(text.slice(padding)));
	};
	const base64 = fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b).toString('base64'));
	const characters = 'AQgw/+9z=-_ \r\n.é%'.split('');

	it.each([
		['', true],
		['QUJD', true],
		['QUI=', true],
		['QQ==', true],
		['QQ=', false],
		['Q===', false],
		['QQ==QUJD', false],
		['QU=D', false],
		['QUJ-', false],
		['QUJ_', false],
		['QUJD\r\nQUJD', false],
		['data:application/pdf;base64,QUJD', false],
		['QUJé', false],
	])('%j: %s', (text, canonical) => {
		expect(isCanonicalBase64(text)).toBe(canonical);
		expect(byRegex(text)).toBe(canonical);
	});

	it('decides as the regex did: base64, base64 with one character changed, and any text', () => {
		const changed = fc
			.tuple(base64, fc.nat(60), fc.constantFrom(...characters))
			.map(([text, at, character]) => text.slice(0, at) + character + text.slice(at + 1));
		const anyText = fc
			.array(fc.constantFrom(...characters), { maxLength: 40 })
			.map((a) => a.join(''));
		fc.assert(
			fc.property(
				fc.oneof(base64, changed, anyText, fc.string({ maxLength: 24 })),
				(text) => isCanonicalBase64(text) === byRegex(text),
			),
			{ numRuns: 2000 },
		);
	});

	it('over a text longer than one step (64 KiB of base64): a character off in the last step is found', () => {
		const text = Buffer.alloc(200_001, 7).toString('base64');
		expect(isCanonicalBase64(text)).toBe(true);
		expect(isCanonicalBase64(`${text.slice(0, -5)}\n${text.slice(-4)}`)).toBe(false);
		expect(isCanonicalBase64(`${text.slice(0, -1)}-`)).toBe(false);
	});
});
