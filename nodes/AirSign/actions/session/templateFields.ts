import type { FieldType, IDataObject, ResourceMapperField } from 'n8n-workflow';

import { EMAIL_PATTERN } from '../../helpers/constants';
import type { Fail } from '../../errors/nodeError';
import { dateVariableAsDay } from '../../helpers/dates';
import { parseJson, shownValue } from '../../helpers/validation';

/** Field ids of a recipient role: `recipient:<position>:name` and `…:email` (no variable name has a ":"). */
const ROLE_FIELD = /^recipient:(\d+):(name|email)$/;

const VARIABLE_TYPES: Record<string, [FieldType, string]> = {
	text: ['string', 'text'],
	number: ['number', 'number'],
	date: ['dateTime', 'date'],
	image: ['string', 'image: the fileId of an upload'],
	table: ['object', 'table: { "headers": [...], "data": [[...]] }'],
};

const hasToken = (text: string) => text.includes('{{{');

// A role whose name or email the template leaves empty must be given one
// (docs/api.md#create-session-from-template); what it fixes is the default; a {{{token}}} email is
// filled from that variable.
export function templateFields(template: IDataObject): ResourceMapperField[] {
	const fields: ResourceMapperField[] = [];
	const listOf = (value: unknown) => (Array.isArray(value) ? (value as unknown[]) : []);
	const common = { defaultMatch: false, canBeUsedToMatch: false, display: true };
	listOf(template.recipients).forEach((entry, index) => {
		// An entry that is not an object (an answer gone wrong) is a role without a name or email.
		const recipient = (entry !== null && typeof entry === 'object' ? entry : {}) as IDataObject;
		const name = String(recipient.name ?? '').trim();
		// "Recipient 2" labels a role without a name; it is never sent as a signer's name.
		const role = name || `Recipient ${index + 1}`;
		const email = String(recipient.email ?? '').trim();
		const fixed = email !== '' && !hasToken(email);
		fields.push(
			{
				...common,
				type: 'string',
				id: `recipient:${index + 1}:name`,
				displayName: `${role} Name`,
				// Replaced by position, a role without an email is sent whole: it needs a name too.
				required: name === '' || email === '',
				...(fixed && name !== '' && { defaultValue: name }),
			},
			{
				...common,
				type: 'string',
				id: `recipient:${index + 1}:email`,
				displayName: `${role} Email${hasToken(email) ? ` (default: ${email})` : ''}`,
				required: email === '',
				...(fixed && { defaultValue: email }),
			},
		);
	});
	// A variable without a name cannot be given a value: left to AirSign, which says if it is needed.
	const named = (entry: unknown): entry is IDataObject => {
		const name = (entry as IDataObject | null)?.name;
		return typeof name === 'string' && name.trim() !== '';
	};
	for (const variable of listOf(template.variables).filter(named)) {
		const type = String(variable.type ?? 'text');
		const description = String(variable.description ?? '').trim();
		const label = String(variable.displayName ?? '').trim() || String(variable.name);
		const defaultValue = variable.defaultValue;
		fields.push({
			id: String(variable.name),
			displayName: `${label} (${VARIABLE_TYPES[type]?.[1] ?? type})${description ? ` – ${description}` : ''}`,
			required: variable.required !== false,
			...common,
			type: VARIABLE_TYPES[type]?.[0] ?? 'string',
			...((typeof defaultValue === 'string' || typeof defaultValue === 'number') && {
				defaultValue,
			}),
		});
	}
	return fields;
}

const isGiven = (value: unknown) => value !== undefined && value !== null && value !== '';

export function readTemplateValues(
	fields: ResourceMapperField[],
	values: IDataObject,
	timezone: string,
	fail: Fail,
): { recipients?: Array<{ name: string; email: string }>; variableValues: IDataObject } {
	const missing = fields.filter((f) => f.required && !isGiven(values[f.id]));
	if (missing.length > 0) {
		throw fail(
			`The template needs ${missing.map((f) => `'${f.displayName.replace(/ \(.*$/, '')}'`).join(', ')}`,
			"Give a value to every mandatory field of 'Recipients and Variables' (map it from the input, or type it).",
		);
	}
	const roles = new Map<number, { name?: ResourceMapperField; email?: ResourceMapperField }>();
	const variableValues: IDataObject = {};
	for (const field of fields) {
		const role = ROLE_FIELD.exec(field.id);
		if (role) {
			const entry = roles.get(Number(role[1])) ?? {};
			entry[role[2] as 'name' | 'email'] = field;
			roles.set(Number(role[1]), entry);
			continue;
		}
		if (isGiven(values[field.id]))
			variableValues[field.id] = variableValue(field, values[field.id], timezone, fail);
	}

	const positions = [...roles.keys()].sort((a, b) => a - b);
	const lastGiven = Math.max(
		0,
		...positions.filter((p) =>
			[roles.get(p)!.name, roles.get(p)!.email].some((f) => f && isGiven(values[f.id])),
		),
	);
	if (lastGiven === 0) return { variableValues };
	const recipients = positions
		.filter((p) => p <= lastGiven)
		.map((position) => {
			const { name, email } = roles.get(position)!;
			const pick = (field?: ResourceMapperField) => {
				if (!field || !isGiven(values[field.id])) return field?.defaultValue;
				const value = values[field.id];
				// A name or email is text; an object or list (an expression of the wrong type) is refused.
				if (typeof value === 'object')
					throw fail(`'${field.displayName}' must be text, not ${shownValue(value)}`);
				return String(value).trim();
			};
			const chosen = { name: pick(name), email: pick(email) };
			if (!isGiven(chosen.name) || !isGiven(chosen.email)) {
				const label = (name?.displayName ?? `Recipient ${position}`).replace(/ Name$/, '');
				throw fail(
					`Give both '${label} Name' and '${label} Email'`,
					'AirSign replaces the template’s recipients by position, so every role before the last one given needs a name and an email.',
				);
			}
			if (!EMAIL_PATTERN.test(String(chosen.email))) {
				throw fail(
					`'${email?.displayName ?? 'Email'}' is not an email address: "${String(chosen.email).slice(0, 80)}"`,
				);
			}
			return { name: String(chosen.name), email: String(chosen.email) };
		});
	return { recipients, variableValues };
}

function variableValue(
	field: ResourceMapperField,
	value: unknown,
	timezone: string,
	fail: Fail,
): IDataObject[string] {
	const label = `'${field.displayName.replace(/ \(.*$/, '')}'`;
	switch (field.type) {
		case 'number': {
			const number = typeof value === 'number' ? value : Number(String(value).trim());
			if (!Number.isFinite(number))
				throw fail(`${label} must be a number, not ${shownValue(value)}`);
			return number;
		}
		case 'dateTime': {
			// A date variable takes text; the date picker and expressions give dates: YYYY-MM-DD.
			const date = dateVariableAsDay(value, timezone);
			if (date === null) throw fail(`${label} is not a date: ${shownValue(value)}`);
			return date;
		}
		case 'object': {
			const table = parseJson(value, label, fail);
			const t = table as { headers?: unknown; data?: unknown };
			const texts = (row: unknown) => Array.isArray(row) && row.every((c) => typeof c === 'string');
			if (!texts(t?.headers) || !Array.isArray(t?.data) || !(t.data as unknown[]).every(texts))
				throw fail(`${label} must be a table: { "headers": ["…"], "data": [["…"]] } of texts`);
			return table as IDataObject;
		}
		default:
			// Text: an object or list (an expression of the wrong type) would be sent as "" or "[object Object]".
			if (typeof value === 'object') throw fail(`${label} must be text, not ${shownValue(value)}`);
			return typeof value === 'string' ? value : String(value);
	}
}
