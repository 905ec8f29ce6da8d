/** Upload streams `{"fileName":…,"data":"<base64>"}` of its exact length, in both binary modes. */
import '../../harness';
import { binaryItem } from '../../harness';

import { NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { MAX_UPLOAD_BYTES } from '../../../nodes/AirSign/helpers/constants';
import {
	apiRequests,
	expectError,
	pdf,
	recordSleeps,
	runAirSign,
	uploadParams,
	useAirSign,
	runOk,
	stubAirSign,
	storedAs,
} from './helpers';

const ctx = useAirSign();

describe.each(['default', 'filesystem'] as const)(
	'streamed upload, binary mode %s',
	(binaryDataMode) => {
		it('the body is the JSON AirSign expects, of exactly its Content-Length; sizes not a multiple of 3 too', async () => {
			const stub = await stubAirSign(ctx, () => ({
				status: 200,
				body: { fileId: 'f', fileName: 'a.pdf', fileType: 'application/pdf', sizeBytes: 1 },
			}));
			const files = [pdf(3 * 65_536 + 1, 0x41), pdf(200_002, 0x42), pdf(9, 0x43)];
			await runOk(ctx, uploadParams({ fileName: 'a "quoted" name' }), {
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
			const ok = await runOk(ctx, uploadParams(), {
				input: [binaryItem(exact, { fileName: 'big.pdf' })],
				binaryDataMode,
			});
			expect(storedAs(ctx.sandbox, ok.items[0], exact)).toBe(true);
			ctx.sandbox.clearRequests();
			const refusals: Array<[Buffer, RegExp]> = [
				[pdf(MAX_UPLOAD_BYTES + 1), /is 7\.00 MB; AirSign accepts PDFs up to 7 MB/],
				[Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(100_000)]), /is not a PDF/],
				[Buffer.from('%PD'), /is not a PDF/],
				[Buffer.alloc(0), /is empty/],
			];
			for (const [bytes, message] of refusals) {
				const result = await runAirSign(ctx, uploadParams(), {
					input: [binaryItem(pdf(100)), binaryItem(bytes, { fileName: 'x.pdf' })],
					binaryDataMode,
					continueOnFail: 'continueRegularOutput',
				});
				expect(result.items[1].json.error).toMatch(message);
				expect(result.items[1].pairedItem).toEqual({ item: 1 });
			}
			// Only the good first item of each run reached AirSign.
			expect(apiRequests(ctx.sandbox).map((r) => r.status)).toEqual([200, 200, 200, 200]);
		});

		it('a 429 (AirSign documents none for Upload) is waited out and the file sent again whole: one file stored', async () => {
			const sleeps = recordSleeps();
			ctx.sandbox.injectFault({ kind: 'rateLimit', path: '/api/v1/File', retryAfter: 3 });
			const bytes = pdf(300_001, 0x44);
			const result = await runOk(ctx, uploadParams(), {
				input: [binaryItem(bytes, { fileName: 'a.pdf' })],
				binaryDataMode,
			});
			expect(ctx.sandbox.files.size).toBe(1);
			expect(storedAs(ctx.sandbox, result.items[0], bytes)).toBe(true);
			expect(apiRequests(ctx.sandbox).map((r) => r.status)).toEqual([429, 200]);
			expect(sleeps.requested).toEqual([3000]);
		});

		it('five files at once: every one stored once, output in input order and paired', async () => {
			const files = Array.from({ length: 5 }, (_, i) => pdf(100_000 + i * 7, 0x30 + i));
			const result = await runOk(ctx, uploadParams({ options: { itemsAtOnce: 5 } }), {
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
	const result = await runAirSign(ctx, uploadParams(), {
		input: [binaryItem(pdf(10)), binaryItem(Buffer.from('GIF89a'), { fileName: 'x.pdf' })],
		binaryDataMode: 'filesystem',
	});
	expectError(result, /binary property "data"/, { type: NodeOperationError, itemIndex: 1 });
	expect(apiRequests(ctx.sandbox)).toHaveLength(1);
});

it('stored base64 that is not canonical (line breaks, junk an earlier node left) is decoded as n8n decodes it: AirSign never receives base64 it would refuse (found by fuzzing, in-memory mode)', async () => {
	const bytes = pdf(1_000, 0x44);
	const wrapped = (bytes.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');
	const result = await runOk(ctx, uploadParams(), {
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
	expect(
		apiRequests(ctx.sandbox).filter((r) => r.status === 400 && r.path === '/api/v1/File'),
	).toEqual([]);
});
