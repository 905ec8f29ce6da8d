import type { IDataObject } from 'n8n-workflow';

/**
 * What Simplify and a tool's Output make of one resource's record (docs/operations.md#simplify-and-output):
 * `simplify` gives at most 10 fields, each AirSign's own, the same keys for every record (null where
 * the answer has none); `fields` are the answers' top-level fields, offered by Selected Fields beside `id`.
 */
export interface Shape {
	id: string;
	/** What the simplified record holds, in words, for the texts that name it. */
	summary: string;
	/** Each field's value, its name in the editor, and which operations return it when not all do. */
	fields: Array<{ value: string; name: string; description?: string }>;
	simplify: (record: IDataObject) => IDataObject;
}

const orNull = (value: unknown) => value ?? null;

/** Each entry of a nested list with only the given keys (null where absent); null for no list. */
const listOf = (value: unknown, keys: string[]) =>
	Array.isArray(value)
		? value
				.filter((entry): entry is IDataObject => !!entry && typeof entry === 'object')
				.map((entry) => Object.fromEntries(keys.map((key) => [key, orNull(entry[key])])))
		: null;

const pick = (record: IDataObject, keys: string[]) =>
	Object.fromEntries(keys.map((key) => [key, orNull(record[key])]));

const simplifySession = (session: IDataObject): IDataObject => ({
	...pick(session, ['sessionId', 'name', 'status']),
	recipients: listOf(session.recipients, [
		'recipientId',
		'name',
		'email',
		'status',
		'signingOrder',
	]),
	files: listOf(session.files, ['fileId', 'fileName', 'fileType']),
	...pick(session, ['createdAt', 'updatedAt', 'completedDate', 'expiryDate', 'draftUrl']),
});

// A template's roles as AirSign answers them: by position (as Create From Template fills them in),
// with no key (their recipientId is "default"); an empty email is one each session gives.
const simplifyTemplate = (template: IDataObject): IDataObject => ({
	...pick(template, ['templateId', 'name', 'status', 'selfSignOnly']),
	recipients: listOf(template.recipients, ['name', 'email', 'signingOrder']),
	variables: listOf(template.variables, ['name', 'type', 'required']),
	...pick(template, ['createdAt', 'updatedAt', 'editorUrl']),
});

const CREATE_ONLY = 'Create and Create From Template only';
const WITH_FILES = 'Get, Create and Create From Template only';

export const shapes = {
	session: {
		id: 'sessionId',
		summary:
			'the session’s ID, name and status, each recipient (ID, name, email, signing status, signing order), its files, dates and draftUrl',
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
		summary:
			'the template’s ID, name and status, its recipient roles (name, email, signing order), its variables (name, type, required), dates and editorUrl',
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
	const selected: IDataObject = { [shape.id]: orNull(record[shape.id]) };
	for (const field of fields) if (field in record) selected[field] = record[field];
	return selected;
}
