import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, list } from './helpers';
import { useSandbox } from '../harness/sandbox';

const sandbox = useSandbox({ now: '2025-06-16T14:22:00.123Z' });
const send = (sessionId: string, token?: string | null) =>
	call(sandbox(), 'POST', `/api/v1/Session/${sessionId}/Send`, { token });
const DAY = 24 * 60 * 60 * 1000;

describe('Send Session (docs/api.md#send-session)', () => {
	it('draft → pending: 200 with sessionId, status pending, sentAt and recipients (recipientId, name, email, signingOrder only)', async () => {
		const draft = sandbox().createSession({
			name: 'Contract',
			recipients: [
				{ name: 'Ann', email: 'ann@example.com' },
				{ name: 'Bob', email: 'bob@example.com' },
			],
			createdAt: '2025-06-10T00:00:00.000Z',
		});
		const res = await send(draft.sessionId);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			sessionId: draft.sessionId,
			status: 'pending',
			sentAt: '2025-06-16T14:22:00.123Z',
			recipients: draft.recipients.map(({ recipientId, name, email, signingOrder }) => ({
				recipientId,
				name,
				email,
				signingOrder,
			})),
		});
		expect(Object.keys(res.body.recipients[0]).sort()).toEqual([
			'email',
			'name',
			'recipientId',
			'signingOrder',
		]);
	});

	it('sending: sentAt is set and updatedAt moves to the send time; recipients become sent', async () => {
		const draft = sandbox().createSession({ createdAt: '2025-06-01T00:00:00.000Z' });
		expect(draft.recipients[0].status).toBe('notSent');
		sandbox().clock.advance(5000);
		await send(draft.sessionId);
		const after = sandbox().getSession(draft.sessionId)!;
		expect(after).toMatchObject({
			status: 'pending',
			sentAt: '2025-06-16T14:22:05.123Z',
			updatedAt: '2025-06-16T14:22:05.123Z',
		});
		expect(after.recipients.map((r) => r.status)).toEqual(['sent']);
		const listed = (await list(sandbox(), 'status=pending')).body.sessions[0];
		expect(listed.updatedAt).toBe('2025-06-16T14:22:05.123Z');
	});

	it('sending: signing invitations are emailed to every recipient (outbox)', async () => {
		const draft = sandbox().createSession({
			name: 'NDA',
			recipients: [
				{ name: 'Ann', email: 'ann@example.com' },
				{ name: 'Bob', email: 'bob@example.com' },
			],
		});
		await send(draft.sessionId);
		expect(sandbox().outbox).toEqual([
			{
				to: 'ann@example.com',
				name: 'Ann',
				sessionId: draft.sessionId,
				sessionName: 'NDA',
				sentAt: '2025-06-16T14:22:00.123Z',
			},
			{
				to: 'bob@example.com',
				name: 'Bob',
				sessionId: draft.sessionId,
				sessionName: 'NDA',
				sentAt: '2025-06-16T14:22:00.123Z',
			},
		]);
	});

	it('sending: with expiryDays the expiry period starts at the moment of sending', async () => {
		const draft = sandbox().createSession({ expiryDays: 7, createdAt: '2025-06-01T00:00:00.000Z' });
		expect(draft.expiryDate).toBeNull();
		await send(draft.sessionId);
		const expected = new Date(Date.parse('2025-06-16T14:22:00.123Z') + 7 * DAY).toISOString();
		expect(sandbox().getSession(draft.sessionId)!.expiryDate).toBe(expected);
		expect((await list(sandbox())).body.sessions[0].expiryDate).toBe(expected);
	});

	it('without expiryDays no expiryDate is set', async () => {
		const draft = sandbox().createSession();
		await send(draft.sessionId);
		expect(sandbox().getSession(draft.sessionId)!.expiryDate).toBeNull();
	});

	it.each(['pending', 'inProgress', 'completed', 'cancelled', 'expired'] as const)(
		'a %s session → 400 NOT_A_DRAFT',
		async (status) => {
			const session = sandbox().createSession({ status });
			const res = await send(session.sessionId);
			expect([res.status, res.body.code]).toEqual([400, 'NOT_A_DRAFT']);
			expect(sandbox().outbox).toHaveLength(0);
		},
	);

	it('sending twice → the second answers 400 NOT_A_DRAFT', async () => {
		const draft = sandbox().createSession();
		expect((await send(draft.sessionId)).status).toBe(200);
		expect((await send(draft.sessionId)).body.code).toBe('NOT_A_DRAFT');
		expect(sandbox().outbox).toHaveLength(1);
	});

	it('no recipients → 400 NO_RECIPIENTS', async () => {
		const draft = sandbox().createSession({ recipients: [] });
		const res = await send(draft.sessionId);
		expect([res.status, res.body.code]).toEqual([400, 'NO_RECIPIENTS']);
	});

	it.each([
		['no name', { email: 'a@example.com' }],
		['no email', { name: 'Ann' }],
		['a blank name', { name: '  ', email: 'a@example.com' }],
		['a blank email', { name: 'Ann', email: '' }],
	])('a recipient with %s → 400 INCOMPLETE_RECIPIENTS', async (_label, incomplete) => {
		const draft = sandbox().createSession({
			recipients: [{ name: 'Bob', email: 'bob@example.com' }, incomplete],
		});
		const res = await send(draft.sessionId);
		expect([res.status, res.body.code]).toEqual([400, 'INCOMPLETE_RECIPIENTS']);
		expect(sandbox().getSession(draft.sessionId)!.status).toBe('draft');
	});

	it('self-sign only → 400 SELF_SIGN_ONLY', async () => {
		const draft = sandbox().createSession({ selfSignOnly: true });
		const res = await send(draft.sessionId);
		expect([res.status, res.body.code]).toEqual([400, 'SELF_SIGN_ONLY']);
	});

	it('rules are checked in order (not a draft before recipients before self-sign)', async () => {
		const notDraft = sandbox().createSession({
			status: 'pending',
			recipients: [],
			selfSignOnly: true,
		});
		expect((await send(notDraft.sessionId)).body.code).toBe('NOT_A_DRAFT');
		const empty = sandbox().createSession({ recipients: [], selfSignOnly: true });
		expect((await send(empty.sessionId)).body.code).toBe('NO_RECIPIENTS');
		const incomplete = sandbox().createSession({
			recipients: [{ name: 'Ann' }],
			selfSignOnly: true,
		});
		expect((await send(incomplete.sessionId)).body.code).toBe('INCOMPLETE_RECIPIENTS');
	});

	it('missing token → 401 (session unchanged)', async () => {
		const draft = sandbox().createSession();
		const res = await send(draft.sessionId, null);
		expect([res.status, res.body.code]).toEqual([401, 'UNAUTHORIZED']);
		expect(sandbox().getSession(draft.sessionId)!.status).toBe('draft');
	});

	it('invalid token → 401', async () => {
		const draft = sandbox().createSession();
		expect((await send(draft.sessionId, 'garbage')).status).toBe(401);
	});

	it('unknown session → 404 NOT_FOUND', async () => {
		const res = await send(randomUUID());
		expect([res.status, res.body.code]).toEqual([404, 'NOT_FOUND']);
	});

	it('a sessionId that is not a UUID → 404 NOT_FOUND', async () => {
		expect((await send('not-a-uuid')).status).toBe(404);
	});

	it("another organisation's session → 404 and stays a draft", async () => {
		const theirs = sandbox().createSession({ orgId: sandbox().other.orgId });
		expect((await send(theirs.sessionId)).status).toBe(404);
		expect(sandbox().getSession(theirs.sessionId)!.status).toBe('draft');
	});

	it('scopes: Send Session needs write:sessions → 403 INSUFFICIENT_SCOPE with write:files only', async () => {
		const draft = sandbox().createSession();
		const token = sandbox().issueToken({ scopes: ['write:files'] });
		const res = await send(draft.sessionId, token);
		expect([res.status, res.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
	});

	it('request body: none is needed, and one sent anyway is ignored', async () => {
		const draft = sandbox().createSession();
		const res = await call(sandbox(), 'POST', `/api/v1/Session/${draft.sessionId}/Send`, {
			json: { status: 'completed' },
		});
		expect(res.body.status).toBe('pending');
	});
});
