import { describe, expect, it } from 'vitest';
import { DEMO_SENDER_PROFILE_ID } from '../../sandbox';
import { blockDocument, refusedBy, UNKNOWN_ID, useApi } from './helpers';

const { sandbox, post, fromTemplate, activeTemplate } = useApi({ now: '2025-07-02T16:19:36.250Z' });
const employee = { name: 'Ann Lee', email: 'ann@example.com' };
const valid = (templateId: string, extra: Record<string, unknown> = {}) => ({
	templateId,
	recipients: [employee],
	variableValues: { startDate: '2025-08-01' },
	...extra,
});
const refused = refusedBy(sandbox, (json: unknown) => fromTemplate(json));
const invalid = (json: unknown, field: string) => refused(json, 400, 'VALIDATION_ERROR', field);
const people = (res: { body: { recipients: Array<{ name: string; email: string }> } }) =>
	res.body.recipients.map((r) => [r.name, r.email]);
const HR = { key: 'hr', name: 'HR', email: 'hr@example.com' };

describe('Create Session From Template (docs/api.md#create-session-from-template)', () => {
	it('a draft named after the template, recipients replaced by position, tokens filled; zone-less timestamps', async () => {
		const template = activeTemplate();
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
		expect(res.body.createdAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
		expect(people(res)).toEqual([
			['Ann Lee', 'ann@example.com'],
			['Manager', 'boss@example.com'],
		]);
		const stored = sandbox().getSession(res.body.sessionId)!;
		expect(stored.templateId).toBe(template.templateId);
		const { document } = stored.files[0] as {
			document: { title: string; blocks: Array<{ text?: string }> };
		};
		expect(document.title).toBe('Offer for 2025-08-01');
		expect(document.blocks[0].text).toBe('Salary 1000 from 2025-08-01.');
		// Get Session shows the same session with ISO timestamps.
		expect(stored.createdAt).toBe('2025-07-02T16:19:36.250Z');
	});

	it('only templateId is required when the template needs nothing', async () => {
		const { templateId } = sandbox().createTemplate({ status: 'active', recipients: [HR] });
		const res = await fromTemplate({ templateId, name: 'Mine', sendImmediately: true });
		expect(res.body).toMatchObject({
			name: 'Mine',
			status: 'pending',
			sentAt: '2025-07-02 16:19:36',
		});
		expect(sandbox().outbox.map((m) => m.to)).toEqual(['hr@example.com']);
	});

	it('a template created with subtitle and footerLabel null (both optional) fills like one without them', async () => {
		const document = blockDocument(['hr'], { subtitle: null, footerLabel: null });
		const body = { name: 'Plain', document, recipients: [HR], activate: true };
		const created = await post(
			'/Template',
			body,
			sandbox().issueToken({ scopes: ['write:templates'] }),
		);
		expect(created.status).toBe(200);
		const res = await fromTemplate({ templateId: created.body.templateId });
		expect(res.status).toBe(200);
		const stored = sandbox().getSession(res.body.sessionId)!;
		expect(stored.files[0]).toMatchObject({
			document: { title: 'Service agreement', subtitle: null, footerLabel: null },
		});
	});

	it("an unknown or another organisation's template → 404; a draft template → TEMPLATE_NOT_ACTIVE", async () => {
		const theirs = sandbox().createTemplate({ orgId: sandbox().other.orgId, status: 'active' });
		await refused(valid(theirs.templateId), 404, 'NOT_FOUND');
		await refused(valid(UNKNOWN_ID), 404, 'NOT_FOUND');
		const draft = activeTemplate({ status: 'draft' });
		await refused(valid(draft.templateId), 400, 'TEMPLATE_NOT_ACTIVE', 'templateId');
		await invalid({}, 'templateId');
	});

	it('more recipients than the template has → TOO_MANY_RECIPIENTS', async () => {
		const json = valid(activeTemplate().templateId, {
			recipients: [employee, employee, employee],
		});
		await refused(json, 400, 'TOO_MANY_RECIPIENTS', 'recipients');
	});

	it('a recipient with no email in the template must be given one (VALIDATION_ERROR)', async () => {
		const id = activeTemplate().templateId;
		await invalid(valid(id, { recipients: [] }), 'recipients[0]');
		const recipients = [{ name: 'Ann', email: 'nope' }];
		await invalid(valid(id, { recipients }), 'recipients[0].email');
	});

	it('a recipient with no name in the template must be given one (VALIDATION_ERROR), as one with no email', async () => {
		const { templateId } = sandbox().createTemplate({
			status: 'active',
			recipients: [{ key: 'witness', name: '', email: 'witness@example.com' }, HR],
		});
		await invalid({ templateId }, 'recipients[0]');
		const recipients = [{ name: ' ', email: 'witness@example.com' }];
		await invalid({ templateId, recipients }, 'recipients[0].name');
		const ok = await fromTemplate({
			templateId,
			recipients: [{ name: 'Wes', email: 'witness@example.com' }],
		});
		expect(ok.status).toBe(200);
		expect(people(ok)).toEqual([
			['Wes', 'witness@example.com'],
			['HR', 'hr@example.com'],
		]);
	});

	it('every required variable must be given → MISSING_VARIABLES naming them', async () => {
		const json = valid(activeTemplate().templateId, { variableValues: {} });
		expect((await refused(json, 400, 'MISSING_VARIABLES')).body.missing).toEqual(['startDate']);
	});

	it('variable values by type: number as a number, image a fileId, table headers and data; unknown names refused', async () => {
		const { templateId } = sandbox().createTemplate({
			status: 'active',
			recipients: [HR],
			variables: [
				{ name: 'amount', type: 'number', required: false },
				{ name: 'logo', type: 'image', required: false },
				{ name: 'items', type: 'table', required: false },
			],
		});
		for (const [name, value] of [
			['amount', '12'],
			['logo', 'x'],
			['items', { headers: ['a'] }],
			['other', 'x'],
		] as const)
			await invalid({ templateId, variableValues: { [name]: value } }, `variableValues.${name}`);
		const ok = await fromTemplate({
			templateId,
			variableValues: {
				amount: 12,
				logo: DEMO_SENDER_PROFILE_ID,
				items: { headers: ['a'], data: [['1']] },
			},
		});
		expect(ok.status).toBe(200);
	});

	it('settings: expiry (null = never) and reminders are inherited unless given', async () => {
		const settings = { expiryDays: 14, reminderEnabled: true, reminderFrequency: 'weekly' };
		const { templateId } = activeTemplate(settings);
		const inherited = await fromTemplate(valid(templateId));
		expect(sandbox().getSession(inherited.body.sessionId)).toMatchObject(settings);
		const given = { expiryDays: null, reminderFrequency: 'daily' };
		const never = await fromTemplate(valid(templateId, given));
		expect(sandbox().getSession(never.body.sessionId)).toMatchObject(given);
	});

	it('senderProfileId must be a verified profile; tags are UUIDs; completion email recipients from the list', async () => {
		const id = activeTemplate().templateId;
		await invalid(valid(id, { senderProfileId: UNKNOWN_ID }), 'senderProfileId');
		await invalid(valid(id, { tagIds: ['tag'] }), 'tagIds');
		const everyone = { overrideCompletionEmailRecipients: 'everyone' };
		await invalid(valid(id, everyone), 'overrideCompletionEmailRecipients');
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
		const id = activeTemplate().templateId;
		const features = ['Session Expiry', 'Sender Profiles', 'Completion Email Recipients'];
		for (const [extra, feature] of [
			[{ expiryDays: 3 }, 'Session Expiry'],
			[{ reminderEnabled: true }, 'Session Expiry'],
			[{ senderProfileId: DEMO_SENDER_PROFILE_ID }, 'Sender Profiles'],
			[{ overrideCompletionEmailRecipients: 'none' }, 'Completion Email Recipients'],
		] as Array<[Record<string, unknown>, string]>) {
			const others = features.filter((f) => f !== feature);
			sandbox().setPlanFeatures(sandbox().demo.orgId, others as never);
			const res = await refused(valid(id, extra), 403, 'PLAN_FEATURE_UNAVAILABLE');
			expect(res.body.feature).toBe(feature);
		}
	});

	it('name 1–50 (tokens and scope: auth.test.ts)', async () => {
		await invalid(valid(activeTemplate().templateId, { name: 'n'.repeat(51) }), 'name');
	});
});
