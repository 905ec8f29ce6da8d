/** What the public API adds (docs/api.md): block documents, templates, plan features. */
import type { TimeInput } from './types';

/** Plan features an organisation may lack (docs/api.md#plan-features); the third name is ours. */
export const PLAN_FEATURES = [
	'Session Expiry',
	'Sender Profiles',
	'Completion Email Recipients',
] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

export const REMINDER_FREQUENCIES = ['daily', 'weekly', 'monthly', 'quarterly'] as const;
export const COMPLETION_EMAIL_RECIPIENTS = ['all', 'sender_only', 'sender_and_cc', 'none'] as const;
export const VARIABLE_TYPES = ['text', 'number', 'date', 'image', 'table'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

/** docs/api.md#block-documents: a document AirSign lays out by itself. */
export interface BlockDocument {
	format: 'blocks';
	title: string;
	subtitle?: string;
	footerLabel?: string;
	blocks: Block[];
}

export type Block =
	| { type: 'heading'; text: string }
	| { type: 'paragraph'; text: string; fontSize?: number; bold?: boolean; muted?: boolean }
	| { type: 'spacer'; height: number }
	| { type: 'pageBreak' }
	| { type: 'signatureBlock'; recipient: string; label: string };

/** A block document stored as a session's or a template's file. */
export interface BlocksFile {
	type: 'blocks';
	fileId: string;
	fileName: string;
	document: BlockDocument;
}

export type TemplateStatus = 'draft' | 'active';

export interface TemplateRecipient {
	/** What Get Template shows: always the literal "default". */
	recipientId: 'default';
	/** The key signature blocks name (not shown by Get Template). */
	key: string;
	/** The role, e.g. "Employee". */
	name: string;
	/** Often empty: filled in when a session is created. May hold {{{tokens}}}. */
	email: string;
	recipientType: string;
	signingOrder: number;
}

export interface TemplateVariable {
	variableId: string;
	name: string;
	displayName: string;
	type: VariableType;
	required: boolean;
	defaultValue: string | number | null;
	description: string;
}

/** A template as the control plane shows it: everything stored, times as ISO text. */
export interface Template {
	templateId: string;
	orgId: string;
	name: string;
	status: TemplateStatus;
	selfSignOnly: boolean;
	createdAt: string;
	updatedAt: string;
	files: Array<{ fileId: string; fileName: string }>;
	recipients: TemplateRecipient[];
	variables: TemplateVariable[];
	document: BlockDocument;
	expiryDays: number | null;
	reminderEnabled: boolean | null;
	reminderFrequency: string | null;
}

export interface CreateTemplateInput {
	orgId?: string;
	templateId?: string;
	name?: string;
	status?: TemplateStatus;
	selfSignOnly?: boolean;
	createdAt?: TimeInput;
	/** Default: one paragraph and a signature block per recipient. */
	document?: BlockDocument;
	/** Default: one role "Signer" without an email. */
	recipients?: Array<{ key?: string; name?: string; email?: string; signingOrder?: number }>;
	variables?: Array<Partial<Omit<TemplateVariable, 'variableId'>> & { name: string }>;
	expiryDays?: number | null;
	reminderEnabled?: boolean | null;
	reminderFrequency?: string | null;
}

/** How a recipient is picked for a signature by the control plane (default: the next who has not signed). */
export interface SignInput {
	recipientId?: string;
	email?: string;
}
