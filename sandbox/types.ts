import type { BlocksFile } from './publicTypes';

export const SESSION_STATUSES = [
	'draft',
	'pending',
	'inProgress',
	'completed',
	'cancelled',
	'expired',
] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export type TimestampPrecision = 'ms' | 's';
/** An instant given by a caller: ISO 8601 text, epoch milliseconds or a Date. */
export type TimeInput = string | number | Date;

export interface SandboxConfig {
	tokenTtlSeconds: number;
	timestampPrecision: TimestampPrecision;
	updatedAfterInclusive: boolean;
	tieOrder: 'id' | 'random';
	/** Seed of the random order of `tieOrder: 'random'`, applied when the sandbox starts or resets. */
	tieSeed: number;
	rateLimitPerHour: number;
	/** docs/api.md#rate-limits: one budget shared by every endpoint of the public API. */
	publicRateLimitPerHour: number;
	maxFileBytes: number;
	/** Requests per `burstWindowSeconds` on /api/v1 (0: none), then 429: a service shedding bursts. */
	burstLimit: number;
	burstWindowSeconds: number;
}

export interface SandboxOptions extends Partial<SandboxConfig> {
	port?: number;
	host?: string;
	seedDemoData?: boolean;
	/** Start the clock at this instant, frozen (see README, Clock). Default: real time, running. */
	now?: TimeInput;
}

export interface OrgCredentials {
	orgId: string;
	clientId: string;
	clientSecret: string;
	/** Ready token with `write:sessions write:files` that never expires. */
	accessToken: string;
}

export interface Recipient {
	recipientId: string;
	name: string | null;
	email: string | null;
	status: string;
	recipientType: string;
	signingOrder: number;
}

/** A session's file: an uploaded PDF (`fileName` shown, default the upload's), or a block document. */
export type SessionFile = { type: 'uploadedPdf'; fileId: string; fileName?: string } | BlocksFile;

/** Settings of a session beyond List Sessions' fields (docs/api.md#create-session). */
export interface SessionSettings {
	sessionType: string;
	reminderEnabled: boolean | null;
	reminderFrequency: string | null;
	templateId: string | null;
	tagIds: string[];
	senderProfileId: string | null;
	completionEmailRecipients: string | null;
}

/** A session with times of type T: ISO text as the control plane shows it, epoch ms as stored. */
export interface SessionOf<T> extends SessionSettings {
	sessionId: string;
	orgId: string;
	name: string;
	status: SessionStatus;
	selfSignOnly: boolean;
	createdAt: T;
	updatedAt: T;
	completedDate: T | null;
	expiryDate: T | null;
	sentAt: T | null;
	expiryDays: number | null;
	recipients: Recipient[];
	files: SessionFile[];
}
export type Session = SessionOf<string>;

export type RecipientInput = Partial<Recipient>;

export interface CreateSessionInput {
	orgId?: string;
	sessionId?: string;
	name?: string;
	status?: SessionStatus;
	/** Omitted: one complete recipient. `[]`: none (for NO_RECIPIENTS). */
	recipients?: RecipientInput[];
	selfSignOnly?: boolean;
	expiryDays?: number | null;
	createdAt?: TimeInput;
	updatedAt?: TimeInput;
	completedDate?: TimeInput | null;
	sentAt?: TimeInput | null;
	files?: Array<SessionFile | string>;
	/** Public API settings; defaults: offlineSigning, nothing else set. */
	settings?: Partial<SessionSettings>;
}

export interface UpdateSessionPatch
	extends Omit<CreateSessionInput, 'orgId' | 'sessionId' | 'sentAt' | 'settings'> {
	/** Only move updatedAt to now (every patch does; explicit times win over it). */
	touch?: boolean;
	/** Explicit expiry; otherwise `expired` sets it to updatedAt when none is due by then. */
	expiryDate?: TimeInput | null;
}

/** One recipient's status changes (default recipient: the first in signing order). */
export interface RecipientStatusInput {
	recipientId?: string;
	email?: string;
	status: string;
	updatedAt?: TimeInput;
}

export interface OutboxEmail {
	to: string;
	name: string;
	sessionId: string;
	sessionName: string;
	sentAt: string;
	/** Set on an invitation sent again by Send Invitation (a reminder). */
	reminder?: true;
}

export interface StoredFile {
	fileName: string;
	bytes: Buffer;
	orgId: string;
}

export interface RequestLogEntry {
	method: string;
	path: string;
	query: Record<string, string>;
	/** 0 when a `drop` fault cut the connection. */
	status: number;
	orgId?: string;
	/** Sandbox-clock time the request arrived, ISO with milliseconds. */
	at: string;
	atMs: number;
	/** Kind of the fault that answered instead of the API, if any. */
	fault?: FaultKind;
}

export const FAULT_KINDS = [
	'latency',
	'status',
	'drop',
	'dropAfter',
	'malformed',
	'rateLimit',
	'answer',
	'mangle',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** What a fuzzing fault answers: `answer` sends it unhandled; `mangle` edits the real answer. */
export interface FuzzedAnswer {
	/** Status line (default: the real one, or 200 for `answer`). */
	status?: number;
	/** Raw body text (`answer`; with `mangle` it replaces the real body). */
	body?: string;
	/** `mangle`: JSON edits of the real body, in order: a value set at a path, or (no `value`) deleted. */
	edits?: Array<{ path: Array<string | number>; value?: unknown; delete?: boolean }>;
	/** `mangle`: the real body cut to this many bytes (after the edits). */
	truncateAt?: number;
	/** Headers set on the answer (a Content-Type here replaces the JSON one). */
	headers?: Record<string, string>;
	/** The Date header: a text to send instead of the sandbox clock's, or null for none at all. */
	date?: string | null;
}

export interface Fault {
	kind: FaultKind;
	method?: string;
	path?: string;
	count?: number;
	skip?: number;
	status?: number;
	/** `status` faults: the body's code (default INTERNAL); null: a body without any code. */
	code?: string | null;
	/** `status` faults: the body's message (default "Injected fault"). */
	message?: string;
	delayMs?: number;
	retryAfter?: number;
	/** Kinds `answer` and `mangle`: what to answer. */
	answer?: FuzzedAnswer;
}

export type RequestInfo = Pick<RequestLogEntry, 'method' | 'path' | 'query'>;

export type RequestHook = (request: RequestInfo) => void | Promise<void>;

export interface IssueTokenOptions {
	orgId?: string;
	/** Array or space-separated list. Default `write:sessions write:files`. */
	scopes?: string[] | string;
	/** Default: config.tokenTtlSeconds. `null` or `Infinity`: never expires. */
	ttlSeconds?: number | null;
}
