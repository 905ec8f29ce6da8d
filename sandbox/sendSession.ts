import type { Call } from './context';
import { ApiProblem, apiError, checkTexts, invalid, json, type Reply } from './http';
import type { SignInput } from './publicTypes';
import { sendResult, sessionDetail } from './responses';
import { bodyObject } from './sessionSettings';
import { DAY_MS, type SessionRecord, type Store } from './store';
import type { Recipient } from './types';

const ACTIVE = new Set(['pending', 'inProgress']);
const SIGNED = 'completed';
const isBlank = (value: string | null) => value === null || value.trim() === '';

/** docs/api.md#send-session: the draft → pending transition, its rules checked in their order. */
export function sendSession({ ctx, orgId, id: sessionId }: Call): Reply {
	const session = ctx.store.findForOrg(sessionId, orgId);
	if (!session) return apiError(404, 'NOT_FOUND', `No session ${sessionId}`);
	const message = `The session is ${session.status}; only a draft can be sent`;
	if (session.status !== 'draft') return apiError(400, 'NOT_A_DRAFT', message);
	if (session.recipients.length === 0)
		return apiError(400, 'NO_RECIPIENTS', 'The session has no recipients');
	if (session.recipients.some((r) => isBlank(r.name) || isBlank(r.email))) {
		const message = 'Some recipients lack a name or an email; finish the draft in the editor';
		return apiError(400, 'INCOMPLETE_RECIPIENTS', message);
	}
	if (session.selfSignOnly)
		return apiError(400, 'SELF_SIGN_ONLY', 'A self-sign only session cannot be sent');
	markSent(ctx.store, session);
	return json(200, sendResult(ctx.store, session));
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
		invite(store, session, recipient, sentAt);
	}
}

const invite = (store: Store, s: SessionRecord, r: Recipient, at: number, reminder = false) =>
	store.outbox.push({
		to: r.email!,
		name: r.name!,
		sessionId: s.sessionId,
		sessionName: s.name,
		sentAt: store.iso(at),
		...(reminder && { reminder: true as const }),
	});

/**
 * docs/api.md#send-invitation: the invitation again, to one recipient of a sent session (errors
 * as decided in docs/api.md). updatedAt does not move: a reminder changes nothing in the session.
 */
export function sendInvitation({ ctx, orgId, id: sessionId, body }: Call): Reply {
	const session = ctx.store.findForOrg(sessionId, orgId);
	if (!session) throw new ApiProblem(404, 'NOT_FOUND', `No session ${sessionId}`);
	const { recipientId, recipientEmail } = bodyObject(body);
	checkTexts({ recipientId, recipientEmail });
	if (recipientId !== undefined && recipientEmail !== undefined)
		throw invalid('recipientId', 'Give recipientId or recipientEmail, not both');
	if (!ACTIVE.has(session.status)) {
		const message = `The session is ${session.status}; invitations are sent again only while it is pending or inProgress`;
		throw new ApiProblem(400, 'SESSION_NOT_ACTIVE', message);
	}
	const recipient = pickRecipient(session, {
		recipientId: recipientId as string | undefined,
		email: recipientEmail as string | undefined,
	});
	const sentAt = ctx.store.stamp();
	invite(ctx.store, session, recipient, sentAt, true);
	return json(200, {
		success: true,
		sessionId: session.sessionId,
		recipientId: recipient.recipientId,
		recipientEmail: recipient.email,
		sentAt: ctx.store.iso(sentAt),
	});
}

/** docs/api.md#get-session: the session with its type and files. */
export function getSession({ ctx, orgId, id }: Call): Reply {
	const session = ctx.store.findForOrg(id, orgId);
	if (!session) throw new ApiProblem(404, 'NOT_FOUND', `No session ${id}`);
	return json(200, sessionDetail(ctx.store, session));
}

/** The recipient named, or the next (by signing order) who has not signed. */
function pickRecipient(session: SessionRecord, pick: SignInput): Recipient {
	if (pick.recipientId === undefined && pick.email === undefined) {
		const next = session.recipients.find((r) => r.status !== SIGNED);
		if (!next) throw new ApiProblem(400, 'SESSION_NOT_ACTIVE', 'Every recipient has signed');
		return next;
	}
	const recipient = session.recipients.find((r) =>
		pick.recipientId !== undefined
			? r.recipientId.toLowerCase() === pick.recipientId.toLowerCase()
			: r.email?.toLowerCase() === pick.email!.trim().toLowerCase(),
	);
	if (!recipient) {
		const who = pick.recipientId ?? pick.email;
		throw new ApiProblem(404, 'RECIPIENT_NOT_FOUND', `The session has no recipient ${who}`);
	}
	if (recipient.status === SIGNED)
		throw new ApiProblem(400, 'RECIPIENT_ALREADY_SIGNED', 'This recipient has already signed');
	return recipient;
}

const assertSent = (session: SessionRecord, what: string) => {
	if (!ACTIVE.has(session.status))
		throw new Error(`The session is ${session.status}; only a sent session can be ${what}`);
};

/**
 * Recipient progress (control plane): one recipient signs. The session moves from pending to
 * inProgress, and to completed (with completedDate) when everyone has signed; updatedAt moves.
 */
export function signRecipient(store: Store, session: SessionRecord, pick: SignInput) {
	assertSent(session, 'signed');
	const recipient = pickRecipient(session, pick);
	recipient.status = SIGNED;
	session.updatedAt = store.stamp();
	const done = session.recipients.every((r) => r.status === SIGNED);
	session.status = done ? 'completed' : 'inProgress';
	if (done) session.completedDate = session.updatedAt;
	return session;
}

/**
 * Completion (control plane): every recipient who has not signed signs at once, so the session is
 * completed as after its last signature, never with a signer left `sent`; updatedAt moves.
 */
export function completeSession(store: Store, session: SessionRecord) {
	assertSent(session, 'completed');
	for (const recipient of session.recipients) recipient.status = SIGNED;
	session.status = 'completed';
	session.updatedAt = session.completedDate = store.stamp();
	return session;
}
