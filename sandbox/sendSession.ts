import type { SandboxContext } from './context';
import { apiError, json, type Reply } from './http';
import { sendResult } from './responses';
import { DAY_MS, type SessionRecord, type Store } from './store';

const isBlank = (value: string | null) => value === null || value.trim() === '';

/** docs/api.md#send-session: the draft → pending transition, its rules checked in their order. */
export function sendSession(ctx: SandboxContext, orgId: string, sessionId: string): Reply {
	const { store } = ctx;
	const session = store.findForOrg(sessionId, orgId);
	if (!session) return apiError(404, 'NOT_FOUND', `No session ${sessionId}`);
	if (session.status !== 'draft') {
		return apiError(
			400,
			'NOT_A_DRAFT',
			`The session is ${session.status}; only a draft can be sent`,
		);
	}
	if (session.recipients.length === 0)
		return apiError(400, 'NO_RECIPIENTS', 'The session has no recipients');
	if (session.recipients.some((r) => isBlank(r.name) || isBlank(r.email))) {
		return apiError(
			400,
			'INCOMPLETE_RECIPIENTS',
			'Some recipients lack a name or an email; finish the draft in the editor',
		);
	}
	if (session.selfSignOnly)
		return apiError(400, 'SELF_SIGN_ONLY', 'A self-sign only session cannot be sent');

	markSent(store, session);
	return json(200, sendResult(store, session));
}

/** What sending does: pending, sentAt, expiry counting, one invitation per recipient. */
export function markSent(store: Store, session: SessionRecord): void {
	const sentAt = store.stamp();
	session.status = 'pending';
	session.sentAt = sentAt;
	session.updatedAt = sentAt;
	if (session.expiryDays !== null) session.expiryDate = sentAt + session.expiryDays * DAY_MS;
	for (const recipient of session.recipients) {
		recipient.status = 'sent';
		store.outbox.push({
			to: recipient.email!,
			name: recipient.name!,
			sessionId: session.sessionId,
			sessionName: session.name,
			sentAt: store.iso(sentAt),
		});
	}
}
