import { describe, expect, it } from 'vitest';
import { blockDocument, expectError, shown, UNKNOWN_ID, useApi } from './helpers';

const api = useApi({ now: '2025-06-16T14:22:00.000Z' });
const { sandbox, get, control, activeTemplate } = api;
const listTemplates = (query = '') => get(`/Templates${query ? `?${query}` : ''}`);
const names = (res: { body: { templates: Array<{ name: string }> } }) =>
	res.body.templates.map((t) => t.name);
const templateBody = (extra: Record<string, unknown> = {}) => ({
	name: 'Offer letter',
	document: {
		...blockDocument(['employee']),
		blocks: [
			{ type: 'paragraph', text: 'Dear {{{employeeName}}}, you start on {{{ startDate }}}.' },
			{ type: 'signatureBlock', recipient: 'employee', label: 'Employee' },
		],
	},
	recipients: [{ key: 'employee', name: 'Employee', email: '{{{employeeEmail}}}' }],
	variables: [
		{ name: 'employeeName' },
		{ name: 'startDate', type: 'date' },
		{ name: 'employeeEmail' },
	],
	...extra,
});
/** Create Template with `templateBody(extra)`, with a write:templates token. */
const create = (extra?: Record<string, unknown>) =>
	api.post('/Template', templateBody(extra), sandbox().issueToken({ scopes: ['write:templates'] }));
const TIMES = { createdAt: '2025-06-16T14:22:00.000Z', updatedAt: '2025-06-16T14:22:00.000Z' };
const role = (name: string, email: string, signingOrder: number) =>
	shown({ recipientId: 'default', name, email, signingOrder });
const variable = (
	name: string,
	displayName: string,
	type: string,
	required: boolean,
	defaultValue: unknown,
) => ({
	variableId: expect.any(String),
	name,
	displayName,
	type,
	required,
	defaultValue,
	description: '',
});

describe('List Templates (docs/api.md#list-templates)', () => {
	it('default status active, sorted by name; items carry recipientCount and hasVariables', async () => {
		activeTemplate({ name: 'Beta' });
		sandbox().createTemplate({ name: 'Alpha', status: 'active' });
		sandbox().createTemplate({ name: 'Draft one' });
		const res = await listTemplates();
		expect(res.status).toBe(200);
		expect(names(res)).toEqual(['Alpha', 'Beta']);
		expect(res.body.templates[1]).toEqual({
			templateId: expect.any(String),
			name: 'Beta',
			status: 'active',
			selfSignOnly: false,
			...TIMES,
			recipientCount: 2,
			hasVariables: true,
		});
		expect(res.body.pagination).toEqual({ total: 2, limit: 50, offset: 0, hasMore: false });
		expect(names(await listTemplates('status=draft'))[0]).toBe('Draft one');
	});

	it('limit (at most 100) and offset page the list', async () => {
		for (let i = 0; i < 5; i++) sandbox().createTemplate({ name: `T${i}`, status: 'active' });
		const page = await listTemplates('limit=2&offset=2');
		expect(names(page)).toEqual(['T2', 'T3']);
		expect(page.body.pagination).toEqual({ total: 5, limit: 2, offset: 2, hasMore: true });
		expect((await listTemplates('limit=101')).body).toMatchObject({
			code: 'VALIDATION_ERROR',
			field: 'limit',
		});
		expect((await listTemplates('status=archived')).body.field).toBe('status');
	});

	it("only the caller's organisation's templates", async () => {
		sandbox().createTemplate({ orgId: sandbox().other.orgId, status: 'active' });
		expect((await listTemplates()).body.templates).toEqual([]);
	});
});

describe('Get Template (docs/api.md#get-template)', () => {
	it('recipients with recipientId "default" and the role name; variables in full', async () => {
		const template = activeTemplate();
		const res = await get(`/Template/${template.templateId}`);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			templateId: template.templateId,
			name: 'Offer',
			status: 'active',
			selfSignOnly: false,
			...TIMES,
			files: [{ fileId: expect.any(String), fileName: 'Offer for {{{startDate}}}.pdf' }],
			recipients: [role('Employee', '', 1), role('Manager', 'boss@example.com', 2)],
			variables: [
				variable('startDate', 'Start date', 'date', true, null),
				variable('salary', 'salary', 'number', false, 1000),
			],
		});
	});

	it("unknown, malformed or another organisation's id → 404", async () => {
		const theirs = sandbox().createTemplate({ orgId: sandbox().other.orgId });
		for (const id of [theirs.templateId, UNKNOWN_ID, 'nope'])
			expect((await get(`/Template/${id}`)).status).toBe(404);
	});
});

describe('Create Template (docs/api.md#create-template)', () => {
	it('a draft by default, with editorUrl; tokens declared; the answer is the template as Get Template shows it', async () => {
		const res = await create();
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({ name: 'Offer letter', status: 'draft' });
		expect(res.body.editorUrl).toBe(
			`${sandbox().baseUrl}/app/templates/${res.body.templateId}/edit`,
		);
		expect(res.body.variables).toMatchObject([
			{ name: 'employeeName', type: 'text', required: true },
			{ name: 'startDate', type: 'date', required: true },
			{ name: 'employeeEmail', type: 'text', required: true },
		]);
		expect(res.body.recipients[0]).toMatchObject({
			name: 'Employee',
			email: '{{{employeeEmail}}}',
		});
	});

	it('activate: true makes it active at once', async () => {
		expect((await create({ activate: true })).body.status).toBe('active');
	});

	it('a token that is not declared → UNDECLARED_VARIABLE', async () => {
		const res = await create({ variables: [{ name: 'employeeName' }, { name: 'employeeEmail' }] });
		expect(res.body).toMatchObject({ code: 'UNDECLARED_VARIABLE', field: 'variables' });
		expect(res.body.message).toContain('startDate');
	});

	it('variables: at most 50, a name each, type text/date/number, unique names', async () => {
		for (const [variables, field] of [
			[Array.from({ length: 51 }, (_, i) => ({ name: `v${i}` })), 'variables'],
			[[{ displayName: 'No name' }], 'variables[0].name'],
			[[{ name: 'logo', type: 'image' }], 'variables[0].type'],
			[[{ name: 'a' }, { name: 'a' }], 'variables[1].name'],
		] as const)
			expect((await create({ variables })).body.field).toBe(field);
		expect(sandbox().listAllTemplates()).toEqual([]);
	});

	it('recipients 1–20 with keys; an email may be blank, a token or an email', async () => {
		expect((await create({ recipients: [] })).body.field).toBe('recipients');
		const badEmail = [{ key: 'employee', email: 'nope' }];
		expect((await create({ recipients: badEmail })).body.field).toBe('recipients[0].email');
		const blank = await create({ recipients: [{ key: 'employee' }] });
		expect(blank.body.recipients[0]).toMatchObject({ name: 'employee', email: '' });
	});

	it('the name is 1–50 characters and the document is a valid block document', async () => {
		expect((await create({ name: 'n'.repeat(51) })).body.field).toBe('name');
		const long = { ...templateBody().document, title: 'x'.repeat(41) };
		expect((await create({ document: long })).body.code).toBe('TITLE_TOO_LONG');
	});

	it('expiry defaults use the "Session Expiry" plan feature (scope: auth.test.ts)', async () => {
		sandbox().setPlanFeatures(sandbox().demo.orgId, []);
		const res = await create({ expiryDays: 30 });
		expectError(res, 403, 'PLAN_FEATURE_UNAVAILABLE');
		expect(res.body.feature).toBe('Session Expiry');
	});
});

describe('templates through the control plane', () => {
	it('POST /_sandbox/templates creates a draft; POST …/activate makes it active and moves updatedAt', async () => {
		const created = await control('POST', '/templates', { name: 'Via control plane' });
		expect(created.status).toBe(201);
		expect(created.body.status).toBe('draft');
		sandbox().clock.advance(1000);
		const activated = await control('POST', `/templates/${created.body.templateId}/activate`);
		expect(activated.body).toMatchObject({
			status: 'active',
			updatedAt: '2025-06-16T14:22:01.000Z',
		});
		expect(names(await listTemplates())).toEqual(['Via control plane']);
	});
});
