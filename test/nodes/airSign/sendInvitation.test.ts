import '../../harness';

import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	apiRequests,
	tokenCredential,
	recordSleeps,
	runAirSign,
	useAirSign,
	runOk,
	locator,
} from './helpers';

const ctx = useAirSign();
const recipients = [
	{ name: 'Ann', email: 'ann@example.com' },
	{ name: 'Bob', email: 'bob@example.com' },
];
const params = (sessionId: string, extra: Record<string, unknown> = {}) => ({
	resource: 'session',
	operation: 'sendInvitation',
	sessionId: locator(sessionId),
	...extra,
});
const byEmail = (email: string) => ({
	recipient: 'specific',
	recipientLocator: locator(email, 'email'),
});
const posts = () => apiRequests(ctx.sandbox).filter((r) => r.method === 'POST');
const reminders = () => ctx.sandbox.outbox.filter((m) => m.reminder);

describe('Session → Send Invitation', () => {
	it('by default reminds the next recipient who has not signed; output is the answer, sentAt in ISO UTC', async () => {
		const session = ctx.sandbox.createSession({ status: 'pending', recipients });
		ctx.sandbox.signRecipient(session.sessionId);
		const result = await runOk(ctx, params(session.sessionId));
		expect(result.items[0].json).toEqual({
			success: true,
			sessionId: session.sessionId,
			recipientId: session.recipients[1].recipientId,
			recipientEmail: 'bob@example.com',
			sentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
		});
		expect(reminders().map((m) => m.to)).toEqual(['bob@example.com']);
	});

	it('checks the session ID before any request (the recipient: sendInvitationRecipient.test.ts)', async () => {
		const badSession = await runAirSign(ctx, params('={{ "x/../y" }}'));
		expect(badSession.error).toBeInstanceOf(NodeOperationError);
		expect(badSession.error!.message).toContain('is not a valid AirSign session ID');
		expect(ctx.sandbox.requests).toEqual([]);
	});

	describe("AirSign's refusals, in words a builder can act on", () => {
		it('SESSION_NOT_ACTIVE for a draft (send it with Send instead)', async () => {
			const draft = ctx.sandbox.createSession({ recipients });
			const result = await runAirSign(ctx, params(draft.sessionId));
			expect(result.error).toBeInstanceOf(NodeApiError);
			expect(result.error!.message).toBe(
				'The session is not waiting for signatures, so no invitation was sent [SESSION_NOT_ACTIVE]',
			);
			expect(result.error!.description).toContain('Send a draft with Send');
			expect(result.error!.httpCode).toBe('400');
		});

		it("RECIPIENT_NOT_FOUND and RECIPIENT_ALREADY_SIGNED, for 'A Specific Recipient'", async () => {
			const session = ctx.sandbox.createSession({ status: 'pending', recipients });
			const missing = await runAirSign(ctx, params(session.sessionId, byEmail('zoe@example.com')));
			expect(missing.error!.message).toBe(
				'The session has no such recipient [RECIPIENT_NOT_FOUND]',
			);
			expect(missing.error!.description).toContain("Check 'Recipient'");
			expect(missing.error!.httpCode).toBe('404');
			ctx.sandbox.signRecipient(session.sessionId);
			const signed = await runAirSign(ctx, params(session.sessionId, byEmail('ann@example.com')));
			expect(signed.error!.message).toContain('[RECIPIENT_ALREADY_SIGNED]');
			expect(signed.error!.description).toContain("'Next Who Has Not Signed' in 'Send To'");
		});

		it("404 for another organisation's session; 403 names the scope", async () => {
			const theirs = ctx.sandbox.createSession({
				orgId: ctx.sandbox.other.orgId,
				status: 'pending',
			});
			const result = await runAirSign(ctx, params(theirs.sessionId));
			expect(result.error!.message).toBe('AirSign has no session with this ID [NOT_FOUND]');
			ctx.cred = await tokenCredential(ctx, ctx.sandbox.issueToken({ scopes: ['write:files'] }));
			const mine = ctx.sandbox.createSession({ status: 'pending', recipients });
			const forbidden = await runAirSign(ctx, params(mine.sessionId));
			expect(forbidden.error!.description).toContain('write:sessions');
			expect(reminders()).toEqual([]);
		});
	});

	describe('never repeated after a failure that may have reached AirSign', () => {
		it('a lost answer (handled, then the connection dropped): one request, the error says to check AirSign', async () => {
			const sleeps = recordSleeps();
			const session = ctx.sandbox.createSession({ status: 'pending', recipients });
			ctx.sandbox.injectFault({ kind: 'dropAfter', path: '/api/v1/Session/' });
			const result = await runAirSign(ctx, params(session.sessionId));
			expect(result.error).toBeInstanceOf(NodeApiError);
			expect(result.error!.message).toBe(
				'No answer from AirSign (connection closed by the server): check AirSign before running again: the invitation may have been sent',
			);
			expect(posts()).toHaveLength(1);
			expect(reminders()).toHaveLength(1);
			expect(sleeps.requested).toEqual([]);
		});

		it('a 5xx: one request, no retry', async () => {
			const session = ctx.sandbox.createSession({ status: 'pending', recipients });
			ctx.sandbox.injectFault({ kind: 'status', status: 503, path: '/api/v1/Session/' });
			const result = await runAirSign(ctx, params(session.sessionId));
			expect(result.error!.message).toBe(
				'AirSign could not finish the request [HTTP 503 INTERNAL]: check AirSign before running again: the invitation may have been sent',
			);
			expect(posts()).toHaveLength(1);
		});

		it('a 429 was not processed: waited out within Max Wait, then sent once', async () => {
			const sleeps = recordSleeps();
			const session = ctx.sandbox.createSession({ status: 'pending', recipients });
			ctx.sandbox.injectFault({ kind: 'rateLimit', path: '/api/v1/Session/', retryAfter: 2 });
			await runOk(ctx, params(session.sessionId));
			expect(sleeps.requested).toEqual([2000]);
			expect(posts().map((r) => r.status)).toEqual([429, 200]);
			expect(reminders()).toHaveLength(1);
		});
	});

	it('Continue On Fail with the error output: the failing item goes there, paired', async () => {
		const ok = ctx.sandbox.createSession({ status: 'pending', recipients });
		const draft = ctx.sandbox.createSession({ recipients });
		const result = await runAirSign(ctx, params('={{ $json.id }}'), {
			input: [{ json: { id: ok.sessionId } }, { json: { id: draft.sessionId } }],
			continueOnFail: 'continueErrorOutput',
		});
		expect(result.outputs[0].map((i) => [i.json.sessionId, i.pairedItem])).toEqual([
			[ok.sessionId, { item: 0 }],
		]);
		expect(result.outputs[1].map((i) => [i.json.error, i.pairedItem])).toEqual([
			[
				'The session is not waiting for signatures, so no invitation was sent [SESSION_NOT_ACTIVE]',
				{ item: 1 },
			],
		]);
	});
});
