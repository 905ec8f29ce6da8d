import { describe, expect, it } from 'vitest';
import { blockDocument, createBody, pdfBase64, refusedBy, shown, useApi } from './helpers';

const api = useApi({ now: '2025-06-16T14:22:00.000Z' });
const { sandbox, call, get, upload } = api;
const create = (extra?: Record<string, unknown>) => api.createSession(createBody(extra));
/** Create Session with `createBody(extra)` refused: no session made. */
const refused = refusedBy(sandbox, create);
const invalid = (extra: Record<string, unknown>, field: string) =>
	refused(extra, 400, 'VALIDATION_ERROR', field);
const uploaded = async (token?: string) =>
	(await upload({ fileName: 'terms', data: pdfBase64() }, token)).body.fileId as string;
const blocks = (keys?: string[]) => ({ type: 'blocks', document: blockDocument(keys) });
const people = (...keys: string[]) =>
	keys.map((key, i) => ({ key, name: key.toUpperCase(), email: `${key}${i}@example.com` }));

describe('Create Session (docs/api.md#create-session)', () => {
	it('a draft by default: the session as Get Session shows it, plus draftUrl', async () => {
		const res = await create();
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
				shown({
					recipientId: expect.any(String),
					name: 'Ann Signer',
					email: 'ann@example.com',
					status: 'notSent',
				}),
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
		const { draftUrl: _draftUrl, ...session } = res.body;
		expect((await get(`/Session/${id}`)).body).toEqual(session);
		expect(sandbox().outbox).toEqual([]);
	});

	it('the draftUrl opens a page in the sandbox', async () => {
		const page = await fetch((await create()).body.draftUrl);
		expect(page.status).toBe(200);
		expect(await page.text()).toContain('Service agreement');
	});

	it('sendImmediately: pending with sentAt, invitations emailed, no draftUrl', async () => {
		const res = await create({ sendImmediately: true, expiryDays: 7 });
		expect(res.body).toMatchObject({
			status: 'pending',
			sentAt: '2025-06-16T14:22:00.000Z',
			expiryDate: '2025-06-23T14:22:00.000Z',
		});
		expect(res.body.draftUrl).toBeUndefined();
		expect(sandbox().outbox.map((m) => m.to)).toEqual(['ann@example.com']);
	});

	it('name: 1 to 50 characters', async () => {
		expect((await create({ name: 'n'.repeat(50) })).status).toBe(200);
		sandbox().reset();
		await invalid({ name: 'n'.repeat(51) }, 'name');
		await invalid({ name: '' }, 'name');
	});

	it('files: 1 to 10 entries', async () => {
		await invalid({ files: [] }, 'files');
		await invalid({ files: Array.from({ length: 11 }, () => ({ type: 'pageBreak' })) }, 'files');
	});

	it('files: at least one block document, else NO_BLOCK_DOCUMENT', async () => {
		const files = [{ type: 'uploadedPdf', fileId: await uploaded() }];
		await refused({ files }, 400, 'NO_BLOCK_DOCUMENT', 'files');
	});

	it('uploaded PDFs ride along as reference documents (fileName optional)', async () => {
		const fileId = await uploaded();
		const res = await create({
			files: [
				blocks(),
				{ type: 'uploadedPdf', fileId },
				{ type: 'uploadedPdf', fileId, fileName: 'Schedule A.pdf' },
			],
		});
		expect(res.status).toBe(200);
		expect(res.body.files.slice(1)).toEqual([
			{ fileId, fileName: 'terms.pdf', fileType: 'application/pdf' },
			{ fileId, fileName: 'Schedule A.pdf', fileType: 'application/pdf' },
		]);
	});

	it("an uploaded file that does not exist, or is another organisation's → FILE_NOT_FOUND", async () => {
		const theirs = await uploaded(sandbox().other.accessToken);
		const files = [blocks(), { type: 'uploadedPdf', fileId: theirs }];
		await refused({ files }, 400, 'FILE_NOT_FOUND', 'files[1].fileId');
	});

	it('recipients: 1 to 20', async () => {
		await invalid({ recipients: [] }, 'recipients');
		const keys = Array.from({ length: 21 }, (_, i) => `r${i}`);
		await invalid({ recipients: people(...keys), files: [blocks(keys)] }, 'recipients');
	});

	it('recipient keys: letters, digits, "_" and "-"; unique (DUPLICATE_RECIPIENT_KEY)', async () => {
		const withKeys = (...keys: string[]) => ({
			recipients: people(...keys),
			files: [blocks(keys)],
		});
		expect((await create(withKeys('A_b-9'))).status).toBe(200);
		sandbox().reset();
		await invalid(withKeys('a b'), 'recipients[0].key');
		await refused(withKeys('a', 'a'), 400, 'DUPLICATE_RECIPIENT_KEY', 'recipients[1].key');
	});

	it('recipients need a name and an email that is an email', async () => {
		const recipients = [{ key: 'ann', name: 'Ann', email: 'not-an-email' }];
		await invalid({ recipients }, 'recipients[0].email');
		await invalid({ recipients: [{ key: 'ann', email: 'ann@example.com' }] }, 'recipients[0].name');
	});

	it('signingOrder orders the recipients', async () => {
		const [ann, bob] = people('ann', 'bob');
		const recipients = [
			{ ...ann, signingOrder: 2 },
			{ ...bob, signingOrder: 1 },
		];
		const res = await create({ recipients, files: [blocks(['ann', 'bob'])] });
		expect(res.body.recipients.map((r: { name: string }) => r.name)).toEqual(['BOB', 'ANN']);
	});

	it('expiryDays 1 to 730; reminderFrequency daily, weekly, monthly, quarterly', async () => {
		await invalid({ expiryDays: 0 }, 'expiryDays');
		await invalid({ expiryDays: 731 }, 'expiryDays');
		await invalid({ reminderFrequency: 'hourly' }, 'reminderFrequency');
		const settings = { expiryDays: 730, reminderEnabled: true, reminderFrequency: 'quarterly' };
		const res = await create(settings);
		expect(res.status).toBe(200);
		expect(sandbox().getSession(res.body.sessionId)).toMatchObject(settings);
	});

	it('plan feature "Session Expiry": expiry or reminders without it → 403 naming the feature', async () => {
		sandbox().setPlanFeatures(sandbox().demo.orgId, []);
		for (const extra of [
			{ expiryDays: 5 },
			{ reminderEnabled: false },
			{ reminderFrequency: 'daily' },
		]) {
			const res = await refused(extra, 403, 'PLAN_FEATURE_UNAVAILABLE');
			expect(res.body.feature).toBe('Session Expiry');
			expect(res.body.message).toContain('Session Expiry');
		}
		expect((await create()).status).toBe(200);
	});

	it('not idempotent: the same body twice makes two sessions', async () => {
		await create();
		await create();
		expect(sandbox().listAllSessions()).toHaveLength(2);
	});

	it('a body that is not JSON → 400 INVALID_JSON; not an object → VALIDATION_ERROR', async () => {
		const bad = await call('POST', '/api/v1/Session', {
			body: '{',
			headers: { 'Content-Type': 'application/json' },
		});
		expect(bad.body.code).toBe('INVALID_JSON');
		expect((await api.createSession([1])).body).toMatchObject({
			code: 'VALIDATION_ERROR',
			field: 'body',
		});
	});
});
