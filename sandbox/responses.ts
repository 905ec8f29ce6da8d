import type { SessionRecord, Store } from './store';

/** A session as docs/api.md#list-sessions shows it: no orgId, sentAt, expiryDays or files. */
export function sessionListItem(store: Store, s: SessionRecord) {
	return {
		sessionId: s.sessionId,
		name: s.name,
		status: s.status,
		selfSignOnly: s.selfSignOnly,
		createdAt: store.iso(s.createdAt),
		updatedAt: store.iso(s.updatedAt),
		completedDate: store.isoOrNull(s.completedDate),
		expiryDate: store.isoOrNull(s.expiryDate),
		recipients: s.recipients.map((r) => ({ ...r })),
	};
}

/** Get Session (docs/api.md#get-session): the list item plus its type and files. */
export function sessionDetail(store: Store, s: SessionRecord) {
	return {
		...sessionListItem(store, s),
		sessionType: s.sessionType,
		files: s.files.map((f) => ({
			fileId: f.fileId,
			fileName: f.fileName ?? store.files.get(f.fileId)?.fileName ?? null,
			fileType: 'application/pdf',
		})),
	};
}

/** The answer of Create Session and Create From Template: the session, plus draftUrl while a draft. */
export function createdSession(store: Store, baseUrl: string, s: SessionRecord) {
	return {
		...sessionDetail(store, s),
		...(s.sentAt !== null && { sentAt: store.iso(s.sentAt) }),
		// Where a draft is reviewed (docs/api.md#create-session); the sandbox serves a page there.
		...(s.status === 'draft' && { draftUrl: `${baseUrl}/app/sessions/${s.sessionId}/edit` }),
	};
}

const ISO_TIMESTAMP = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(\.\d+)?Z$/;

/**
 * The older Create From Template page writes times as `2025-07-02 16:19:36` (no T, no zone);
 * the sandbox does the same in that answer so that clients prove they read it as UTC.
 */
export function withZonelessTimes<T extends Record<string, unknown>>(answer: T): T {
	const copy: Record<string, unknown> = { ...answer };
	for (const key of ['createdAt', 'updatedAt', 'completedDate', 'expiryDate', 'sentAt']) {
		const match = typeof copy[key] === 'string' ? ISO_TIMESTAMP.exec(copy[key] as string) : null;
		if (match) copy[key] = `${match[1]} ${match[2]}`;
	}
	return copy as T;
}

/** Send Session result (docs/api.md#send-session): recipients carry only these four fields. */
export function sendResult(store: Store, s: SessionRecord) {
	return {
		sessionId: s.sessionId,
		status: s.status,
		sentAt: store.iso(s.sentAt!),
		recipients: s.recipients.map(({ recipientId, name, email, signingOrder }) => ({
			recipientId,
			name,
			email,
			signingOrder,
		})),
	};
}
