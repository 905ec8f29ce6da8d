/** Session → Send Invitation, and its 'Send To': 'Next Who Has Not Signed', or 'A Specific Recipient'. */
import '../../harness';

import type { INodeParameters } from 'n8n-workflow';
import { NodeApiError, NodeHelpers, NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { AirSign } from '../../../nodes/AirSign/AirSign.node';
import {
	asTool,
	expectError,
	locator,
	recordSleeps,
	tokenCredential,
	UNKNOWN_ID,
	useAirSign,
	onId,
} from './helpers';
import { listSearch } from './loadOptions';

const ctx = useAirSign();
const recipients = [
	{ name: 'Ann', email: 'ann@example.com' },
	{ name: 'Bob', email: 'bob@example.com' },
];
const params = (sessionId: string, extra: INodeParameters = {}) =>
	onId('session', 'sendInvitation')(locator(sessionId), extra);
const specific = (sessionId: string, mode: string, value: string) =>
	params(sessionId, { recipient: 'specific', recipientLocator: locator(value, mode) });
const posts = () => ctx.apiRequests().filter((r) => r.method === 'POST');
const reminders = () => ctx.sandbox.outbox.filter((m) => m.reminder);
const remindedTo = () => reminders().map((m) => m.to);
const NOT_ACTIVE =
	'The session is not waiting for signatures, so no invitation was sent [SESSION_NOT_ACTIVE]';

describe('Session → Send Invitation', () => {
	it('by default reminds the next recipient who has not signed; output is the answer, sentAt in ISO UTC', async () => {
		const session = ctx.sandbox.createSession({ status: 'pending', recipients });
		ctx.sandbox.signRecipient(session.sessionId);
		const result = await ctx.ok(params(session.sessionId));
		expect(result.items[0].json).toEqual({
			success: true,
			sessionId: session.sessionId,
			recipientId: session.recipients[1].recipientId,
			recipientEmail: 'bob@example.com',
			sentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
		});
		expect(remindedTo()).toEqual(['bob@example.com']);
	});

	it('checks the session ID before any request', async () => {
		const badSession = await ctx.run(params('={{ "x/../y" }}'));
		expectError(badSession, /is not a valid AirSign session ID/, { type: NodeOperationError });
		expect(ctx.sandbox.requests).toEqual([]);
	});

	describe("AirSign's refusals, in words a builder can act on", () => {
		it('SESSION_NOT_ACTIVE for a draft (send it with Send instead)', async () => {
			const draft = ctx.sandbox.createSession({ recipients });
			const result = await ctx.run(params(draft.sessionId));
			const description = 'Send a draft with Send';
			expectError(result, NOT_ACTIVE, { type: NodeApiError, description, httpCode: '400' });
		});

		it("RECIPIENT_NOT_FOUND and RECIPIENT_ALREADY_SIGNED (pointing to 'Next Who Has Not Signed'), for 'A Specific Recipient'", async () => {
			const session = ctx.sandbox.createSession({ status: 'pending', recipients });
			const missing = await ctx.run(specific(session.sessionId, 'email', 'zoe@example.com'));
			expectError(missing, 'The session has no such recipient [RECIPIENT_NOT_FOUND]', {
				description: "Check 'Recipient'",
				httpCode: '404',
			});
			ctx.sandbox.signRecipient(session.sessionId);
			const signed = await ctx.run(specific(session.sessionId, 'email', 'ann@example.com'));
			expectError(signed, /\[RECIPIENT_ALREADY_SIGNED\]/, {
				description: "Choose 'Next Who Has Not Signed' in 'Send To'",
			});
		});

		it("404 for another organisation's session; 403 names the scope", async () => {
			const theirs = ctx.sandbox.createSession({
				orgId: ctx.sandbox.other.orgId,
				status: 'pending',
			});
			const result = await ctx.run(params(theirs.sessionId));
			expect(result.error!.message).toBe('AirSign has no session with this ID [NOT_FOUND]');
			ctx.cred = await tokenCredential(ctx, ctx.sandbox.issueToken({ scopes: ['write:files'] }));
			const mine = ctx.sandbox.createSession({ status: 'pending', recipients });
			const forbidden = await ctx.run(params(mine.sessionId));
			expect(forbidden.error!.description).toContain('write:sessions');
			expect(reminders()).toEqual([]);
		});
	});

	describe('never repeated after a failure that may have reached AirSign', () => {
		it('a lost answer (handled, then the connection dropped): one request, the error says to check AirSign', async () => {
			const sleeps = recordSleeps();
			const session = ctx.sandbox.createSession({ status: 'pending', recipients });
			ctx.sandbox.injectFault({ kind: 'dropAfter', path: '/api/v1/Session/' });
			const result = await ctx.run(params(session.sessionId));
			expectError(
				result,
				'No answer from AirSign (connection closed by the server): check AirSign before running again: the invitation may have been sent',
				{ type: NodeApiError },
			);
			expect(posts()).toHaveLength(1);
			expect(reminders()).toHaveLength(1);
			expect(sleeps.requested).toEqual([]);
		});

		it('a 5xx: one request, no retry', async () => {
			const session = ctx.sandbox.createSession({ status: 'pending', recipients });
			ctx.sandbox.injectFault({ kind: 'status', status: 503, path: '/api/v1/Session/' });
			const result = await ctx.run(params(session.sessionId));
			expect(result.error!.message).toBe(
				'AirSign could not finish the request [HTTP 503 INTERNAL]: check AirSign before running again: the invitation may have been sent',
			);
			expect(posts()).toHaveLength(1);
		});

		it('a 429 was not processed: waited out within Max Wait, then sent once', async () => {
			const sleeps = recordSleeps();
			const session = ctx.sandbox.createSession({ status: 'pending', recipients });
			ctx.sandbox.injectFault({ kind: 'rateLimit', path: '/api/v1/Session/', retryAfter: 2 });
			await ctx.ok(params(session.sessionId));
			expect(sleeps.requested).toEqual([2000]);
			expect(posts().map((r) => r.status)).toEqual([429, 200]);
			expect(reminders()).toHaveLength(1);
		});
	});

	it('Continue On Fail with the error output: the failing item goes there, paired', async () => {
		const ok = ctx.sandbox.createSession({ status: 'pending', recipients });
		const draft = ctx.sandbox.createSession({ recipients });
		const result = await ctx.run(params('={{ $json.id }}'), {
			input: [{ json: { id: ok.sessionId } }, { json: { id: draft.sessionId } }],
			continueOnFail: 'continueErrorOutput',
		});
		expect(result.outputs[0].map((i) => [i.json.sessionId, i.pairedItem])).toEqual([
			[ok.sessionId, { item: 0 }],
		]);
		expect(result.outputs[1].map((i) => [i.json.error, i.pairedItem])).toEqual([
			[NOT_ACTIVE, { item: 1 }],
		]);
	});
});

describe("Send Invitation: 'Send To' and 'Recipient', as n8n resolves a node's parameters", () => {
	const node = new AirSign().description;
	const resolved = (values: INodeParameters) =>
		NodeHelpers.getNodeParameters(
			node.properties,
			{ resource: 'session', operation: 'sendInvitation', ...values },
			true,
			false,
			{ typeVersion: 1 },
			node,
		)!;

	it("'Next Who Has Not Signed' by default; 'A Specific Recipient' shows the locator on From List", () => {
		const next = resolved({});
		expect(next).toMatchObject({ recipient: 'next' });
		expect(next).not.toHaveProperty('recipientLocator');
		const chosen = resolved({ recipient: 'specific' });
		expect(chosen.recipientLocator).toEqual({ __rl: true, mode: 'list', value: '' });
		const field = node.properties.find((p) => p.name === 'recipientLocator')!;
		expect(field.modes!.map((m) => m.displayName)).toEqual(['From List', 'By ID', 'By Email']);
	});

	it("the choice and the locator have distinct labels: 'Send To', then 'Recipient'", () => {
		const shown = node.properties.filter(
			(p) =>
				p.displayOptions?.show?.operation?.includes('sendInvitation') &&
				['recipient', 'recipientLocator'].includes(p.name),
		);
		expect(shown.map((p) => [p.name, p.displayName])).toEqual([
			['recipient', 'Send To'],
			['recipientLocator', 'Recipient'],
		]);
	});
});

describe("Send Invitation: 'Recipient' From List", () => {
	/** The list the editor offers once this session is chosen (filtered when given). */
	const offeredFor = (sessionId: unknown, filter?: string) =>
		listSearch(ctx, 'searchRecipients', { filter, parameters: { sessionId } as INodeParameters });

	it("offers the chosen session's recipients who can be reminded, with their email and status in words, filtered by name or email: one Get Session each time", async () => {
		const session = ctx.sandbox.createSession({
			status: 'pending',
			recipients: [...recipients, { name: 'Cy', email: 'cy@example.com', status: 'notSent' }],
		});
		const signed = ctx.sandbox.signRecipient(session.sessionId);
		const [ann, bob, cy] = signed.recipients;
		expect([ann.status, bob.status, cy.status]).toEqual(['completed', 'sent', 'notSent']);
		for (const given of [locator(session.sessionId), session.sessionId]) {
			const result = await offeredFor(given);
			// Ann has signed: AirSign would refuse to remind her (RECIPIENT_ALREADY_SIGNED)
			expect(result).toEqual({
				results: [
					{ name: 'Bob <bob@example.com> (sent)', value: bob.recipientId },
					{ name: 'Cy <cy@example.com> (not sent)', value: cy.recipientId },
				],
			});
		}
		const bobs = await offeredFor(locator(session.sessionId), ' BOB ');
		expect(bobs.results.map((r) => r.value)).toEqual([bob.recipientId]);
		expect(ctx.apiRequests().map((r) => [r.method, r.path])).toEqual(
			Array(3).fill(['GET', `/api/v1/Session/${session.sessionId}`]),
		);
	});

	it('every recipient the list offers can be reminded; a session not waiting for signatures offers none', async () => {
		const pending = ctx.sandbox.createSession({ status: 'pending', recipients });
		ctx.sandbox.signRecipient(pending.sessionId);
		const offered = await offeredFor(locator(pending.sessionId));
		expect(offered.results).toHaveLength(1);
		for (const { value } of offered.results) {
			const run = await ctx.ok(specific(pending.sessionId, 'list', String(value)));
			expect(run.items[0].json).toMatchObject({ recipientId: value });
		}
		for (const status of ['draft', 'completed', 'cancelled', 'expired'] as const) {
			const session = ctx.sandbox.createSession({ status, recipients });
			const result = await offeredFor(locator(session.sessionId));
			expect(result, status).toEqual({ results: [] });
		}
	});

	it('a session given By URL is read as the Session field reads it', async () => {
		const session = ctx.sandbox.createSession({ status: 'pending', recipients });
		const url = `https://app.airsign.example/sessions/${session.sessionId}/edit`;
		const result = await offeredFor(locator(url, 'url'));
		expect(result.results.map((r) => r.value)).toEqual(
			session.recipients.map((r) => r.recipientId),
		);
	});

	it('no session chosen yet (or one the editor cannot read): an empty list, no request', async () => {
		for (const sessionId of [undefined, locator('', 'list'), '={{ $json.id }}', 'nope']) {
			const result = await offeredFor(sessionId);
			expect(result).toEqual({ results: [] });
		}
		expect(ctx.sandbox.requests).toEqual([]);
	});
});

describe("Send Invitation: 'A Specific Recipient'", () => {
	it('From List and By ID send the recipientId, By Email the email (AirSign refuses both at once)', async () => {
		const session = ctx.sandbox.createSession({ status: 'inProgress', recipients });
		const [ann, bob] = session.recipients;
		const fromList = await ctx.ok(specific(session.sessionId, 'list', bob.recipientId));
		expect(fromList.items[0].json).toMatchObject({ recipientId: bob.recipientId });
		const byId = await ctx.ok(
			specific(session.sessionId, 'id', ` ${ann.recipientId.toUpperCase()} `),
		);
		expect(byId.items[0].json).toMatchObject({ recipientId: ann.recipientId });
		const byEmail = await ctx.ok(specific(session.sessionId, 'email', ' BOB@example.com '));
		expect(byEmail.items[0].json).toMatchObject({ recipientEmail: 'bob@example.com' });
		expect(remindedTo()).toEqual(['bob@example.com', 'ann@example.com', 'bob@example.com']);
	});

	it("a bad ID, a bad email or nothing fails before any request, naming 'Recipient' and the item", async () => {
		const session = ctx.sandbox.createSession({ status: 'pending', recipients });
		// The editor refuses such a value typed in (the modes' validation): it comes from an expression.
		const cases: Array<[string, string, RegExp]> = [
			['id', 'bob', /^Recipient ID "bob" is not a valid AirSign recipient ID$/],
			['list', '', /^Recipient ID "" is not a valid AirSign recipient ID$/],
			['email', 'bob@', /^'Recipient' is not an email address: "bob@"$/],
			['email', ' ', /^'Recipient' is not an email address: " "$/],
		];
		for (const [mode, value, message] of cases) {
			const expression = `={{ ${JSON.stringify(value)} }}`;
			const result = await ctx.run(specific(session.sessionId, mode, expression));
			expectError(result, message, { type: NodeOperationError, itemIndex: 0 });
		}
		const second = await ctx.run(specific(session.sessionId, 'email', '={{ $json.email }}'), {
			input: [{ json: { email: 'bob@' } }, { json: { email: 'ann' } }],
			continueOnFail: true,
		});
		expect(second.items.map((i) => [i.json.error, i.pairedItem])).toEqual([
			[expect.stringMatching(/Recipient.* "bob@"$/), { item: 0 }],
			[expect.stringMatching(/Recipient.* "ann"$/), { item: 1 }],
		]);
		expect(ctx.sandbox.requests).toEqual([]);
	});

	it("an error item names the recipient under AirSign's field for the mode", async () => {
		const session = ctx.sandbox.createSession({ status: 'pending', recipients });
		const byId = await ctx.run(specific(session.sessionId, 'id', UNKNOWN_ID), {
			continueOnFail: true,
		});
		expect(byId.items[0].json).toMatchObject({
			sessionId: session.sessionId,
			recipientId: UNKNOWN_ID,
		});
		const byEmail = await ctx.run(specific(session.sessionId, 'email', 'zoe@example.com'), {
			continueOnFail: true,
		});
		expect(byEmail.items[0].json).toMatchObject({ recipientEmail: 'zoe@example.com' });
		expect(byEmail.items[0].json).not.toHaveProperty('recipientId');
	});

	it("as an agent's tool: the email the model gives reminds that recipient; a bad one is an answer, no request", async () => {
		const session = ctx.sandbox.createSession({ status: 'pending', recipients });
		const parameters = specific(session.sessionId, 'email', '={{ $json.email }}');
		const sent = await ctx.run(parameters, {
			nodeType: asTool(),
			input: [{ json: { email: 'bob@example.com' } }],
		});
		expect(sent.items[0].json).toMatchObject({ recipientEmail: 'bob@example.com' });
		const before = ctx.sandbox.requests.length;
		const refused = await ctx.ok(parameters, {
			nodeType: asTool(),
			input: [{ json: { email: 'bob' } }],
		});
		expect(refused.items[0].json).toMatchObject({
			recipientEmail: 'bob',
			error: expect.stringMatching(/Recipient.* is not an email address: "bob"$/),
		});
		expect(ctx.sandbox.requests.length).toBe(before);
		expect(remindedTo()).toEqual(['bob@example.com']);
	});
});
