import { checkSignatureBlocks, tokensOf, TOKEN_PATTERN, validateBlockDocument } from './blocks';
import type { SandboxContext } from './context';
import { ApiProblem, EMAIL_PATTERN, invalid, isPlainObject, json, type Reply } from './http';
import type { CreateTemplateInput } from './publicTypes';
import {
	bodyObject,
	checkBoolean,
	checkName,
	enforceSettings,
	parseSettings,
} from './sessionSettings';
import { checkSigningOrder, parseRecipientList } from './recipientList';

const MAX_VARIABLES = 50;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const CREATABLE_TYPES = ['text', 'date', 'number'];

/**
 * docs/api.md#list-templates: status (default active), limit 1–100 (default 50), offset; sorted
 * by name.
 */
export function listTemplates(ctx: SandboxContext, orgId: string, params: URLSearchParams): Reply {
	const status = params.get('status') ?? 'active';
	if (status !== 'active' && status !== 'draft')
		throw invalid('status', 'status must be active or draft');
	const limit = integerParam(params.get('limit'), 'limit', 50);
	if (limit < 1 || limit > 100) throw invalid('limit', 'limit must be an integer from 1 to 100');
	const offset = integerParam(params.get('offset'), 'offset', 0);
	const matching = ctx.templates
		.ofOrg(orgId)
		.filter((t) => t.status === status)
		.sort(
			(a, b) =>
				a.name.toLowerCase().localeCompare(b.name.toLowerCase()) ||
				a.templateId.localeCompare(b.templateId),
		);
	const page = matching.slice(offset, offset + limit);
	return json(200, {
		templates: page.map((t) => ctx.templates.listItem(t)),
		pagination: {
			total: matching.length,
			limit,
			offset,
			hasMore: offset + page.length < matching.length,
		},
	});
}

function integerParam(value: string | null, field: string, fallback: number): number {
	if (value === null) return fallback;
	if (!/^\d{1,15}$/.test(value)) throw invalid(field, `${field} must be a non-negative integer`);
	return Number(value);
}

/**
 * docs/api.md#create-template, with Create Session's errors. Tokens in the document (and in
 * recipients' names and emails) must be declared variables: UNDECLARED_VARIABLE otherwise.
 */
export function createTemplate(ctx: SandboxContext, orgId: string, raw: Buffer): Reply {
	const body = bodyObject(raw);
	const name = checkName(body.name);
	const document = validateBlockDocument(body.document, 'document');
	const recipients = parseTemplateRecipients(body.recipients);
	checkSignatureBlocks(
		[{ document, field: 'document' }],
		recipients.map((r) => r.key),
		'recipients',
	);
	const variables = parseVariables(body.variables);
	const declared = new Set(variables.map((v) => v.name));
	const used = tokensOf(document);
	for (const r of recipients)
		for (const text of [r.name ?? '', r.email ?? ''])
			for (const m of text.matchAll(TOKEN_PATTERN)) used.add(m[1]);
	const undeclared = [...used].find((token) => !declared.has(token));
	if (undeclared !== undefined) {
		throw new ApiProblem(
			400,
			'UNDECLARED_VARIABLE',
			`The token {{{${undeclared}}}} is used but no variable "${undeclared}" is declared`,
			'variables',
		);
	}
	const activate = checkBoolean(body.activate, 'activate') ?? false;
	const settings = parseSettings(body, false);
	enforceSettings(settings, ctx.orgs, orgId);

	const record = ctx.templates.create({
		orgId,
		name,
		status: activate ? 'active' : 'draft',
		document,
		recipients,
		variables,
		expiryDays: settings.expiryDays ?? null,
		reminderEnabled: settings.reminderEnabled ?? null,
		reminderFrequency: settings.reminderFrequency ?? null,
	});
	return json(200, {
		...ctx.templates.detail(record),
		editorUrl: `${ctx.baseUrl}/app/templates/${record.templateId}/edit`,
	});
}

type RecipientInput = NonNullable<CreateTemplateInput['recipients']>[number] & { key: string };

function parseTemplateRecipients(value: unknown): RecipientInput[] {
	return parseRecipientList(value, ({ name, email, signingOrder }, field, key) => {
		if (name !== undefined && typeof name !== 'string')
			throw invalid(`${field}.name`, 'name must be text');
		if (email !== undefined && typeof email !== 'string')
			throw invalid(`${field}.email`, 'email must be text');
		const emailText = ((email as string | undefined) ?? '').trim();
		if (emailText !== '' && !emailText.includes('{{{') && !EMAIL_PATTERN.test(emailText))
			throw invalid(`${field}.email`, 'email must be an email address, a {{{token}}} or empty');
		return {
			key,
			name: (name as string | undefined)?.trim() || undefined,
			email: emailText,
			signingOrder: checkSigningOrder(signingOrder, field),
		};
	});
}

function parseVariables(value: unknown): NonNullable<CreateTemplateInput['variables']> {
	if (value === undefined) return [];
	if (!Array.isArray(value) || value.length > MAX_VARIABLES)
		throw invalid('variables', `variables must be an array of at most ${MAX_VARIABLES}`);
	const seen = new Set<string>();
	return value.map((entry, index) => {
		const field = `variables[${index}]`;
		if (!isPlainObject(entry)) throw invalid(field, 'a variable must be an object');
		const { name, displayName, type, required, defaultValue, description } = entry;
		if (typeof name !== 'string' || !VARIABLE_NAME.test(name))
			throw invalid(
				`${field}.name`,
				'name is required: letters, digits and "_", not starting with a digit',
			);
		if (seen.has(name)) throw invalid(`${field}.name`, `Two variables are named "${name}"`);
		seen.add(name);
		if (type !== undefined && !CREATABLE_TYPES.includes(type as string))
			throw invalid(`${field}.type`, 'type must be text, date or number');
		for (const [key, v] of Object.entries({ displayName, description }))
			if (v !== undefined && typeof v !== 'string')
				throw invalid(`${field}.${key}`, `${key} must be text`);
		if (
			defaultValue !== undefined &&
			defaultValue !== null &&
			typeof defaultValue !== 'string' &&
			typeof defaultValue !== 'number'
		)
			throw invalid(`${field}.defaultValue`, 'defaultValue must be text or a number');
		return {
			name,
			displayName: (displayName as string | undefined) || name,
			type: (type as 'text' | 'date' | 'number' | undefined) ?? 'text',
			required: checkBoolean(required, `${field}.required`) ?? true,
			defaultValue: (defaultValue as string | number | null | undefined) ?? null,
			description: (description as string | undefined) ?? '',
		};
	});
}
