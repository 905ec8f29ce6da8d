import { randomUUID } from 'node:crypto';
import { checkSignatureBlocks, fillDocument, fillTokens, validateBlockDocument } from './blocks';
import type { Call } from './context';
import {
	ApiProblem,
	checkTexts,
	invalid,
	isPlainObject,
	json,
	type Reply,
	UUID_PATTERN,
} from './http';
import type { BlockDocument, TemplateVariable, VariableType } from './publicTypes';
import { createdSession, withZonelessTimes } from './responses';
import { markSent } from './sendSession';
import {
	bodyObject,
	checkBoolean,
	checkEmail,
	checkName,
	checkedSettings,
	checkSigningOrder,
	parseRecipientList,
} from './sessionSettings';
import { fileNameOf, type TemplateRecord } from './templateStore';
import type { SessionFile } from './types';

const isBlank = (value: unknown) => typeof value !== 'string' || value.trim() === '';

const MAX_FILES = 10;

/**
 * docs/api.md#create-session, checked in body order: name, files (each, then "at least one block
 * document", then uploaded files exist), recipients, signature blocks against the keys,
 * settings; then the plan (403). A draft unless sendImmediately.
 */
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
			if (typeof entry.fileId !== 'string' || !UUID_PATTERN.test(entry.fileId))
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

/**
 * docs/api.md#create-session-from-template (only templateId required), with its decided errors.
 * The answer writes its timestamps without a zone, as the older page's example does.
 */
export function sessionFromTemplate({ ctx, orgId, body: raw }: Call): Reply {
	const body = bodyObject(raw);
	const templateId = body.templateId as string;
	if (isBlank(templateId)) throw invalid('templateId', 'templateId is required');
	const template = UUID_PATTERN.test(templateId)
		? ctx.templates.findForOrg(templateId, orgId)
		: undefined;
	if (!template) throw new ApiProblem(404, 'NOT_FOUND', `No template ${templateId}`);
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
	const missing = template.variables.filter(
		(v) =>
			v.required && (given[v.name] === undefined || given[v.name] === null || given[v.name] === ''),
	);
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
	image: [(v) => typeof v === 'string' && UUID_PATTERN.test(v), 'the fileId of an uploaded image'],
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
