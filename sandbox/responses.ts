import type { SessionRecord, Store } from './store';

/** A session as List Sessions shows it (spec 2.3): no orgId, sentAt, expiryDays or files. */
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
		recipients: s.recipients.map((r) => ({
			recipientId: r.recipientId,
			name: r.name,
			email: r.email,
			status: r.status,
			recipientType: r.recipientType,
			signingOrder: r.signingOrder,
		})),
	};
}

/** Get Session (airsign-notes.md): the list item plus its files. */
export function sessionDetail(store: Store, s: SessionRecord) {
	return {
		...sessionListItem(store, s),
		files: s.files.map((f) => ({
			fileId: f.fileId,
			fileName: store.files.get(f.fileId)?.fileName ?? null,
			fileType: 'application/pdf',
		})),
	};
}

/** Send Session result (spec 2.5): recipients carry only these four fields. */
export function sendResult(store: Store, s: SessionRecord) {
	return {
		sessionId: s.sessionId,
		status: s.status,
		sentAt: store.iso(s.sentAt!),
		recipients: s.recipients.map((r) => ({
			recipientId: r.recipientId,
			name: r.name,
			email: r.email,
			signingOrder: r.signingOrder,
		})),
	};
}
