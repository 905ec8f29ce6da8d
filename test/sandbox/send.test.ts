import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CreateSessionInput } from '../../sandbox';
import { expectError, useApi } from './helpers';

const { sandbox, post, list, send } = useApi({ now: '2025-06-16T14:22:00.123Z' });
const NOW = '2025-06-16T14:22:00.123Z';
const DAY = 24 * 60 * 60 * 1000;
const annAndBob = [
	{ name: 'Ann', email: 'ann@example.com' },
	{ name: 'Bob', email: 'bob@example.com' },
];
const statusOf = (sessionId: string) => sandbox().getSession(sessionId)!.status;

describe('Send Session (docs/api.md#send-session)', () => {
	it('draft → pending: 200 with sessionId, status pending, sentAt and recipients (recipientId, name, email, signingOrder only)', async () => {
		const draft = sandbox().createSession({
			name: 'Contract',
			recipients: annAndBob,
			createdAt: '2025-06-10T00:00:00.000Z',
		});
		const res = await send(draft.sessionId);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			sessionId: draft.sessionId,
			status: 'pending',
			sentAt: NOW,
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
		const at = '2025-06-16T14:22:05.123Z';
		expect(after).toMatchObject({ status: 'pending', sentAt: at, updatedAt: at });
		expect(after.recipients.map((r) => r.status)).toEqual(['sent']);
		expect((await list('status=pending')).body.sessions[0].updatedAt).toBe(at);
	});

	it('sending: signing invitations are emailed to every recipient (outbox)', async () => {
		const draft = sandbox().createSession({ name: 'NDA', recipients: annAndBob });
		await send(draft.sessionId);
		expect(sandbox().outbox).toEqual(
			annAndBob.map(({ name, email }) => ({
				to: email,
				name,
				sessionId: draft.sessionId,
				sessionName: 'NDA',
				sentAt: NOW,
			})),
		);
	});

	it('sending: with expiryDays the expiry period starts at the moment of sending', async () => {
		const draft = sandbox().createSession({ expiryDays: 7, createdAt: '2025-06-01T00:00:00.000Z' });
		expect(draft.expiryDate).toBeNull();
		await send(draft.sessionId);
		const expected = new Date(Date.parse(NOW) + 7 * DAY).toISOString();
		expect(sandbox().getSession(draft.sessionId)!.expiryDate).toBe(expected);
		expect((await list()).body.sessions[0].expiryDate).toBe(expected);
	});

	it('without expiryDays no expiryDate is set', async () => {
		const draft = sandbox().createSession();
		await send(draft.sessionId);
		expect(sandbox().getSession(draft.sessionId)!.expiryDate).toBeNull();
	});

	it.each(['pending', 'inProgress', 'completed', 'cancelled', 'expired'] as const)(
		'a %s session → 400 NOT_A_DRAFT',
		async (status) => {
			expectError(await send(sandbox().createSession({ status }).sessionId), 400, 'NOT_A_DRAFT');
			expect(sandbox().outbox).toHaveLength(0);
		},
	);

	it('sending twice → the second answers 400 NOT_A_DRAFT', async () => {
		const draft = sandbox().createSession();
		expect((await send(draft.sessionId)).status).toBe(200);
		expectError(await send(draft.sessionId), 400, 'NOT_A_DRAFT');
		expect(sandbox().outbox).toHaveLength(1);
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
		expectError(await send(draft.sessionId), 400, 'INCOMPLETE_RECIPIENTS');
		expect(statusOf(draft.sessionId)).toBe('draft');
	});

	it.each([
		['no recipients → 400 NO_RECIPIENTS', { recipients: [] }, 'NO_RECIPIENTS'],
		['self-sign only → 400 SELF_SIGN_ONLY', { selfSignOnly: true }, 'SELF_SIGN_ONLY'],
	] as Array<[string, CreateSessionInput, string]>)('%s', async (_title, fields, code) => {
		expectError(await send(sandbox().createSession(fields).sessionId), 400, code);
	});

	it('rules are checked in order (not a draft before recipients before self-sign)', async () => {
		for (const [code, fields] of [
			['NOT_A_DRAFT', { status: 'pending', recipients: [] }],
			['NO_RECIPIENTS', { recipients: [] }],
			['INCOMPLETE_RECIPIENTS', { recipients: [{ name: 'Ann' }] }],
		] as Array<[string, CreateSessionInput]>) {
			const session = sandbox().createSession({ ...fields, selfSignOnly: true });
			expect((await send(session.sessionId)).body.code).toBe(code);
		}
	});

	// Each refused, the draft unchanged (tokens and scopes: auth.test.ts).
	it.each([
		['unknown session → 404 NOT_FOUND', () => send(randomUUID()), 404, 'NOT_FOUND'],
		['a sessionId that is not a UUID → 404 NOT_FOUND', () => send('not-a-uuid'), 404],
		[
			"another organisation's session → 404",
			(id: string) => send(id, sandbox().other.accessToken),
			404,
		],
	] as const)('%s', async (_title, request, status, code?: string) => {
		const draft = sandbox().createSession();
		const res = await request(draft.sessionId);
		expect(res.status).toBe(status);
		if (code) expectError(res, status, code);
		expect(statusOf(draft.sessionId)).toBe('draft');
	});

	it('request body: none is needed, and one sent anyway is ignored', async () => {
		const draft = sandbox().createSession();
		const res = await post(`/Session/${draft.sessionId}/Send`, { status: 'completed' });
		expect(res.body.status).toBe('pending');
	});
});
