import '../../harness';

import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { engineDifferences } from '../../harness/engine';
import {
	tokenCredential,
	sendParams,
	useAirSign,
	expectError,
	idItems,
	UNKNOWN_ID,
} from './helpers';

const ctx = useAirSign();
const NOT_FOUND = 'AirSign has no session with this ID [NOT_FOUND]';
const recipients = [
	{ name: 'Ann Signer', email: 'ann@example.com' },
	{ name: 'Bob Witness', email: 'bob@example.com' },
];

describe('Send Session', () => {
	it('sends a draft: output is the docs/api.md#send-session answer, one invitation per recipient', async () => {
		const draft = ctx.sandbox.createSession({ name: 'Contract', recipients });
		const result = await ctx.ok(sendParams(draft.sessionId));
		expect(result.items).toHaveLength(1);
		const out = result.items[0].json;
		expect(out).toEqual({
			sessionId: draft.sessionId,
			status: 'pending',
			sentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
			recipients: recipients.map((r, i) => ({
				recipientId: draft.recipients[i].recipientId,
				...r,
				signingOrder: i + 1,
			})),
		});
		expect(ctx.sandbox.outbox.map((m) => [m.to, m.sessionId])).toEqual([
			['ann@example.com', draft.sessionId],
			['bob@example.com', draft.sessionId],
		]);
		expect(ctx.sandbox.getSession(draft.sessionId)?.status).toBe('pending');
		expect(ctx.apiRequests()).toEqual([
			expect.objectContaining({
				method: 'POST',
				path: `/api/v1/Session/${draft.sessionId}/Send`,
				status: 200,
			}),
		]);
	});

	it('does not refuse an upper-case UUID with spaces around it locally (trimmed, sent as is)', async () => {
		const draft = ctx.sandbox.createSession({ recipients });
		const result = await ctx.run(sendParams(`  ${draft.sessionId.toUpperCase()} `));
		expect(ctx.apiRequests()).toHaveLength(1);
		expect(ctx.apiRequests()[0].path).toBe(`/api/v1/Session/${draft.sessionId.toUpperCase()}/Send`);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.sessionId)).toEqual([draft.sessionId]);
		expect(ctx.sandbox.getSession(draft.sessionId)?.status).toBe('pending');
	});

	it('sessionId from an expression over 3 items, each output paired with its item', async () => {
		const drafts = [0, 1, 2].map((i) =>
			ctx.sandbox.createSession({ name: `S${i}`, recipients: [recipients[i % 2]] }),
		);
		const result = await ctx.ok(sendParams('={{ $json.id }}'), { input: idItems(drafts) });
		expect(result.items.map((i) => [i.json.sessionId, i.json.status, i.pairedItem])).toEqual(
			drafts.map((d, i) => [d.sessionId, 'pending', { item: i }]),
		);
		expect(ctx.sandbox.outbox).toHaveLength(3);
	});

	describe('service refusals, mapped', () => {
		const cases: Array<[string, () => string, string, string]> = [
			[
				'NOT_A_DRAFT',
				() => ctx.sandbox.createSession({ status: 'pending', recipients }).sessionId,
				'The session is not a draft, so it cannot be sent [NOT_A_DRAFT]',
				'Send Invitation',
			],
			[
				'NO_RECIPIENTS',
				() => ctx.sandbox.createSession({ recipients: [] }).sessionId,
				'The session has no recipients [NO_RECIPIENTS]',
				'Add at least one recipient',
			],
			[
				'INCOMPLETE_RECIPIENTS',
				() => ctx.sandbox.createSession({ recipients: [{ name: 'Ann' }] }).sessionId,
				'Some recipients of the session have no name or no email [INCOMPLETE_RECIPIENTS]',
				'the draftUrl that Create or Create From Template returned',
			],
			[
				'SELF_SIGN_ONLY',
				() => ctx.sandbox.createSession({ selfSignOnly: true, recipients }).sessionId,
				'The session is self-sign only, so there is nobody to send it to [SELF_SIGN_ONLY]',
				'Self-sign sessions',
			],
		];
		it.each(cases)(
			'%s: 400 with a clear message, no invitation',
			async (_, make, message, description) => {
				const result = await ctx.run(sendParams(make()));
				const expected = { type: NodeApiError, description, httpCode: '400', itemIndex: 0 };
				expectError(result, message, expected);
				expect(result.storedError?.message).toBe(message);
				expect(ctx.sandbox.outbox).toEqual([]);
				expect(ctx.apiRequests()).toEqual([expect.objectContaining({ status: 400 })]);
			},
		);

		it('sending twice: the second run answers NOT_A_DRAFT', async () => {
			const draft = ctx.sandbox.createSession({ recipients });
			expect((await ctx.run(sendParams(draft.sessionId))).error).toBeUndefined();
			const again = await ctx.run(sendParams(draft.sessionId));
			expect(again.error?.message).toContain('[NOT_A_DRAFT]');
			expect(ctx.sandbox.outbox).toHaveLength(2);
		});

		it("404 for an unknown session and for another organisation's, which stays a draft", async () => {
			const theirs = ctx.sandbox.createSession({ orgId: ctx.sandbox.other.orgId, recipients });
			for (const id of [UNKNOWN_ID, theirs.sessionId]) {
				const result = await ctx.run(sendParams(id));
				const description = 'another AirSign organisation';
				expectError(result, NOT_FOUND, { type: NodeApiError, description, httpCode: '404' });
			}
			expect(ctx.sandbox.getSession(theirs.sessionId)?.status).toBe('draft');
			expect(ctx.sandbox.outbox).toEqual([]);
		});

		it.each([
			[
				'403 when the token lacks write:sessions (write:files alone)',
				() => ctx.sandbox.issueToken({ scopes: ['write:files'] }),
				'The AirSign credential is not allowed to do this [HTTP 403 INSUFFICIENT_SCOPE]',
				{ description: 'write:sessions', httpCode: '403' },
			],
			[
				'401 for a wrong token',
				() => 'not-a-real-token-42',
				/^AirSign rejected the credential \[HTTP 401/,
				{ type: NodeApiError, description: 'Client Credentials', httpCode: '401' },
			],
		])('%s', async (_label, token, message, expected) => {
			ctx.cred = await tokenCredential(ctx, token());
			const draft = ctx.sandbox.createSession({ recipients });
			expectError(await ctx.run(sendParams(draft.sessionId)), message, expected);
			expect(ctx.sandbox.getSession(draft.sessionId)?.status).toBe('draft');
		});
	});

	describe('session IDs are validated before any request (no path injection)', () => {
		const bad = [
			'={{ "" }}',
			'   ',
			'../x',
			'a/b',
			'%2e%2e',
			'..%2F..%2FFile',
			'not-a-uuid',
			`${UNKNOWN_ID}/../../File`,
			'3f2b8a1e-7c4d-4e8f-9a0b-1c2d3e4f5a6',
			`${UNKNOWN_ID}?x=1`,
			`${UNKNOWN_ID}#`,
		];
		it.each(bad)('refuses %j', async (value) => {
			await ctx.refused(sendParams(value), /is not a valid AirSign session ID/);
		});

		it('an empty literal Session ID is stopped by n8n itself (required parameter), with no request', async () => {
			await expect(ctx.run(sendParams(''))).rejects.toThrow(
				engineDifferences.missingParameterMessage('Session'),
			);
			expect(ctx.sandbox.requests).toEqual([]);
		});

		it('refuses a non-string id from an expression (number, object), naming the item', async () => {
			const result = await ctx.run(sendParams('={{ $json.id }}'), {
				input: [
					{ json: { id: ctx.sandbox.createSession({ recipients }).sessionId } },
					{ json: { id: 42 } },
				],
			});
			expectError(result, 'Session ID 42 is not a valid AirSign session ID', {
				type: NodeOperationError,
				itemIndex: 1,
			});
			expect(ctx.apiRequests()).toHaveLength(1);
		});
	});
});
