import { randomUUID } from 'node:crypto';
import { fillDocument, fillTokens } from './blocks';
import type { SandboxContext } from './context';
import { ApiProblem, invalid, isPlainObject, json, type Reply, UUID_PATTERN } from './http';
import type { TemplateVariable } from './publicTypes';
import { createdSession, withZonelessTimes } from './responses';
import { markSent } from './sendSession';
import {
	bodyObject,
	checkBoolean,
	checkEmail,
	checkName,
	enforceSettings,
	parseSettings,
} from './sessionSettings';
import { fileNameOf, type TemplateRecord } from './templateStore';

const isBlank = (value: unknown) => typeof value !== 'string' || value.trim() === '';

/**
 * docs/api.md#create-session-from-template (only templateId required), with the decided errors:
 * unknown or another organisation's template 404, a draft template TEMPLATE_NOT_ACTIVE, too
 * many recipients TOO_MANY_RECIPIENTS, a required variable missing MISSING_VARIABLES, the rest
 * VALIDATION_ERROR; a plan feature the organisation lacks 403. The answer writes its
 * timestamps without a zone, as the older page's example does.
 */
export function sessionFromTemplate(ctx: SandboxContext, orgId: string, raw: Buffer): Reply {
	const body = bodyObject(raw);
	if (typeof body.templateId !== 'string' || body.templateId.trim() === '')
		throw invalid('templateId', 'templateId is required');
	const template = UUID_PATTERN.test(body.templateId)
		? ctx.templates.findForOrg(body.templateId, orgId)
		: undefined;
	if (!template) throw new ApiProblem(404, 'NOT_FOUND', `No template ${body.templateId}`);
	if (template.status !== 'active') {
		throw new ApiProblem(
			400,
			'TEMPLATE_NOT_ACTIVE',
			'The template is a draft: activate it in AirSign first',
			'templateId',
		);
	}
	const name = body.name === undefined ? template.name.slice(0, 50) : checkName(body.name);
	const sendImmediately = checkBoolean(body.sendImmediately, 'sendImmediately') ?? false;
	const values = parseVariableValues(body.variableValues, template);
	const recipients = replaceRecipients(body.recipients, template, values);
	const settings = parseSettings(body, true);
	enforceSettings(settings, ctx.orgs, orgId);
	if (sendImmediately && template.selfSignOnly)
		throw new ApiProblem(400, 'SELF_SIGN_ONLY', 'A self-sign only session cannot be sent');

	const defaults = Object.fromEntries(template.variables.map((v) => [v.name, v.defaultValue]));
	const document = fillDocument(template.document, { ...defaults, ...values });
	const record = ctx.store.createSession({
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
	const session = ctx.store.sessions.get(record.sessionId)!;
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
		throw new ApiProblem(
			400,
			'MISSING_VARIABLES',
			`Required variables not given: ${missing.map((v) => v.name).join(', ')}`,
			'variableValues',
			{ missing: missing.map((v) => v.name) },
		);
	}
	return given;
}

function checkVariableValue(variable: TemplateVariable, value: unknown, field: string): void {
	if (value === null) return;
	const ok = (() => {
		switch (variable.type) {
			case 'number':
				return typeof value === 'number' && Number.isFinite(value);
			case 'image':
				return typeof value === 'string' && UUID_PATTERN.test(value);
			case 'table':
				return (
					isPlainObject(value) &&
					Array.isArray(value.headers) &&
					value.headers.every((h) => typeof h === 'string') &&
					Array.isArray(value.data) &&
					value.data.every((row) => Array.isArray(row) && row.every((c) => typeof c === 'string'))
				);
			default:
				return typeof value === 'string';
		}
	})();
	if (!ok) {
		const expected = {
			text: 'text',
			date: 'text',
			number: 'a number',
			image: 'the fileId of an uploaded image',
			table: '{ headers: string[], data: string[][] }',
		}[variable.type];
		throw invalid(field, `${variable.name} is a ${variable.type} variable: give ${expected}`);
	}
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
		throw new ApiProblem(
			400,
			'TOO_MANY_RECIPIENTS',
			`The template has ${template.recipients.length} recipient(s); ${given.length} were given`,
			'recipients',
		);
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
