import { describe, expect, it } from 'vitest';
import { DEMO_SENDER_PROFILE_ID } from '../../sandbox';
import { activeTemplate, fromTemplateCall, ZONELESS } from './publicHelpers';
import { useSandbox } from '../harness/sandbox';

const sandbox = useSandbox({ now: '2025-07-02T16:19:36.250Z' });
const fromTemplate = (json: unknown, token?: string | null) =>
	fromTemplateCall(sandbox(), json, token);
const employee = { name: 'Ann Lee', email: 'ann@example.com' };
const valid = (templateId: string, extra: Record<string, unknown> = {}) => ({
	templateId,
	recipients: [employee],
	variableValues: { startDate: '2025-08-01' },
	...extra,
});
const refused = async (json: unknown, status: number, code: string, field?: string) => {
	const res = await fromTemplate(json);
	expect(res.status).toBe(status);
	expect(res.body).toMatchObject({ code, ...(field && { field }) });
	expect(sandbox().listAllSessions()).toEqual([]);
	return res;
};

describe('Create Session From Template (docs/api.md#create-session-from-template)', () => {
	it('a draft named after the template, recipients replaced by position, tokens filled; zone-less timestamps', async () => {
		const template = activeTemplate(sandbox());
		const res = await fromTemplate(valid(template.templateId));
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({
			name: 'Offer',
			status: 'draft',
			createdAt: '2025-07-02 16:19:36',
			updatedAt: '2025-07-02 16:19:36',
			completedDate: null,
			draftUrl: `${sandbox().baseUrl}/app/sessions/${res.body.sessionId}/edit`,
		});
		expect(res.body.createdAt).toMatch(ZONELESS);
		expect(
			res.body.recipients.map((r: { name: string; email: string }) => [r.name, r.email]),
		).toEqual([
			['Ann Lee', 'ann@example.com'],
			['Manager', 'boss@example.com'],
		]);
		const stored = sandbox().getSession(res.body.sessionId)!;
		expect(stored.templateId).toBe(template.templateId);
		const document = (
			stored.files[0] as { document: { title: string; blocks: Array<{ text?: string }> } }
		).document;
		expect(document.title).toBe('Offer for 2025-08-01');
		expect(document.blocks[0].text).toBe('Salary 1000 from 2025-08-01.');
		// Get Session shows the same session with ISO timestamps.
		expect(stored.createdAt).toBe('2025-07-02T16:19:36.250Z');
	});

	it('only templateId is required when the template needs nothing', async () => {
		const template = sandbox().createTemplate({
			status: 'active',
			recipients: [{ key: 'hr', name: 'HR', email: 'hr@example.com' }],
		});
		const res = await fromTemplate({
			templateId: template.templateId,
			name: 'Mine',
			sendImmediately: true,
		});
		expect(res.body).toMatchObject({
			name: 'Mine',
			status: 'pending',
			sentAt: '2025-07-02 16:19:36',
		});
		expect(sandbox().outbox.map((m) => m.to)).toEqual(['hr@example.com']);
	});

	it("an unknown or another organisation's template → 404; a draft template → TEMPLATE_NOT_ACTIVE", async () => {
		const theirs = sandbox().createTemplate({ orgId: sandbox().other.orgId, status: 'active' });
		await refused(valid(theirs.templateId), 404, 'NOT_FOUND');
		await refused(valid('3f2b8a1e-7c4d-4e8f-9a0b-1c2d3e4f5a6b'), 404, 'NOT_FOUND');
		const draft = activeTemplate(sandbox(), { status: 'draft' });
		await refused(valid(draft.templateId), 400, 'TEMPLATE_NOT_ACTIVE', 'templateId');
		await refused({}, 400, 'VALIDATION_ERROR', 'templateId');
	});

	it('more recipients than the template has → TOO_MANY_RECIPIENTS', async () => {
		const template = activeTemplate(sandbox());
		const three = [employee, employee, employee];
		await refused(
			valid(template.templateId, { recipients: three }),
			400,
			'TOO_MANY_RECIPIENTS',
			'recipients',
		);
	});

	it('a recipient with no email in the template must be given one (VALIDATION_ERROR)', async () => {
		const template = activeTemplate(sandbox());
		await refused(
			valid(template.templateId, { recipients: [] }),
			400,
			'VALIDATION_ERROR',
			'recipients[0]',
		);
		await refused(
			valid(template.templateId, { recipients: [{ name: 'Ann', email: 'nope' }] }),
			400,
			'VALIDATION_ERROR',
			'recipients[0].email',
		);
	});

	it('a recipient with no name in the template must be given one (VALIDATION_ERROR), as one with no email', async () => {
		const template = sandbox().createTemplate({
			status: 'active',
			recipients: [
				{ key: 'witness', name: '', email: 'witness@example.com' },
				{ key: 'hr', name: 'HR', email: 'hr@example.com' },
			],
		});
		const id = template.templateId;
		await refused({ templateId: id }, 400, 'VALIDATION_ERROR', 'recipients[0]');
		await refused(
			{ templateId: id, recipients: [{ name: ' ', email: 'witness@example.com' }] },
			400,
			'VALIDATION_ERROR',
			'recipients[0].name',
		);
		const ok = await fromTemplate({
			templateId: id,
			recipients: [{ name: 'Wes', email: 'witness@example.com' }],
		});
		expect(ok.status).toBe(200);
		expect(
			ok.body.recipients.map((r: { name: string; email: string }) => [r.name, r.email]),
		).toEqual([
			['Wes', 'witness@example.com'],
			['HR', 'hr@example.com'],
		]);
	});

	it('every required variable must be given → MISSING_VARIABLES naming them', async () => {
		const template = activeTemplate(sandbox());
		const res = await refused(
			valid(template.templateId, { variableValues: {} }),
			400,
			'MISSING_VARIABLES',
		);
		expect(res.body.missing).toEqual(['startDate']);
	});

	it('variable values by type: number as a number, image a fileId, table headers and data; unknown names refused', async () => {
		const template = sandbox().createTemplate({
			status: 'active',
			recipients: [{ key: 'hr', name: 'HR', email: 'hr@example.com' }],
			variables: [
				{ name: 'amount', type: 'number', required: false },
				{ name: 'logo', type: 'image', required: false },
				{ name: 'items', type: 'table', required: false },
			],
		});
		const id = template.templateId;
		await refused(
			{ templateId: id, variableValues: { amount: '12' } },
			400,
			'VALIDATION_ERROR',
			'variableValues.amount',
		);
		await refused(
			{ templateId: id, variableValues: { logo: 'x' } },
			400,
			'VALIDATION_ERROR',
			'variableValues.logo',
		);
		await refused(
			{ templateId: id, variableValues: { items: { headers: ['a'] } } },
			400,
			'VALIDATION_ERROR',
			'variableValues.items',
		);
		await refused(
			{ templateId: id, variableValues: { other: 'x' } },
			400,
			'VALIDATION_ERROR',
			'variableValues.other',
		);
		const ok = await fromTemplate({
			templateId: id,
			variableValues: {
				amount: 12,
				logo: DEMO_SENDER_PROFILE_ID,
				items: { headers: ['a'], data: [['1']] },
			},
		});
		expect(ok.status).toBe(200);
	});

	it('settings: expiry (null = never) and reminders are inherited unless given', async () => {
		const template = activeTemplate(sandbox(), {
			expiryDays: 14,
			reminderEnabled: true,
			reminderFrequency: 'weekly',
		});
		const inherited = await fromTemplate(valid(template.templateId));
		expect(sandbox().getSession(inherited.body.sessionId)).toMatchObject({
			expiryDays: 14,
			reminderEnabled: true,
			reminderFrequency: 'weekly',
		});
		const never = await fromTemplate(
			valid(template.templateId, { expiryDays: null, reminderFrequency: 'daily' }),
		);
		expect(sandbox().getSession(never.body.sessionId)).toMatchObject({
			expiryDays: null,
			reminderFrequency: 'daily',
		});
	});

	it('senderProfileId must be a verified profile; tags are UUIDs; completion email recipients from the list', async () => {
		const id = activeTemplate(sandbox()).templateId;
		await refused(
			valid(id, { senderProfileId: '3f2b8a1e-7c4d-4e8f-9a0b-1c2d3e4f5a6b' }),
			400,
			'VALIDATION_ERROR',
			'senderProfileId',
		);
		await refused(valid(id, { tagIds: ['tag'] }), 400, 'VALIDATION_ERROR', 'tagIds');
		await refused(
			valid(id, { overrideCompletionEmailRecipients: 'everyone' }),
			400,
			'VALIDATION_ERROR',
			'overrideCompletionEmailRecipients',
		);
		const tag = '11111111-2222-4333-8444-555555555555';
		const ok = await fromTemplate(
			valid(id, {
				senderProfileId: DEMO_SENDER_PROFILE_ID,
				tagIds: [tag],
				overrideCompletionEmailRecipients: 'sender_only',
			}),
		);
		expect(sandbox().getSession(ok.body.sessionId)).toMatchObject({
			senderProfileId: DEMO_SENDER_PROFILE_ID,
			tagIds: [tag],
			completionEmailRecipients: 'sender_only',
		});
	});

	it('each plan feature the organisation lacks → 403 naming it', async () => {
		const id = activeTemplate(sandbox()).templateId;
		const cases: Array<[Record<string, unknown>, string]> = [
			[{ expiryDays: 3 }, 'Session Expiry'],
			[{ reminderEnabled: true }, 'Session Expiry'],
			[{ senderProfileId: DEMO_SENDER_PROFILE_ID }, 'Sender Profiles'],
			[{ overrideCompletionEmailRecipients: 'none' }, 'Completion Email Recipients'],
		];
		for (const [extra, feature] of cases) {
			sandbox().setPlanFeatures(
				sandbox().demo.orgId,
				['Session Expiry', 'Sender Profiles', 'Completion Email Recipients'].filter(
					(f) => f !== feature,
				) as never,
			);
			const res = await refused(valid(id, extra), 403, 'PLAN_FEATURE_UNAVAILABLE');
			expect(res.body.feature).toBe(feature);
		}
	});

	it('name 1–50; scope write:sessions', async () => {
		const id = activeTemplate(sandbox()).templateId;
		await refused(valid(id, { name: 'n'.repeat(51) }), 400, 'VALIDATION_ERROR', 'name');
		const res = await fromTemplate(valid(id), sandbox().issueToken({ scopes: ['write:files'] }));
		expect(res.body.code).toBe('INSUFFICIENT_SCOPE');
	});
});
