import { randomUUID } from 'node:crypto';
import { checkSignatureBlocks, tokensOf, TOKEN_PATTERN, validateBlockDocument } from './blocks';
import type { Call } from './context';
import {
	ApiProblem,
	checkTexts,
	EMAIL_PATTERN,
	invalid,
	isPlainObject,
	json,
	pageParams,
	paginate,
	type Reply,
} from './http';
import {
	VARIABLE_TYPES,
	type BlockDocument,
	type CreateTemplateInput,
	type Template,
	type TemplateRecipient,
	type TemplateVariable,
	type VariableType,
} from './publicTypes';
import {
	bodyObject,
	checkBoolean,
	checkName,
	checkedSettings,
	checkSigningOrder,
	parseRecipientList,
} from './sessionSettings';
import { ownedBy, type Store } from './store';

/** Internal form of a template: times as epoch ms. */
export type TemplateRecord = Omit<Template, 'createdAt' | 'updatedAt' | 'files'> & {
	createdAt: number;
	updatedAt: number;
	fileId: string;
};

/** Organisations' templates; times come from the session store's clock and precision. */
export class TemplateStore {
	readonly templates = new Map<string, TemplateRecord>();

	constructor(
		private readonly store: Store,
		private readonly defaultOrgId: string,
	) {}

	clear(): void {
		this.templates.clear();
	}

	create(input: CreateTemplateInput = {}): TemplateRecord {
		const templateId = (input.templateId ?? randomUUID()).toLowerCase();
		if (this.templates.has(templateId)) throw new Error(`Template ${templateId} already exists`);
		const status = input.status ?? 'draft';
		if (status !== 'draft' && status !== 'active') throw new Error(`Unknown status ${status}`);
		const createdAt = this.store.stamp(input.createdAt);
		const recipients = (input.recipients ?? [{ key: 'signer', name: 'Signer' }]).map(
			(r, index): TemplateRecipient => ({
				recipientId: 'default',
				key: r.key ?? `r${index + 1}`,
				name: r.name ?? r.key ?? `Recipient ${index + 1}`,
				email: r.email ?? '',
				recipientType: 'toCompleteEmail',
				signingOrder: r.signingOrder ?? index + 1,
			}),
		);
		const name = input.name ?? 'Untitled template';
		const record: TemplateRecord = {
			templateId,
			orgId: input.orgId ?? this.defaultOrgId,
			name,
			status,
			selfSignOnly: input.selfSignOnly ?? false,
			createdAt,
			updatedAt: createdAt,
			fileId: randomUUID(),
			document: input.document ?? defaultDocument(name, recipients),
			recipients,
			variables: (input.variables ?? []).map(toVariable),
			expiryDays: input.expiryDays ?? null,
			reminderEnabled: input.reminderEnabled ?? null,
			reminderFrequency: input.reminderFrequency ?? null,
		};
		this.templates.set(templateId, record);
		return record;
	}

	activate(templateId: string): TemplateRecord {
		const record = this.templates.get(templateId.toLowerCase());
		if (!record) throw new Error(`No template ${templateId}`);
		record.status = 'active';
		record.updatedAt = this.store.stamp();
		return record;
	}

	findForOrg(templateId: string, orgId: string): TemplateRecord | undefined {
		return ownedBy(this.templates, templateId, orgId);
	}

	ofOrg(orgId: string): TemplateRecord[] {
		return [...this.templates.values()].filter((t) => t.orgId === orgId);
	}

	/** What List Templates and Get Template both show. */
	private summary(record: TemplateRecord) {
		return {
			templateId: record.templateId,
			name: record.name,
			status: record.status,
			selfSignOnly: record.selfSignOnly,
			createdAt: this.store.iso(record.createdAt),
			updatedAt: this.store.iso(record.updatedAt),
		};
	}

	/** Get Template (docs/api.md#get-template): no orgId, no document, recipient keys hidden. */
	detail(record: TemplateRecord) {
		return {
			...this.summary(record),
			files: [{ fileId: record.fileId, fileName: fileNameOf(record.document) }],
			recipients: record.recipients.map(({ key: _key, ...shown }) => shown),
			variables: record.variables.map((v) => ({ ...v })),
		};
	}

	/** List Templates (docs/api.md#list-templates). */
	listItem(record: TemplateRecord) {
		const { recipients, variables } = record;
		return {
			...this.summary(record),
			recipientCount: recipients.length,
			hasVariables: variables.length > 0,
		};
	}

	/** Everything stored, for the control plane and tests. */
	snapshot(record: TemplateRecord): Template {
		return {
			...this.detail(record),
			orgId: record.orgId,
			recipients: record.recipients.map((r) => ({ ...r })),
			document: structuredClone(record.document),
			expiryDays: record.expiryDays,
			reminderEnabled: record.reminderEnabled,
			reminderFrequency: record.reminderFrequency,
		};
	}
}

/** A rendered block document is stored as a PDF named after its title. */
export function fileNameOf(document: BlockDocument): string {
	return `${document.title.trim() || 'document'}.pdf`;
}

function toVariable(
	input: Partial<Omit<TemplateVariable, 'variableId'>> & { name: string },
): TemplateVariable {
	const type = (input.type ?? 'text') as VariableType;
	if (!VARIABLE_TYPES.includes(type)) throw new Error(`Unknown variable type ${type}`);
	return {
		variableId: randomUUID(),
		name: input.name,
		displayName: input.displayName ?? input.name,
		type,
		required: input.required ?? true,
		defaultValue: input.defaultValue ?? null,
		description: input.description ?? '',
	};
}

function defaultDocument(name: string, recipients: TemplateRecipient[]): BlockDocument {
	return {
		format: 'blocks',
		title: name.slice(0, 40),
		blocks: [
			{ type: 'paragraph', text: `${name}: please sign below.` },
			...recipients.map((r) => ({
				type: 'signatureBlock' as const,
				recipient: r.key,
				label: r.name.slice(0, 100),
			})),
		],
	};
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
	const template = ctx.templates.findForOrg(id, orgId);
	if (!template) throw new ApiProblem(404, 'NOT_FOUND', `No template ${id}`);
	return json(200, ctx.templates.detail(template));
}

/** docs/api.md#create-template, with Create Session's errors; every token used must be declared. */
export function createTemplate({ ctx, orgId, body: raw }: Call): Reply {
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
