import type { SandboxContext } from './context';
import { ApiProblem, invalid, json, type Reply } from './http';
import type { SignInput } from './publicTypes';
import { bodyObject } from './sessionSettings';
import type { RecipientRecord, SessionRecord, Store } from './store';

const ACTIVE = new Set(['pending', 'inProgress']);
const SIGNED = 'completed';

/**
 * docs/api.md#send-invitation: sends the invitation again to one recipient of a session
 * already sent.
 * Decisions: both recipientId and recipientEmail given is a VALIDATION_ERROR; a session not
 * pending or inProgress is SESSION_NOT_ACTIVE; an unknown recipient is 404
 * RECIPIENT_NOT_FOUND; one who already signed is RECIPIENT_ALREADY_SIGNED. The session's
 * updatedAt does not move: a reminder changes nothing in it.
 */
export function sendInvitation(
	ctx: SandboxContext,
	orgId: string,
	sessionId: string,
	raw: Buffer,
): Reply {
	const session = ctx.store.findForOrg(sessionId, orgId);
	if (!session) throw new ApiProblem(404, 'NOT_FOUND', `No session ${sessionId}`);
	const body = bodyObject(raw);
	const { recipientId, recipientEmail } = body;
	if (recipientId !== undefined && typeof recipientId !== 'string')
		throw invalid('recipientId', 'recipientId must be text');
	if (recipientEmail !== undefined && typeof recipientEmail !== 'string')
		throw invalid('recipientEmail', 'recipientEmail must be text');
	if (recipientId !== undefined && recipientEmail !== undefined)
		throw invalid('recipientId', 'Give recipientId or recipientEmail, not both');
	if (!ACTIVE.has(session.status)) {
		throw new ApiProblem(
			400,
			'SESSION_NOT_ACTIVE',
			`The session is ${session.status}; invitations are sent again only while it is pending or inProgress`,
		);
	}
	const recipient = pickRecipient(session, { recipientId, email: recipientEmail });
	const sentAt = ctx.store.stamp();
	ctx.store.outbox.push({
		to: recipient.email!,
		name: recipient.name!,
		sessionId: session.sessionId,
		sessionName: session.name,
		sentAt: ctx.store.iso(sentAt),
		reminder: true,
	});
	return json(200, {
		success: true,
		sessionId: session.sessionId,
		recipientId: recipient.recipientId,
		recipientEmail: recipient.email,
		sentAt: ctx.store.iso(sentAt),
	});
}

/** The recipient named, or the next (by signing order) who has not signed. */
export function pickRecipient(session: SessionRecord, pick: SignInput): RecipientRecord {
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
		throw new ApiProblem(
			404,
			'RECIPIENT_NOT_FOUND',
			`The session has no recipient ${pick.recipientId ?? pick.email}`,
		);
	}
	if (recipient.status === SIGNED)
		throw new ApiProblem(400, 'RECIPIENT_ALREADY_SIGNED', 'This recipient has already signed');
	return recipient;
}

/**
 * Recipient progress (control plane): one recipient signs. The session moves from pending to
 * inProgress, and to completed (with completedDate) when everyone has signed; updatedAt moves.
 */
export function signRecipient(store: Store, session: SessionRecord, pick: SignInput): void {
	if (!ACTIVE.has(session.status))
		throw new Error(`The session is ${session.status}; only a sent session can be signed`);
	const recipient = pickRecipient(session, pick);
	const now = store.stamp();
	recipient.status = SIGNED;
	session.updatedAt = now;
	if (session.recipients.every((r) => r.status === SIGNED)) {
		session.status = 'completed';
		session.completedDate = now;
	} else {
		session.status = 'inProgress';
	}
}

/**
 * Completion (control plane): every recipient who has not signed signs at once, so the session is
 * completed as after its last signature, never with a signer left `sent`; updatedAt moves.
 */
export function completeSession(store: Store, session: SessionRecord): void {
	if (!ACTIVE.has(session.status))
		throw new Error(`The session is ${session.status}; only a sent session can be completed`);
	const now = store.stamp();
	for (const recipient of session.recipients) recipient.status = SIGNED;
	session.status = 'completed';
	session.updatedAt = now;
	session.completedDate = now;
}
