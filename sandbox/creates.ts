/** The bodies of the three creates (docs/api.md): their shared checks, Create Session, From Template, Create Template; and the template reads. */
import { randomUUID } from 'node:crypto';
import {
	checkSignatureBlocks,
	fillDocument,
	fillTokens,
	tokensOf,
	TOKEN_PATTERN,
	validateBlockDocument,
} from './blocks';
import type { Call } from './context';
import {
	ApiProblem,
	checkTexts,
	EMAIL_PATTERN,
	invalid,
	isBlank,
	isPlainObject,
	isWhole,
	json,
	pageParams,
	paginate,
	type Reply,
	isUuid,
} from './http';
import {
	COMPLETION_EMAIL_RECIPIENTS,
	REMINDER_FREQUENCIES,
	type BlockDocument,
	type CreateTemplateInput,
	type PlanFeature,
	type TemplateVariable,
	type VariableType,
} from './publicTypes';
import { createdSession, markSent, withZonelessTimes } from './sessions';
import { fileNameOf, type TemplateRecord } from './templateStore';
import type { SessionFile } from './types';

const MAX_NAME_LENGTH = 50;
const MAX_RECIPIENTS = 20;
const EXPIRY_DAYS = [1, 730] as const;
const RECIPIENT_KEY_PATTERN = /^[A-Za-z0-9_-]+$/;

/** The request body as an object, or 400; `strict` (Upload File): not trimmed, and empty is not `{}`. */
export function bodyObject(raw: Buffer, strict = false): Record<string, unknown> {
	let body: unknown;
	try {
		const text = strict ? raw.toString('utf8') : raw.toString('utf8').trim();
		body = text === '' && !strict ? {} : JSON.parse(text);
	} catch {
		throw new ApiProblem(400, 'INVALID_JSON', 'The request body is not valid JSON');
	}
	if (!isPlainObject(body)) throw invalid('body', 'The request body must be a JSON object');
	return body;
}

/** A name of 1–50 characters (docs/api.md: the three creates). */
export function checkName(value: unknown, field = 'name'): string {
	if (typeof value !== 'string' || value.trim() === '' || [...value].length > MAX_NAME_LENGTH)
		throw invalid(field, `${field} must be text of 1 to ${MAX_NAME_LENGTH} characters`);
	return value;
}

export function checkBoolean(value: unknown, field: string): boolean | undefined {
	if (value !== undefined && typeof value !== 'boolean')
		throw invalid(field, `${field} must be true or false`);
	return value;
}

/** `body[field]`, which must be one of `allowed` when given. */
function checkOneOf(body: Record<string, unknown>, field: string, allowed: readonly string[]) {
	const value = body[field];
	if (value !== undefined && !allowed.includes(value as string))
		throw invalid(field, `${field} must be ${allowed.join(', ')}`);
	return value as string | undefined;
}

export function checkEmail(value: unknown, field: string): string {
	if (typeof value !== 'string' || !EMAIL_PATTERN.test(value.trim()))
		throw invalid(field, `${field} must be an email address`);
	return value.trim();
}

/** Settings as given; `expiryDays` null: never expires (Create From Template only). */
interface Settings {
	expiryDays?: number | null;
	reminderEnabled?: boolean;
	reminderFrequency?: string;
	senderProfileId?: string;
	completionEmailRecipients?: string;
	tagIds?: string[];
}

/** Create Session's settings (`extended`: From Template's too), then the plan (403) and the profile. */
function checkedSettings(
	{ ctx, orgId }: Pick<Call, 'ctx' | 'orgId'>,
	body: Record<string, unknown>,
	extended: boolean,
): Settings {
	const { expiryDays, reminderEnabled, reminderFrequency, tagIds } = body;
	const never = extended && expiryDays === null;
	if (expiryDays !== undefined && !never && !isWhole(expiryDays, ...EXPIRY_DAYS))
		throw invalid('expiryDays', 'expiryDays must be a whole number from 1 to 730');
	const settings: Settings = {
		expiryDays: expiryDays as number | null | undefined,
		reminderEnabled: checkBoolean(reminderEnabled, 'reminderEnabled'),
		reminderFrequency: checkOneOf(body, 'reminderFrequency', REMINDER_FREQUENCIES),
	};
	const features: PlanFeature[] = [];
	if ([expiryDays, reminderEnabled, reminderFrequency].some((v) => v !== undefined))
		features.push('Session Expiry');
	const profile = extended ? body.senderProfileId : undefined;
	if (profile !== undefined) {
		if (!isUuid(profile))
			throw invalid('senderProfileId', 'senderProfileId must be a sender profile UUID');
		settings.senderProfileId = profile.toLowerCase();
		features.push('Sender Profiles');
	}
	if (extended) {
		const completion = 'overrideCompletionEmailRecipients';
		settings.completionEmailRecipients = checkOneOf(body, completion, COMPLETION_EMAIL_RECIPIENTS);
		if (body[completion] !== undefined) features.push('Completion Email Recipients');
		if (tagIds !== undefined && (!Array.isArray(tagIds) || !tagIds.every(isUuid)))
			throw invalid('tagIds', 'tagIds must be an array of tag UUIDs');
		settings.tagIds = (tagIds as string[] | undefined)?.map((id) => id.toLowerCase());
	}
	ctx.orgs.requireFeatures(orgId, features);
	if (profile !== undefined && !ctx.orgs.hasSenderProfile(orgId, settings.senderProfileId!))
		throw invalid('senderProfileId', 'No verified sender profile has this ID');
	return settings;
}

/** `recipients` of Create Session or Template: 1 to 20, unique keys; `parseEntry` checks the rest. */
export function parseRecipientList<T>(
	value: unknown,
	parseEntry: (entry: Record<string, unknown>, field: string, key: string) => T,
): T[] {
	if (!Array.isArray(value) || value.length < 1 || value.length > MAX_RECIPIENTS)
		throw invalid('recipients', `recipients must be an array of 1 to ${MAX_RECIPIENTS} entries`);
	const seen = new Set<string>();
	return value.map((entry, index) => {
		const field = `recipients[${index}]`;
		if (!isPlainObject(entry)) throw invalid(field, 'a recipient must be an object');
		const { key } = entry;
		if (typeof key !== 'string' || !RECIPIENT_KEY_PATTERN.test(key))
			throw invalid(`${field}.key`, 'key must be letters, digits, "_" or "-"');
		if (seen.has(key)) {
			const message = `Two recipients have the key "${key}"`;
			throw new ApiProblem(400, 'DUPLICATE_RECIPIENT_KEY', message, `${field}.key`);
		}
		seen.add(key);
		return parseEntry(entry, field, key);
	});
}

/** An optional signing order: a whole number from 1. */
export function checkSigningOrder(value: unknown, field: string): number | undefined {
	if (value !== undefined && !isWhole(value, 1))
		throw invalid(`${field}.signingOrder`, 'signingOrder must be a whole number from 1');
	return value as number | undefined;
}

const MAX_FILES = 10;

/** docs/api.md#create-session, checked in body order, then the plan (403); a draft unless sent. */
export function createSession({ ctx, orgId, body: raw }: Call): Reply {
	const body = bodyObject(raw);
	const name = checkName(body.name);

	const files = body.files;
	if (!Array.isArray(files) || files.length < 1 || files.length > MAX_FILES)
		throw invalid('files', `files must be an array of 1 to ${MAX_FILES} entries`);
	const documents: Array<{ document: BlockDocument; field: string }> = [];
	const sessionFiles: SessionFile[] = files.map((entry, index) => {
		const field = `files[${index}]`;
		if (!isPlainObject(entry)) throw invalid(field, 'a file entry must be an object');
		if (entry.type === 'blocks') {
			const document = validateBlockDocument(entry.document, `${field}.document`);
			documents.push({ document, field: `${field}.document` });
			return {
				type: 'blocks',
				fileId: randomUUID(),
				fileName: fileNameOf(document),
				document: structuredClone(document),
			};
		}
		if (entry.type === 'uploadedPdf') {
			if (!isUuid(entry.fileId))
				throw invalid(`${field}.fileId`, 'fileId must be the UUID of an uploaded file');
			checkTexts({ fileName: entry.fileName }, `${field}.`);
			return {
				type: 'uploadedPdf',
				fileId: entry.fileId.toLowerCase(),
				...(typeof entry.fileName === 'string' && { fileName: entry.fileName }),
			};
		}
		throw invalid(`${field}.type`, 'type must be "blocks" or "uploadedPdf"');
	});
	if (documents.length === 0) {
		const message =
			'files needs at least one block document: signature fields live only on block documents';
		throw new ApiProblem(400, 'NO_BLOCK_DOCUMENT', message, 'files');
	}
	sessionFiles.forEach((file, index) => {
		if (file.type !== 'uploadedPdf') return;
		const stored = ctx.store.files.get(file.fileId);
		if (!stored || stored.orgId !== orgId) {
			const message = `No uploaded file ${file.fileId} in this organisation`;
			throw new ApiProblem(400, 'FILE_NOT_FOUND', message, `files[${index}].fileId`);
		}
	});

	const recipients = parseRecipients(body.recipients);
	const keys = recipients.map((r) => r.key);
	checkSignatureBlocks(documents, keys, 'recipients');
	const sendImmediately = checkBoolean(body.sendImmediately, 'sendImmediately') ?? false;
	const settings = checkedSettings({ ctx, orgId }, body, false);

	const session = ctx.store.createSession({
		orgId,
		name,
		status: 'draft',
		recipients: recipients.map(({ key: _key, ...recipient }) => recipient),
		files: sessionFiles,
		expiryDays: settings.expiryDays ?? null,
		settings: {
			reminderEnabled: settings.reminderEnabled ?? null,
			reminderFrequency: settings.reminderFrequency ?? null,
		},
	});
	if (sendImmediately) markSent(ctx.store, session);
	return json(200, createdSession(ctx.store, ctx.baseUrl, session));
}

function parseRecipients(value: unknown) {
	return parseRecipientList(value, ({ name, email, signingOrder }, field, key) => {
		if (isBlank(name)) throw invalid(`${field}.name`, 'name is required');
		const address = checkEmail(email, `${field}.email`);
		const order = checkSigningOrder(signingOrder, field);
		return { key, name: name as string, email: address, signingOrder: order };
	});
}

/** docs/api.md#create-session-from-template; its times without a zone, as the older page's. */
export function sessionFromTemplate({ ctx, orgId, body: raw }: Call): Reply {
	const body = bodyObject(raw);
	const templateId = body.templateId as string;
	if (isBlank(templateId)) throw invalid('templateId', 'templateId is required');
	const template = ctx.templates.findForOrg(templateId, orgId);
	if (template.status !== 'active') {
		const message = 'The template is a draft: activate it in AirSign first';
		throw new ApiProblem(400, 'TEMPLATE_NOT_ACTIVE', message, 'templateId');
	}
	const name = body.name === undefined ? template.name.slice(0, 50) : checkName(body.name);
	const sendImmediately = checkBoolean(body.sendImmediately, 'sendImmediately') ?? false;
	const values = parseVariableValues(body.variableValues, template);
	const recipients = replaceRecipients(body.recipients, template, values);
	const settings = checkedSettings({ ctx, orgId }, body, true);
	if (sendImmediately && template.selfSignOnly)
		throw new ApiProblem(400, 'SELF_SIGN_ONLY', 'A self-sign only session cannot be sent');

	const defaults = Object.fromEntries(template.variables.map((v) => [v.name, v.defaultValue]));
	const document = fillDocument(template.document, { ...defaults, ...values });
	const session = ctx.store.createSession({
		orgId,
		name,
		status: 'draft',
		selfSignOnly: template.selfSignOnly,
		recipients,
		files: [{ type: 'blocks', fileId: randomUUID(), fileName: fileNameOf(document), document }],
		expiryDays: settings.expiryDays === undefined ? template.expiryDays : settings.expiryDays,
		settings: {
			templateId: template.templateId,
			reminderEnabled: settings.reminderEnabled ?? template.reminderEnabled,
			reminderFrequency: settings.reminderFrequency ?? template.reminderFrequency,
			senderProfileId: settings.senderProfileId ?? null,
			completionEmailRecipients: settings.completionEmailRecipients ?? null,
			tagIds: settings.tagIds ?? [],
		},
	});
	if (sendImmediately) markSent(ctx.store, session);
	return json(200, withZonelessTimes(createdSession(ctx.store, ctx.baseUrl, session)));
}

function parseVariableValues(value: unknown, template: TemplateRecord): Record<string, unknown> {
	if (value !== undefined && !isPlainObject(value))
		throw invalid('variableValues', 'variableValues must be an object of name → value');
	const given = (value ?? {}) as Record<string, unknown>;
	const byName = new Map(template.variables.map((v) => [v.name, v]));
	for (const [name, v] of Object.entries(given)) {
		const variable = byName.get(name);
		if (!variable)
			throw invalid(`variableValues.${name}`, `The template has no variable "${name}"`);
		checkVariableValue(variable, v, `variableValues.${name}`);
	}
	const missing = template.variables.filter((v) => v.required && (given[v.name] ?? '') === '');
	if (missing.length > 0) {
		const names = missing.map((v) => v.name);
		const message = `Required variables not given: ${names.join(', ')}`;
		throw new ApiProblem(400, 'MISSING_VARIABLES', message, 'variableValues', { missing: names });
	}
	return given;
}

const isTexts = (value: unknown): value is string[] =>
	Array.isArray(value) && value.every((cell) => typeof cell === 'string');
/** What a value of each type of variable must be, and the words for it. */
const VALUE_CHECKS: Record<VariableType, [(value: unknown) => boolean, string]> = {
	text: [(v) => typeof v === 'string', 'text'],
	date: [(v) => typeof v === 'string', 'text'],
	number: [(v) => typeof v === 'number' && Number.isFinite(v), 'a number'],
	image: [isUuid, 'the fileId of an uploaded image'],
	table: [
		(v) => isPlainObject(v) && isTexts(v.headers) && Array.isArray(v.data) && v.data.every(isTexts),
		'{ headers: string[], data: string[][] }',
	],
};

function checkVariableValue(variable: TemplateVariable, value: unknown, field: string): void {
	const [ok, expected] = VALUE_CHECKS[variable.type];
	if (value !== null && !ok(value))
		throw invalid(field, `${variable.name} is a ${variable.type} variable: give ${expected}`);
}

/** The template's recipients, replaced by position, tokens filled; each must end with a name and an email. */
function replaceRecipients(
	value: unknown,
	template: TemplateRecord,
	values: Record<string, unknown>,
) {
	if (value !== undefined && !Array.isArray(value))
		throw invalid('recipients', 'recipients must be an array of { name, email }');
	const given = (value ?? []) as unknown[];
	if (given.length > template.recipients.length) {
		const message = `The template has ${template.recipients.length} recipient(s); ${given.length} were given`;
		throw new ApiProblem(400, 'TOO_MANY_RECIPIENTS', message, 'recipients');
	}
	return template.recipients.map((role, index) => {
		const field = `recipients[${index}]`;
		const replacement = given[index];
		let name = fillTokens(role.name, values);
		let email = fillTokens(role.email, values);
		if (replacement !== undefined) {
			if (!isPlainObject(replacement)) throw invalid(field, 'a recipient must be { name, email }');
			if (isBlank(replacement.name)) throw invalid(`${field}.name`, 'name is required');
			name = replacement.name as string;
			email = checkEmail(replacement.email, `${field}.email`);
		}
		// docs/api.md#create-session-from-template: what the template leaves empty must be given.
		if (isBlank(name) || isBlank(email) || email.includes('{{{')) {
			const which = isBlank(role.name) ? `${index + 1}` : `"${role.name}"`;
			throw invalid(field, `The template's recipient ${which} needs a name and an email`);
		}
		return { name, email: checkEmail(email, `${field}.email`), signingOrder: role.signingOrder };
	});
}

const MAX_VARIABLES = 50;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const CREATABLE_TYPES = ['text', 'date', 'number'];

/** docs/api.md#list-templates: status (default active), limit, offset; sorted by name. */
export function listTemplates({ ctx, orgId, params }: Call): Reply {
	const status = params.get('status') ?? 'active';
	if (status !== 'active' && status !== 'draft')
		throw invalid('status', 'status must be active or draft');
	const matching = ctx.templates
		.ofOrg(orgId)
		.filter((t) => t.status === status)
		.sort(
			(a, b) =>
				a.name.toLowerCase().localeCompare(b.name.toLowerCase()) ||
				a.templateId.localeCompare(b.templateId),
		);
	const { page, pagination } = paginate(matching, pageParams(params));
	return json(200, { templates: page.map((t) => ctx.templates.listItem(t)), pagination });
}

/** docs/api.md#get-template. */
export function getTemplate({ ctx, orgId, id }: Call): Reply {
	return json(200, ctx.templates.detail(ctx.templates.findForOrg(id, orgId)));
}

/** docs/api.md#create-template, with Create Session's errors; every token used must be declared. */
export function createTemplate({ ctx, orgId, body: raw }: Call): Reply {
	const body = bodyObject(raw);
	const name = checkName(body.name);
	const document = validateBlockDocument(body.document, 'document');
	const recipients = parseTemplateRecipients(body.recipients);
	const keys = recipients.map((r) => r.key);
	checkSignatureBlocks([{ document, field: 'document' }], keys, 'recipients');
	const variables = parseVariables(body.variables);
	const declared = new Set(variables.map((v) => v.name));
	const used = tokensOf(document);
	for (const r of recipients)
		for (const text of [r.name ?? '', r.email ?? ''])
			for (const m of text.matchAll(TOKEN_PATTERN)) used.add(m[1]);
	const undeclared = [...used].find((token) => !declared.has(token));
	if (undeclared !== undefined) {
		const message = `The token {{{${undeclared}}}} is used but no variable "${undeclared}" is declared`;
		throw new ApiProblem(400, 'UNDECLARED_VARIABLE', message, 'variables');
	}
	const activate = checkBoolean(body.activate, 'activate') ?? false;
	const settings = checkedSettings({ ctx, orgId }, body, false);

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
		checkTexts({ name, email }, `${field}.`);
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
		checkTexts({ displayName, description }, `${field}.`);
		const defaultOk =
			defaultValue === null || /^(string|number|undefined)$/.test(typeof defaultValue);
		if (!defaultOk) throw invalid(`${field}.defaultValue`, 'defaultValue must be text or a number');
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
