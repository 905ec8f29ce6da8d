import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { recipientsCollection, signingOrderField } from '../../descriptions/sessionDocuments';
import type { Fail } from '../../errors/nodeError';
import { checkRecipientList } from '../../helpers/blockDocument';
import { EMAIL_PATTERN, LIMITS } from '../../helpers/constants';
import { assertOneOf, textOf } from '../../helpers/validation';

// Create Template's recipient roles and variables: their fields, then their checks.
export const templateRecipientsAndVariables: INodeProperties[] = [
	recipientsCollection(`The roles that sign, 1 to ${LIMITS.recipients}`, [
		{
			displayName: 'Key',
			name: 'key',
			type: 'string',
			default: '',
			required: true,
			description: 'Named by the role’s signature block: letters, digits, "_" and "-"',
		},
		{
			displayName: 'Role Name',
			name: 'name',
			type: 'string',
			default: '',
			placeholder: 'e.g. Employee',
			description:
				"Shown as '&lt;Role&gt; Name' / '&lt;Role&gt; Email' when a session is created from it",
		},
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			placeholder: 'e.g. nathan@example.com',
			default: '',
			description: 'Empty to fill in for each session, a fixed email, or a {{{variable}}}',
		},
		signingOrderField,
	]),
	{
		displayName: 'Variables',
		name: 'variables',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Variable',
		description: `What each session fills in, at most ${LIMITS.variables}; every {{{token}}} must be one`,
		options: [
			{
				displayName: 'Variable',
				name: 'variable',
				values: [
					{
						displayName: 'Default Value',
						name: 'defaultValue',
						type: 'string',
						default: '',
					},
					{
						displayName: 'Description',
						name: 'description',
						type: 'string',
						default: '',
					},
					{
						displayName: 'Display Name',
						name: 'displayName',
						type: 'string',
						default: '',
					},
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						required: true,
					},
					{
						displayName: 'Required',
						name: 'required',
						type: 'boolean',
						default: true,
						description: 'Whether every session from the template must give it',
					},
					{
						displayName: 'Type',
						name: 'type',
						type: 'options',
						options: [
							{ name: 'Text', value: 'text' },
							{ name: 'Date', value: 'date' },
							{ name: 'Number', value: 'number' },
						],
						default: 'text',
					},
				],
			},
		],
	},
];

// `{{{name}}}` tokens (spaces inside the braces allowed).
const TOKEN = /\{\{\{\s*([^{}\s]+)\s*\}\}\}/g;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const VARIABLE_TYPES = ['text', 'date', 'number'] as const;

// A role's name and email may be left for each session; an email may be a {{{variable}}}.
export function checkTemplateRecipients(rows: IDataObject[], fail: Fail): IDataObject[] {
	return checkRecipientList(rows, "'Recipients'", fail, {
		keyLabel: "'Key'",
		key: (row) => String(row.key ?? '').trim(),
		rest: (row, at, key) => {
			const email = textOf(row.email, `${at}: 'Email'`, fail).trim();
			if (email !== '' && !email.includes('{{{') && !EMAIL_PATTERN.test(email))
				throw fail(
					`${at}: 'Email' must be an email address, a {{{variable}}} or empty, not "${email}"`,
				);
			const name = textOf(row.name, `${at}: 'Role Name'`, fail).trim();
			const order = Number(row.signingOrder ?? 0);
			if (!Number.isInteger(order) || order < 0)
				throw fail(`${at}: 'Signing Order' must be a whole number`);
			return {
				key,
				...(name && { name }),
				...(email && { email }),
				...(order > 0 && { signingOrder: order }),
			};
		},
	});
}

export function checkVariables(rows: IDataObject[], fail: Fail): IDataObject[] {
	if (rows.length > LIMITS.variables)
		throw fail(
			`'Variables' holds ${rows.length} variables; AirSign takes at most ${LIMITS.variables}`,
		);
	const names = new Set<string>();
	return rows.map((row, index) => {
		const at = `'Variables' [${index}]`;
		const name = String(row.name ?? '').trim();
		if (!VARIABLE_NAME.test(name))
			throw fail(
				`${at}: 'Name' must be letters, digits and "_", not starting with a digit (it is used as {{{name}}})`,
			);
		if (names.has(name)) throw fail(`${at}: the name "${name}" is used twice`);
		names.add(name);
		const type = assertOneOf(row.type ?? 'text', `${at}: 'Type'`, VARIABLE_TYPES, fail);
		const variable: IDataObject = { name, type, required: row.required !== false };
		const labels = { displayName: 'Display Name', description: 'Description' };
		for (const [field, label] of Object.entries(labels)) {
			const text = textOf(row[field], `${at}: '${label}'`, fail).trim();
			if (text) variable[field] = text;
		}
		const fallback = textOf(row.defaultValue, `${at}: 'Default Value'`, fail);
		if (fallback.trim() !== '') {
			const number = Number(fallback);
			if (type === 'number' && !Number.isFinite(number))
				throw fail(`${at}: 'Default Value' of a number variable must be a number`);
			variable.defaultValue = type === 'number' ? number : String(fallback);
		}
		return variable;
	});
}

export function checkTokensDeclared(
	document: IDataObject,
	recipients: IDataObject[],
	variables: IDataObject[],
	fail: Fail,
): void {
	const declared = new Set(variables.map((v) => v.name));
	const texts = [
		JSON.stringify(document),
		...recipients.map((r) => `${r.name ?? ''} ${r.email ?? ''}`),
	];
	for (const text of texts) {
		for (const match of text.matchAll(TOKEN)) {
			if (!declared.has(match[1]))
				throw fail(
					`The token {{{${match[1]}}}} is used but 'Variables' declares no "${match[1]}"`,
					'Add a variable of that name, or correct the token.',
				);
		}
	}
}
