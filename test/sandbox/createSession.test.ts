import { describe, expect, it } from 'vitest';
import { call, pdfBase64 } from './helpers';
import { blockDocument, createBody, createSessionCall } from './publicHelpers';
import { useSandbox } from '../harness/sandbox';

const sandbox = useSandbox({ now: '2025-06-16T14:22:00.000Z' });
const create = (json: unknown, token?: string | null) => createSessionCall(sandbox(), json, token);
const refused = async (json: unknown, status: number, code: string, field?: string) => {
	const res = await create(json);
	expect(res.status).toBe(status);
	expect(res.body).toMatchObject({ code, ...(field && { field }) });
	expect(sandbox().listAllSessions()).toEqual([]);
	return res;
};
const upload = async (token?: string) =>
	(
		await call(sandbox(), 'POST', '/api/v1/File', {
			json: { fileName: 'terms', data: pdfBase64() },
			token,
		})
	).body.fileId as string;

describe('Create Session (docs/api.md#create-session)', () => {
	it('a draft by default: the session as Get Session shows it, plus draftUrl', async () => {
		const res = await create(createBody());
		expect(res.status).toBe(200);
		const id = res.body.sessionId;
		expect(res.body).toEqual({
			sessionId: id,
			name: 'Service agreement',
			status: 'draft',
			selfSignOnly: false,
			sessionType: 'offlineSigning',
			createdAt: '2025-06-16T14:22:00.000Z',
			updatedAt: '2025-06-16T14:22:00.000Z',
			completedDate: null,
			expiryDate: null,
			recipients: [
				{
					recipientId: expect.any(String),
					name: 'Ann Signer',
					email: 'ann@example.com',
					status: 'notSent',
					recipientType: 'toCompleteEmail',
					signingOrder: 1,
				},
			],
			files: [
				{
					fileId: expect.any(String),
					fileName: 'Service agreement.pdf',
					fileType: 'application/pdf',
				},
			],
			draftUrl: `${sandbox().baseUrl}/app/sessions/${id}/edit`,
		});
		expect((await call(sandbox(), 'GET', `/api/v1/Session/${id}`)).body).toEqual(
			Object.fromEntries(Object.entries(res.body).filter(([k]) => k !== 'draftUrl')),
		);
		expect(sandbox().outbox).toEqual([]);
	});

	it('the draftUrl opens a page in the sandbox', async () => {
		const res = await create(createBody());
		const page = await fetch(res.body.draftUrl);
		expect(page.status).toBe(200);
		expect(await page.text()).toContain('Service agreement');
	});

	it('sendImmediately: pending with sentAt, invitations emailed, no draftUrl', async () => {
		const res = await create(createBody({ sendImmediately: true, expiryDays: 7 }));
		expect(res.body).toMatchObject({
			status: 'pending',
			sentAt: '2025-06-16T14:22:00.000Z',
			expiryDate: '2025-06-23T14:22:00.000Z',
		});
		expect(res.body.draftUrl).toBeUndefined();
		expect(sandbox().outbox.map((m) => m.to)).toEqual(['ann@example.com']);
	});

	it('name: 1 to 50 characters', async () => {
		expect((await create(createBody({ name: 'n'.repeat(50) }))).status).toBe(200);
		sandbox().reset();
		await refused(createBody({ name: 'n'.repeat(51) }), 400, 'VALIDATION_ERROR', 'name');
		await refused(createBody({ name: '' }), 400, 'VALIDATION_ERROR', 'name');
	});

	it('files: 1 to 10 entries', async () => {
		await refused(createBody({ files: [] }), 400, 'VALIDATION_ERROR', 'files');
		const eleven = Array.from({ length: 11 }, () => ({ type: 'pageBreak' }));
		await refused(createBody({ files: eleven }), 400, 'VALIDATION_ERROR', 'files');
	});

	it('files: at least one block document, else NO_BLOCK_DOCUMENT', async () => {
		const fileId = await upload();
		await refused(
			createBody({ files: [{ type: 'uploadedPdf', fileId }] }),
			400,
			'NO_BLOCK_DOCUMENT',
			'files',
		);
	});

	it('uploaded PDFs ride along as reference documents (fileName optional)', async () => {
		const fileId = await upload();
		const res = await create(
			createBody({
				files: [
					{ type: 'blocks', document: blockDocument() },
					{ type: 'uploadedPdf', fileId },
					{ type: 'uploadedPdf', fileId, fileName: 'Schedule A.pdf' },
				],
			}),
		);
		expect(res.status).toBe(200);
		expect(res.body.files.slice(1)).toEqual([
			{ fileId, fileName: 'terms.pdf', fileType: 'application/pdf' },
			{ fileId, fileName: 'Schedule A.pdf', fileType: 'application/pdf' },
		]);
	});

	it("an uploaded file that does not exist, or is another organisation's → FILE_NOT_FOUND", async () => {
		const theirs = await upload(sandbox().other.accessToken);
		await refused(
			createBody({
				files: [
					{ type: 'blocks', document: blockDocument() },
					{ type: 'uploadedPdf', fileId: theirs },
				],
			}),
			400,
			'FILE_NOT_FOUND',
			'files[1].fileId',
		);
	});

	it('recipients: 1 to 20', async () => {
		await refused(createBody({ recipients: [] }), 400, 'VALIDATION_ERROR', 'recipients');
		const keys = Array.from({ length: 21 }, (_, i) => `r${i}`);
		await refused(
			createBody({
				recipients: keys.map((key) => ({ key, name: key, email: `${key}@example.com` })),
				files: [{ type: 'blocks', document: blockDocument(keys) }],
			}),
			400,
			'VALIDATION_ERROR',
			'recipients',
		);
	});

	it('recipient keys: letters, digits, "_" and "-"; unique (DUPLICATE_RECIPIENT_KEY)', async () => {
		const doc = (keys: string[]) => [{ type: 'blocks', document: blockDocument(keys) }];
		expect(
			(
				await create(
					createBody({
						recipients: [{ key: 'A_b-9', name: 'A', email: 'a@example.com' }],
						files: doc(['A_b-9']),
					}),
				)
			).status,
		).toBe(200);
		sandbox().reset();
		await refused(
			createBody({
				recipients: [{ key: 'a b', name: 'A', email: 'a@example.com' }],
				files: doc(['a b']),
			}),
			400,
			'VALIDATION_ERROR',
			'recipients[0].key',
		);
		await refused(
			createBody({
				recipients: [
					{ key: 'a', name: 'A', email: 'a@example.com' },
					{ key: 'a', name: 'B', email: 'b@example.com' },
				],
				files: doc(['a']),
			}),
			400,
			'DUPLICATE_RECIPIENT_KEY',
			'recipients[1].key',
		);
	});

	it('recipients need a name and an email that is an email', async () => {
		await refused(
			createBody({ recipients: [{ key: 'ann', name: 'Ann', email: 'not-an-email' }] }),
			400,
			'VALIDATION_ERROR',
			'recipients[0].email',
		);
		await refused(
			createBody({ recipients: [{ key: 'ann', email: 'ann@example.com' }] }),
			400,
			'VALIDATION_ERROR',
			'recipients[0].name',
		);
	});

	it('signingOrder orders the recipients', async () => {
		const res = await create(
			createBody({
				recipients: [
					{ key: 'ann', name: 'Ann', email: 'ann@example.com', signingOrder: 2 },
					{ key: 'bob', name: 'Bob', email: 'bob@example.com', signingOrder: 1 },
				],
				files: [{ type: 'blocks', document: blockDocument(['ann', 'bob']) }],
			}),
		);
		expect(res.body.recipients.map((r: { name: string }) => r.name)).toEqual(['Bob', 'Ann']);
	});

	it('expiryDays 1 to 730; reminderFrequency daily, weekly, monthly, quarterly', async () => {
		await refused(createBody({ expiryDays: 0 }), 400, 'VALIDATION_ERROR', 'expiryDays');
		await refused(createBody({ expiryDays: 731 }), 400, 'VALIDATION_ERROR', 'expiryDays');
		await refused(
			createBody({ reminderFrequency: 'hourly' }),
			400,
			'VALIDATION_ERROR',
			'reminderFrequency',
		);
		const res = await create(
			createBody({ expiryDays: 730, reminderEnabled: true, reminderFrequency: 'quarterly' }),
		);
		expect(res.status).toBe(200);
		expect(sandbox().getSession(res.body.sessionId)).toMatchObject({
			expiryDays: 730,
			reminderEnabled: true,
			reminderFrequency: 'quarterly',
		});
	});

	it('plan feature "Session Expiry": expiry or reminders without it → 403 naming the feature', async () => {
		sandbox().setPlanFeatures(sandbox().demo.orgId, []);
		for (const extra of [
			{ expiryDays: 5 },
			{ reminderEnabled: false },
			{ reminderFrequency: 'daily' },
		]) {
			const res = await refused(createBody(extra), 403, 'PLAN_FEATURE_UNAVAILABLE');
			expect(res.body.feature).toBe('Session Expiry');
			expect(res.body.message).toContain('Session Expiry');
		}
		expect((await create(createBody())).status).toBe(200);
	});

	it('scope write:sessions (403 INSUFFICIENT_SCOPE); 401 without a token', async () => {
		const token = sandbox().issueToken({ scopes: ['write:files'] });
		expect((await create(createBody(), token)).body.code).toBe('INSUFFICIENT_SCOPE');
		expect((await create(createBody(), null)).status).toBe(401);
	});

	it('not idempotent: the same body twice makes two sessions', async () => {
		await create(createBody());
		await create(createBody());
		expect(sandbox().listAllSessions()).toHaveLength(2);
	});

	it('a body that is not JSON → 400 INVALID_JSON; not an object → VALIDATION_ERROR', async () => {
		const bad = await call(sandbox(), 'POST', '/api/v1/Session', {
			body: '{',
			headers: { 'Content-Type': 'application/json' },
		});
		expect(bad.body.code).toBe('INVALID_JSON');
		expect((await create([1])).body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'body' });
	});
});
