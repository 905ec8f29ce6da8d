import { randomUUID } from 'node:crypto';
import { ApiProblem } from './http';
import { formatTimestamp, toMillis, truncateToPrecision, type SandboxClock } from './clock';
import {
	SESSION_STATUSES,
	type CreateSessionInput,
	type OutboxEmail,
	type Recipient,
	type RecipientInput,
	type RecipientStatusInput,
	type SandboxConfig,
	type Session,
	type SessionOf,
	type SessionFile,
	type SessionSettings,
	type SessionStatus,
	type StoredFile,
	type TimeInput,
	type UpdateSessionPatch,
} from './types';

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Internal form of a session: times as epoch ms so filters and sorts compare numbers. */
export type SessionRecord = SessionOf<number>;

const SENT_STATUSES = new Set<SessionStatus>(['pending', 'inProgress', 'completed', 'expired']);
const ALEX = { name: 'Alex Signer', email: 'alex.signer@example.com' };

/** Organisations' sessions, uploaded files and the invitation outbox. */
export class Store {
	readonly sessions = new Map<string, SessionRecord>();
	readonly files = new Map<string, StoredFile>();
	readonly outbox: OutboxEmail[] = [];

	constructor(
		private readonly clock: Pick<SandboxClock, 'now'>,
		private readonly config: SandboxConfig,
		private readonly defaultOrgId: string,
	) {}

	/** Current time at the configured precision: the value every write stores. */
	stamp(value?: TimeInput): number {
		const ms = value === undefined ? this.clock.now() : toMillis(value);
		return truncateToPrecision(ms, this.config.timestampPrecision);
	}

	iso(ms: number): string {
		return formatTimestamp(ms, this.config.timestampPrecision);
	}

	isoOrNull(ms: number | null): string | null {
		return ms === null ? null : this.iso(ms);
	}

	/** `value` stamped; null stays null; undefined gives `fallback`. */
	private stampOr(value: TimeInput | null | undefined, fallback: number | null): number | null {
		return value === undefined ? fallback : value === null ? null : this.stamp(value);
	}

	clear(): void {
		this.sessions.clear();
		this.files.clear();
		this.outbox.length = 0;
	}

	createSession(input: CreateSessionInput = {}): SessionRecord {
		const status = input.status ?? 'draft';
		assertStatus(status);
		const sessionId = (input.sessionId ?? randomUUID()).toLowerCase();
		if (this.sessions.has(sessionId)) throw new Error(`Session ${sessionId} already exists`);
		const createdAt = this.stamp(input.createdAt);
		const updatedAt = input.updatedAt === undefined ? createdAt : this.stamp(input.updatedAt);
		const sentAt = this.stampOr(input.sentAt, SENT_STATUSES.has(status) ? createdAt : null);
		const expiryDays = input.expiryDays ?? null;
		const record: SessionRecord = {
			sessionId,
			orgId: input.orgId ?? this.defaultOrgId,
			name: input.name ?? 'Untitled session',
			status,
			selfSignOnly: input.selfSignOnly ?? false,
			createdAt,
			updatedAt,
			completedDate: this.stampOr(input.completedDate, status === 'completed' ? updatedAt : null),
			sentAt,
			expiryDays,
			expiryDate: sentAt !== null && expiryDays !== null ? sentAt + expiryDays * DAY_MS : null,
			recipients: buildRecipients(input.recipients ?? [ALEX], defaultRecipientStatus(status)),
			files: normaliseFiles(input.files ?? []),
			...defaultSettings(),
			...input.settings,
		};
		this.sessions.set(sessionId, record);
		return record;
	}

	/** The session, whichever organisation owns it; throws when there is none. */
	get(sessionId: string): SessionRecord {
		const record = this.sessions.get(sessionId.toLowerCase());
		if (!record) throw new Error(`No session ${sessionId}`);
		return record;
	}

	updateSession(sessionId: string, patch: UpdateSessionPatch): SessionRecord {
		const record = this.get(sessionId);
		const previousStatus = record.status;
		if (patch.status !== undefined) {
			assertStatus(patch.status);
			record.status = patch.status;
		}
		if (patch.name !== undefined) record.name = patch.name;
		if (patch.selfSignOnly !== undefined) record.selfSignOnly = patch.selfSignOnly;
		if (patch.expiryDays !== undefined) record.expiryDays = patch.expiryDays;
		if (patch.recipients !== undefined)
			record.recipients = buildRecipients(patch.recipients, defaultRecipientStatus(record.status));
		if (patch.files !== undefined) record.files = normaliseFiles(patch.files);
		if (patch.createdAt !== undefined) record.createdAt = this.stamp(patch.createdAt);
		record.updatedAt = this.stamp(patch.updatedAt);
		if (patch.completedDate !== undefined)
			record.completedDate = this.stampOr(patch.completedDate, null);
		else if (patch.status === 'completed' && record.completedDate === null)
			record.completedDate = record.updatedAt;
		if (previousStatus === 'draft' && SENT_STATUSES.has(record.status)) {
			// Sent now (as Send Session does): sentAt, the expiry period, invitations out.
			if (record.sentAt === null) record.sentAt = record.updatedAt;
			if (record.expiryDays !== null && record.expiryDate === null)
				record.expiryDate = record.sentAt + record.expiryDays * DAY_MS;
			for (const recipient of record.recipients)
				if (recipient.status === 'notSent') recipient.status = 'sent';
		}
		const { expiryDate, updatedAt } = record;
		const lapsed = expiryDate === null || expiryDate > updatedAt;
		if (patch.expiryDate !== undefined) record.expiryDate = this.stampOr(patch.expiryDate, null);
		else if (patch.status === 'expired' && previousStatus !== 'expired' && lapsed)
			record.expiryDate = updatedAt;
		return record;
	}

	/** A recipient's status becomes any text (AirSign's are undocumented); updatedAt moves. */
	setRecipientStatus(sessionId: string, input: RecipientStatusInput): SessionRecord {
		const record = this.get(sessionId);
		if (typeof input.status !== 'string' || input.status === '')
			throw new Error('status must be a non-empty string');
		const recipient =
			input.recipientId !== undefined
				? record.recipients.find((r) => r.recipientId === input.recipientId)
				: input.email !== undefined
					? record.recipients.find((r) => r.email === input.email)
					: record.recipients[0];
		if (!recipient) throw new Error(`No such recipient in session ${sessionId}`);
		recipient.status = input.status;
		record.updatedAt = this.stamp(input.updatedAt);
		return record;
	}

	/** A session only exists for the organisation that owns it (404 otherwise). */
	findForOrg(sessionId: string, orgId: string): SessionRecord {
		return ownedBy(this.sessions, sessionId, orgId, 'session');
	}

	sessionsOfOrg(orgId: string): SessionRecord[] {
		return [...this.sessions.values()].filter((s) => s.orgId === orgId);
	}

	/** Full copy for the control plane and tests; mutations of it do not reach the store. */
	snapshot(record: SessionRecord): Session {
		return {
			...structuredClone(record),
			createdAt: this.iso(record.createdAt),
			updatedAt: this.iso(record.updatedAt),
			completedDate: this.isoOrNull(record.completedDate),
			expiryDate: this.isoOrNull(record.expiryDate),
			sentAt: this.isoOrNull(record.sentAt),
		};
	}
}

/** The item under `id` (any case) if `orgId` owns it, else 404: another organisation's does not exist. */
export function ownedBy<T extends { orgId: string }>(
	items: Map<string, T>,
	id: string,
	orgId: string,
	kind: string,
): T {
	const item = items.get(id.toLowerCase());
	if (item?.orgId !== orgId) throw new ApiProblem(404, 'NOT_FOUND', `No ${kind} ${id}`);
	return item;
}

function assertStatus(status: string): asserts status is SessionStatus {
	if (!(SESSION_STATUSES as readonly string[]).includes(status))
		throw new Error(`Unknown session status ${status}`);
}

function defaultRecipientStatus(status: SessionStatus): string {
	if (status === 'draft') return 'notSent';
	if (status === 'completed') return 'completed';
	return 'sent';
}

function buildRecipients(inputs: RecipientInput[], defaultStatus: string): Recipient[] {
	return inputs
		.map((input, index) => ({
			recipientId: input.recipientId ?? randomUUID(),
			name: input.name ?? null,
			email: input.email ?? null,
			status: input.status ?? defaultStatus,
			recipientType: input.recipientType ?? 'toCompleteEmail',
			signingOrder: input.signingOrder ?? index + 1,
		}))
		.sort((a, b) => a.signingOrder - b.signingOrder);
}

function normaliseFiles(files: Array<SessionFile | string>): SessionFile[] {
	return files.map((f) =>
		typeof f === 'string' ? { type: 'uploadedPdf', fileId: f } : structuredClone(f),
	);
}

const defaultSettings = (): SessionSettings => ({
	sessionType: 'offlineSigning',
	reminderEnabled: null,
	reminderFrequency: null,
	templateId: null,
	tagIds: [],
	senderProfileId: null,
	completionEmailRecipients: null,
});
