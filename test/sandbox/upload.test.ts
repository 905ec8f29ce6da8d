import { describe, expect, it } from 'vitest';
import { expectError, pdfBase64, useApi } from './helpers';

const { sandbox, call, upload: post } = useApi();
/** Upload File with this name and data, and the demo token unless `token` is given. */
const upload = (fileName: unknown, data?: string, token?: string | null) =>
	post({ fileName, data }, token);
/** A raw body to Upload File, under this Content-Type. */
const raw = (body: string, type = 'application/json') =>
	call('POST', '/api/v1/File', { body, headers: { 'Content-Type': type } });
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const MIB = 1024 * 1024;

describe('Upload File (docs/api.md#upload-file)', () => {
	it('success: 200 with fileId (UUID), fileName, fileType application/pdf, sizeBytes of the decoded bytes', async () => {
		const data = pdfBase64(100);
		const res = await upload('contract.pdf', data);
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

	// A .pdf extension is appended when missing; an existing .PDF is recognised in any case and kept.
	it.each([
		['contract', 'contract.pdf'],
		['scan.docx', 'scan.docx.pdf'],
		['SCAN.PDF', 'SCAN.PDF'],
		[`${'n'.repeat(251)}.pdf`, `${'n'.repeat(251)}.pdf`], // 255 characters are accepted
	])('fileName %s is stored as %s', async (given, stored) => {
		expect((await upload(given, pdfBase64())).body.fileName).toBe(stored);
	});

	it('decoded bytes that are not a PDF → 400 INVALID_FILE_TYPE', async () => {
		const zip = Buffer.from('PK\u0003\u0004 zip').toString('base64');
		expectError(await upload('a.pdf', zip), 400, 'INVALID_FILE_TYPE');
		expect((await upload('a.pdf', '')).body.code).toBe('INVALID_FILE_TYPE');
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
		expectError(await upload('a.pdf', data), 400, 'INVALID_BASE64');
	});

	// The default is 7 MiB (7,340,032 bytes); measured on the decoded bytes, not the base64 text
	// (300 bytes are 400 characters); 7,000,000 plays the decimal reading of "7MB".
	it.each([
		[7 * MIB, 7 * MIB, 200],
		[7 * MIB, 7 * MIB + 1, 413],
		[300, 300, 200],
		[300, 301, 413],
		[7_000_000, 7_000_001, 413],
	])('file size: maxFileBytes %i, %i decoded bytes → %i', async (max, size, status) => {
		expect(sandbox().config.maxFileBytes).toBe(7 * MIB);
		sandbox().config.maxFileBytes = max;
		const res = await upload('a.pdf', pdfBase64(size));
		if (status === 413) expectError(res, 413, 'FILE_TOO_LARGE');
		else expect([res.status, res.body.sizeBytes]).toEqual([200, size]);
	});

	it('file size: a request body too large to hold a legal upload → 413 FILE_TOO_LARGE before parsing', async () => {
		sandbox().config.maxFileBytes = 1000;
		// Not even JSON: the body is refused on its size alone.
		expectError(await raw('x'.repeat(200 * 1024)), 413, 'FILE_TOO_LARGE');
	});

	it('body: fileName is required, at most 255 characters → 400 VALIDATION_ERROR', async () => {
		for (const fileName of [undefined, '', '   ', 42, `${'n'.repeat(252)}.pdf`])
			expectError(await upload(fileName, pdfBase64()), 400, 'VALIDATION_ERROR', 'fileName');
	});

	it('body: data is required → 400 VALIDATION_ERROR', async () => {
		expectError(await upload('a.pdf'), 400, 'VALIDATION_ERROR', 'data');
	});

	it('body: a body that is not JSON → 400 INVALID_JSON', async () => {
		expectError(await raw('{"fileName":'), 400, 'INVALID_JSON');
	});

	it('headers: Content-Type application/json is required → 415 UNSUPPORTED_MEDIA_TYPE', async () => {
		const body = JSON.stringify({ fileName: 'a.pdf', data: pdfBase64() });
		expectError(await raw(body, 'text/plain'), 415, 'UNSUPPORTED_MEDIA_TYPE');
		expect((await raw(body, 'application/json; charset=utf-8')).status).toBe(200);
	});

	// Tokens and scopes on every endpoint: auth.test.ts.
	it('a missing or invalid token → 401 before the body is read, whatever it is, oversized too', async () => {
		const res = await upload('a.pdf', 'not base64!', null);
		expectError(res, 401, 'UNAUTHORIZED');
		expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
		sandbox().config.maxFileBytes = 10;
		expect((await upload('a.pdf', pdfBase64(1000), 'not-a-token')).status).toBe(401);
		expect(sandbox().files.size).toBe(0);
	});

	it('error bodies: { code, message } JSON', async () => {
		const res = await upload('a.pdf', '!!!!');
		expect(res.headers.get('content-type')).toMatch(/^application\/json/);
		expect(res.body).toEqual({ code: 'INVALID_BASE64', message: expect.any(String) });
	});
});
