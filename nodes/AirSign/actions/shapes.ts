import type { IDataObject } from 'n8n-workflow';

import { RECIPIENT_SIGNED_STATUSES } from '../helpers/constants';

/**
 * What Simplify and a tool's Output make of one resource's record (docs/operations.md#simplify-and-output):
 * `simplify` gives at most 10 fields, those a workflow or an agent most often needs next;
 * `fields` are the record's other top-level fields, offered by Selected Fields beside `id`.
 */
export interface Shape {
	id: string;
	/** Each field's value, its name in the editor, and which operations return it when not all do. */
	fields: Array<{ value: string; name: string; description?: string }>;
	simplify: (record: IDataObject) => IDataObject;
}

const listOf = (value: unknown): IDataObject[] =>
	Array.isArray(value) ? value.filter((v): v is IDataObject => !!v && typeof v === 'object') : [];

const orEmpty = (value: unknown) => value ?? null;

/** Sessions waiting for signatures: only they have a next signer. */
const AWAITING_SIGNATURES = ['pending', 'inProgress'];

function simplifySession(session: IDataObject): IDataObject {
	const recipients = listOf(session.recipients);
	const hasSigned = (r: IDataObject) => RECIPIENT_SIGNED_STATUSES.includes(String(r.status));
	// By signing order (stable, so equal orders keep AirSign's order): the first who has not signed.
	const order = (r: IDataObject) =>
		typeof r.signingOrder === 'number' ? r.signingOrder : Number.POSITIVE_INFINITY;
	const next = AWAITING_SIGNATURES.includes(String(session.status))
		? [...recipients].sort((a, b) => order(a) - order(b)).find((r) => !hasSigned(r))
		: undefined;
	return {
		sessionId: orEmpty(session.sessionId),
		name: orEmpty(session.name),
		status: orEmpty(session.status),
		signedCount: recipients.filter(hasSigned).length,
		recipientCount: recipients.length,
		// A draft waits for nobody: where Create's answer gives its review link, that takes the place.
		...(!next && typeof session.draftUrl === 'string'
			? { draftUrl: session.draftUrl }
			: { nextRecipient: next ? { name: orEmpty(next.name), email: orEmpty(next.email) } : null }),
		createdAt: orEmpty(session.createdAt),
		updatedAt: orEmpty(session.updatedAt),
		completedDate: orEmpty(session.completedDate),
		expiryDate: orEmpty(session.expiryDate),
	};
}

function simplifyTemplate(template: IDataObject): IDataObject {
	const variables = listOf(template.variables);
	return {
		templateId: orEmpty(template.templateId),
		name: orEmpty(template.name),
		status: orEmpty(template.status),
		selfSignOnly: orEmpty(template.selfSignOnly),
		// By position, as Create From Template fills them in.
		roles: listOf(template.recipients).map((role) => orEmpty(role.name)),
		variables: variables.map((variable) => orEmpty(variable.name)),
		requiredVariables: variables.filter((v) => v.required !== false).map((v) => orEmpty(v.name)),
		createdAt: orEmpty(template.createdAt),
		updatedAt: orEmpty(template.updatedAt),
		// A new draft is reviewed there before it can be used: the tenth field, on Create only.
		...(template.editorUrl !== undefined && { editorUrl: template.editorUrl }),
	};
}

const CREATE_ONLY = 'Create and Create From Template only';
const WITH_FILES = 'Get, Create and Create From Template only';

export const shapes = {
	session: {
		id: 'sessionId',
		fields: [
			{ value: 'completedDate', name: 'Completed Date' },
			{ value: 'createdAt', name: 'Created At' },
			{ value: 'draftUrl', name: 'Draft URL', description: `${CREATE_ONLY}, while a draft` },
			{ value: 'expiryDate', name: 'Expiry Date' },
			{ value: 'files', name: 'Files', description: WITH_FILES },
			{ value: 'name', name: 'Name' },
			{ value: 'recipients', name: 'Recipients' },
			{ value: 'selfSignOnly', name: 'Self Sign Only' },
			{ value: 'sentAt', name: 'Sent At', description: `${CREATE_ONLY}, when sent at once` },
			{ value: 'sessionType', name: 'Session Type', description: WITH_FILES },
			{ value: 'status', name: 'Status' },
			{ value: 'updatedAt', name: 'Updated At' },
		],
		simplify: simplifySession,
	},
	template: {
		id: 'templateId',
		fields: [
			{ value: 'createdAt', name: 'Created At' },
			{ value: 'editorUrl', name: 'Editor URL', description: 'Create only' },
			{ value: 'files', name: 'Files' },
			{ value: 'name', name: 'Name' },
			{ value: 'recipients', name: 'Recipients' },
			{ value: 'selfSignOnly', name: 'Self Sign Only' },
			{ value: 'status', name: 'Status' },
			{ value: 'updatedAt', name: 'Updated At' },
			{ value: 'variables', name: 'Variables' },
		],
		simplify: simplifyTemplate,
	},
} satisfies Record<string, Shape>;

export type ShapeName = keyof typeof shapes;

/** Selected Fields: the record's ID first, then the chosen fields it has, in the order chosen. */
export function selectFields(shape: Shape, record: IDataObject, fields: string[]): IDataObject {
	const selected: IDataObject = { [shape.id]: orEmpty(record[shape.id]) };
	for (const field of fields) if (field in record) selected[field] = record[field];
	return selected;
}
