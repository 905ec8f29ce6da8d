import { describe, expect, it } from 'vitest';
import { call, pdfBase64 } from './helpers';
import { useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const upload = (
	json: unknown,
	init: { token?: string | null; headers?: Record<string, string> } = {},
) => call(sandbox(), 'POST', '/api/v1/File', { json, ...init });
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('Upload File (docs/api.md#upload-file)', () => {
	it('success: 200 with fileId (UUID), fileName, fileType application/pdf, sizeBytes of the decoded bytes', async () => {
		const data = pdfBase64(100);
		const res = await upload({ fileName: 'contract.pdf', data });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			fileId: expect.stringMatching(UUID_V4),
			fileName: 'contract.pdf',
			fileType: 'application/pdf',
			sizeBytes: 100,
		});
		const stored = sandbox().files.get(res.body.fileId)!;
		expect(stored.bytes.equals(Buffer.from(data, 'base64'))).toBe(true);
		expect(stored.orgId).toBe(sandbox().demo.orgId);
	});

	it('a .pdf extension is appended when missing', async () => {
		expect((await upload({ fileName: 'contract', data: pdfBase64() })).body.fileName).toBe(
			'contract.pdf',
		);
		expect((await upload({ fileName: 'scan.docx', data: pdfBase64() })).body.fileName).toBe(
			'scan.docx.pdf',
		);
	});

	it('an existing .PDF extension is recognised case-insensitively and kept as given', async () => {
		expect((await upload({ fileName: 'SCAN.PDF', data: pdfBase64() })).body.fileName).toBe(
			'SCAN.PDF',
		);
	});

	it('decoded bytes that are not a PDF → 400 INVALID_FILE_TYPE', async () => {
		const res = await upload({
			fileName: 'a.pdf',
			data: Buffer.from('PK\u0003\u0004 zip').toString('base64'),
		});
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('INVALID_FILE_TYPE');
		expect((await upload({ fileName: 'a.pdf', data: '' })).body.code).toBe('INVALID_FILE_TYPE');
	});

	it.each([
		['a data: URI prefix', `data:application/pdf;base64,${pdfBase64()}`],
		['line breaks (length still a multiple of 4)', `${pdfBase64(48).slice(0, 62)}\r\n`],
		['spaces', `${pdfBase64(48).slice(0, 60)}    `],
		['the url-safe alphabet (- and _)', 'JVBERi3__-_7'],
		['a length that is not a multiple of 4', pdfBase64(10).replace(/=+$/, '')],
		['padding in the middle', 'JVBE=RI0'],
		['three padding characters', 'JVBERi0x===='],
		['characters outside the alphabet', 'JVBERi0*'],
	])('%s → 400 INVALID_BASE64', async (_label, data) => {
		const res = await upload({ fileName: 'a.pdf', data });
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('INVALID_BASE64');
	});

	it('file size: exactly maxFileBytes decoded is accepted (default 7 MiB = 7,340,032 bytes)', async () => {
		expect(sandbox().config.maxFileBytes).toBe(7 * 1024 * 1024);
		const res = await upload({ fileName: 'big.pdf', data: pdfBase64(7 * 1024 * 1024) });
		expect(res.status).toBe(200);
		expect(res.body.sizeBytes).toBe(7 * 1024 * 1024);
	});

	it('one byte over the 7 MiB limit → 413 FILE_TOO_LARGE', async () => {
		const res = await upload({ fileName: 'big.pdf', data: pdfBase64(7 * 1024 * 1024 + 1) });
		expect(res.status).toBe(413);
		expect(res.body.code).toBe('FILE_TOO_LARGE');
	});

	it('file size: measured on the decoded bytes, not on the base64 text (maxFileBytes option)', async () => {
		sandbox().config.maxFileBytes = 300;
		// 300 decoded bytes are 400 base64 characters: over 300 as text, within the limit as a file.
		expect((await upload({ fileName: 'a.pdf', data: pdfBase64(300) })).status).toBe(200);
		const over = await upload({ fileName: 'a.pdf', data: pdfBase64(301) });
		expect([over.status, over.body.code]).toEqual([413, 'FILE_TOO_LARGE']);
	});

	it('file size: maxFileBytes 7,000,000 plays the decimal reading of "7MB"', async () => {
		sandbox().config.maxFileBytes = 7_000_000;
		const res = await upload({ fileName: 'a.pdf', data: pdfBase64(7_000_001) });
		expect([res.status, res.body.code]).toEqual([413, 'FILE_TOO_LARGE']);
	});

	it('file size: a request body too large to hold a legal upload → 413 FILE_TOO_LARGE before parsing', async () => {
		sandbox().config.maxFileBytes = 1000;
		// Not even JSON: the body is refused on its size alone.
		const res = await call(sandbox(), 'POST', '/api/v1/File', {
			body: 'x'.repeat(200 * 1024),
			headers: { 'Content-Type': 'application/json' },
		});
		expect([res.status, res.body.code]).toEqual([413, 'FILE_TOO_LARGE']);
	});

	it('fileName length: 255 characters are accepted', async () => {
		const res = await upload({ fileName: `${'n'.repeat(251)}.pdf`, data: pdfBase64() });
		expect(res.status).toBe(200);
		expect(res.body.fileName).toHaveLength(255);
	});

	it('fileName length: 256 characters → 400 VALIDATION_ERROR on fileName', async () => {
		const res = await upload({ fileName: `${'n'.repeat(252)}.pdf`, data: pdfBase64() });
		expect(res.status).toBe(400);
		expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'fileName' });
	});

	it('body: fileName is required → 400 VALIDATION_ERROR', async () => {
		for (const fileName of [undefined, '', '   ', 42]) {
			const res = await upload({ fileName, data: pdfBase64() });
			expect(res.status).toBe(400);
			expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'fileName' });
		}
	});

	it('body: data is required → 400 VALIDATION_ERROR', async () => {
		const res = await upload({ fileName: 'a.pdf' });
		expect(res.status).toBe(400);
		expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'data' });
	});

	it('body: a body that is not JSON → 400 INVALID_JSON', async () => {
		const res = await call(sandbox(), 'POST', '/api/v1/File', {
			body: '{"fileName":',
			headers: { 'Content-Type': 'application/json' },
		});
		expect([res.status, res.body.code]).toEqual([400, 'INVALID_JSON']);
	});

	it('headers: Content-Type application/json is required → 415 UNSUPPORTED_MEDIA_TYPE', async () => {
		const res = await call(sandbox(), 'POST', '/api/v1/File', {
			body: JSON.stringify({ fileName: 'a.pdf', data: pdfBase64() }),
			headers: { 'Content-Type': 'text/plain' },
		});
		expect([res.status, res.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
		const withCharset = await upload(
			{ fileName: 'a.pdf', data: pdfBase64() },
			{ headers: { 'Content-Type': 'application/json; charset=utf-8' } },
		);
		expect(withCharset.status).toBe(200);
	});

	it('a missing token → 401, whatever the body', async () => {
		const res = await upload({ fileName: 'a.pdf', data: 'not base64!' }, { token: null });
		expect([res.status, res.body.code]).toEqual([401, 'UNAUTHORIZED']);
		expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
	});

	it('an invalid token → 401, even for an oversized body', async () => {
		sandbox().config.maxFileBytes = 10;
		const res = await upload(
			{ fileName: 'a.pdf', data: pdfBase64(1000) },
			{ token: 'not-a-token' },
		);
		expect(res.status).toBe(401);
		expect(sandbox().files.size).toBe(0);
	});

	it('scopes: write:files alone suffices for Upload File', async () => {
		const token = sandbox().issueToken({ scopes: ['write:files'] });
		expect((await upload({ fileName: 'a', data: pdfBase64() }, { token })).status).toBe(200);
	});

	it('scopes: write:sessions alone suffices for Upload File', async () => {
		const token = sandbox().issueToken({ scopes: ['write:sessions'] });
		expect((await upload({ fileName: 'a', data: pdfBase64() }, { token })).status).toBe(200);
	});

	it('scopes: neither write:files nor write:sessions → 403 INSUFFICIENT_SCOPE', async () => {
		const token = sandbox().issueToken({ scopes: ['write:templates'] });
		const res = await upload({ fileName: 'a', data: pdfBase64() }, { token });
		expect([res.status, res.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
	});

	it('error bodies: { code, message } JSON', async () => {
		const res = await upload({ fileName: 'a.pdf', data: '!!!!' });
		expect(res.headers.get('content-type')).toMatch(/^application\/json/);
		expect(res.body).toEqual({ code: 'INVALID_BASE64', message: expect.any(String) });
	});
});
