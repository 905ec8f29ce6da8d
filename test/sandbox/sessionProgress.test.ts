import { describe, expect, it } from 'vitest';
import { expectError, shown, UNKNOWN_ID, useApi } from './helpers';

const { sandbox, get, post, list, control } = useApi({ now: '2025-06-16T14:22:00.000Z' });
const invite = (sessionId: string, json?: unknown) =>
	post(`/Session/${sessionId}/SendInvitation`, json);
const recipients = [
	{ name: 'Ann', email: 'ann@example.com' },
	{ name: 'Bob', email: 'bob@example.com' },
];
const pending = () => sandbox().createSession({ status: 'pending', recipients });
const statuses = (session: { recipients: Array<{ status: string }> }) =>
	session.recipients.map((r) => r.status);

describe('Get Session (docs/api.md#get-session)', () => {
	it('the session in full: type, files, recipients with status and recipientType', async () => {
		const session = pending();
		const res = await get(`/Session/${session.sessionId}`);
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({
			sessionId: session.sessionId,
			status: 'pending',
			sessionType: 'offlineSigning',
			completedDate: null,
			files: [],
		});
		const { recipientId } = session.recipients[0];
		expect(res.body.recipients[0]).toEqual(
			shown({ recipientId, name: 'Ann', email: 'ann@example.com', status: 'sent' }),
		);
	});

	it('404 for a malformed id (tokens: auth.test.ts)', async () => {
		expect((await get('/Session/not-a-uuid')).status).toBe(404);
	});
});

describe('Send Invitation (docs/api.md#send-invitation)', () => {
	it('no body: the next recipient who has not signed; the answer; a reminder in the outbox; updatedAt stays', async () => {
		const session = sandbox().createSession({
			status: 'pending',
			recipients,
			createdAt: '2025-06-10T00:00:00Z',
		});
		sandbox().signRecipient(session.sessionId);
		const updatedAt = sandbox().getSession(session.sessionId)!.updatedAt;
		sandbox().clock.advance(60_000);
		const res = await invite(session.sessionId);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			success: true,
			sessionId: session.sessionId,
			recipientId: session.recipients[1].recipientId,
			recipientEmail: 'bob@example.com',
			sentAt: '2025-06-16T14:23:00.000Z',
		});
		expect(sandbox().outbox).toEqual([
			expect.objectContaining({
				to: 'bob@example.com',
				reminder: true,
				sessionId: session.sessionId,
			}),
		]);
		expect(sandbox().getSession(session.sessionId)!.updatedAt).toBe(updatedAt);
	});

	it('a recipient chosen by recipientId or by recipientEmail (any case)', async () => {
		const session = sandbox().createSession({ status: 'inProgress', recipients });
		const chosen = async (json: unknown) =>
			(await invite(session.sessionId, json)).body.recipientEmail;
		expect(await chosen({ recipientId: session.recipients[1].recipientId })).toBe(
			'bob@example.com',
		);
		expect(await chosen({ recipientEmail: 'ANN@example.com' })).toBe('ann@example.com');
	});

	it('both fields given → VALIDATION_ERROR (sandbox decision; the node sends one)', async () => {
		const session = pending();
		const res = await invite(session.sessionId, {
			recipientId: session.recipients[0].recipientId,
			recipientEmail: 'ann@example.com',
		});
		expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR' });
		expect(sandbox().outbox).toEqual([]);
	});

	it('a session not pending or inProgress → 400 SESSION_NOT_ACTIVE', async () => {
		for (const status of ['draft', 'completed', 'cancelled', 'expired'] as const) {
			const session = sandbox().createSession({ status, recipients });
			expectError(await invite(session.sessionId), 400, 'SESSION_NOT_ACTIVE');
		}
		expect(sandbox().outbox).toEqual([]);
	});

	it("an unknown or another organisation's session → 404 NOT_FOUND; an unknown recipient → 404 RECIPIENT_NOT_FOUND", async () => {
		const theirs = sandbox().createSession({ orgId: sandbox().other.orgId, status: 'pending' });
		expect((await invite(theirs.sessionId)).body.code).toBe('NOT_FOUND');
		const res = await invite(pending().sessionId, { recipientEmail: 'zoe@example.com' });
		expectError(res, 404, 'RECIPIENT_NOT_FOUND');
	});

	it('a recipient who already signed → 400 RECIPIENT_ALREADY_SIGNED (sandbox decision)', async () => {
		const session = pending();
		sandbox().signRecipient(session.sessionId);
		const res = await invite(session.sessionId, { recipientEmail: 'ann@example.com' });
		expect(res.body.code).toBe('RECIPIENT_ALREADY_SIGNED');
	});
});

describe('recipient progress (control plane)', () => {
	it('signing moves pending → inProgress → completed, updatedAt moving, so List Sessions (and the trigger) sees it', async () => {
		const session = sandbox().createSession({
			status: 'pending',
			recipients,
			createdAt: '2025-06-16T10:00:00Z',
		});
		sandbox().clock.advance(1000);
		const first = await control('POST', `/sessions/${session.sessionId}/sign`, {
			email: 'ann@example.com',
		});
		expect(first.status).toBe(200);
		expect(first.body).toMatchObject({
			status: 'inProgress',
			updatedAt: '2025-06-16T14:22:01.000Z',
			completedDate: null,
		});
		const updated = await list('updatedAfter=2025-06-16T14:22:00.500Z');
		expect(updated.body.sessions.map((s: { status: string }) => s.status)).toEqual(['inProgress']);
		sandbox().clock.advance(1000);
		const done = sandbox().signRecipient(session.sessionId);
		expect(done).toMatchObject({
			status: 'completed',
			updatedAt: '2025-06-16T14:22:02.000Z',
			completedDate: '2025-06-16T14:22:02.000Z',
		});
		expect(statuses(done)).toEqual(['completed', 'completed']);
	});

	it('only a sent session can be signed', async () => {
		const draft = sandbox().createSession();
		expect(() => sandbox().signRecipient(draft.sessionId)).toThrow(/only a sent session/);
	});

	it('POST …/complete: every recipient who has not signed signs, the session is completed', async () => {
		const session = pending();
		sandbox().clock.advance(1000);
		sandbox().signRecipient(session.sessionId, { email: 'ann@example.com' });
		sandbox().clock.advance(1000);
		const res = await control('POST', `/sessions/${session.sessionId}/complete`);
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({
			status: 'completed',
			updatedAt: '2025-06-16T14:22:02.000Z',
			completedDate: '2025-06-16T14:22:02.000Z',
		});
		expect(statuses(res.body)).toEqual(['completed', 'completed']);
		expect(sandbox().getSession(session.sessionId)).toEqual(res.body);
	});

	it('only a sent session can be completed this way; an unknown one is 404', async () => {
		const draft = sandbox().createSession({ recipients });
		expect(() => sandbox().completeSession(draft.sessionId)).toThrow(/only a sent session/);
		expect(statuses(sandbox().getSession(draft.sessionId)!)).toEqual(['notSent', 'notSent']);
		expect((await control('POST', `/sessions/${UNKNOWN_ID}/complete`)).status).toBe(404);
	});
});
