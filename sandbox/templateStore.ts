import { randomUUID } from 'node:crypto';
import {
	VARIABLE_TYPES,
	type BlockDocument,
	type CreateTemplateInput,
	type Template,
	type TemplateRecipient,
	type TemplateVariable,
	type VariableType,
} from './publicTypes';
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

	findForOrg(templateId: string, orgId: string): TemplateRecord {
		return ownedBy(this.templates, templateId, orgId, 'template');
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
