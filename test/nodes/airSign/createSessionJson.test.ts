import '../../harness';

import type { INodeParameters } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { ann, blockDoc, jsonMode, simple, uploaded } from './createSessionParams';
import {
	apiRequests,
	expectRefused,
	tokenCredential,
	recordSleeps,
	runAirSign,
	runOk,
	useAirSign,
	stubAirSign,
} from './helpers';

const ctx = useAirSign();
const posts = () => apiRequests(ctx.sandbox).filter((r) => r.method === 'POST');
const upload = (name?: string) => uploaded(ctx.sandbox, name);

describe('Session → Create, Block Documents (JSON)', () => {
	it('one document or a list, recipients with keys and signing order', async () => {
		const result = await runOk(
			ctx,
			jsonMode(
				[blockDoc(['buyer']), blockDoc(['seller'], 'Schedule')],
				[
					{ key: 'buyer', ...ann, signingOrder: 2 },
					{ key: 'seller', name: 'Sam', email: 'sam@example.com', signingOrder: 1 },
				],
			),
		);
		const stored = ctx.sandbox.getSession(result.items[0].json.sessionId as string)!;
		expect(stored.files.map((f) => f.fileName)).toEqual(['Agreement.pdf', 'Schedule.pdf']);
		expect(stored.recipients.map((r) => r.name)).toEqual(['Sam', 'Ann Signer']);
	});

	const a = [{ key: 'a', ...ann }];
	/** A document for recipient "a", `blocks` before its paragraph and signature block. */
	const withBlocks = (...blocks: object[]) => ({
		...blockDoc(['a']),
		blocks: [...blocks, ...blockDoc(['a']).blocks],
	});
	const refusals: Record<string, [unknown, unknown, RegExp]> = {
		'not JSON': ['{', [], /'Documents' is not valid JSON/],
		'a key with a space': [
			blockDoc(['a b']),
			[{ key: 'a b', ...ann }],
			/"key" must be letters, digits/,
		],
		'a key used twice': [blockDoc(['a']), [...a, ...a], /the key "a" is used twice/],
		'a signature block naming no key': [
			blockDoc(['a', 'zed']),
			a,
			/names "zed", which is not the key of a recipient/,
		],
		'a recipient without a signature block': [
			blockDoc(['a']),
			[...a, { key: 'b', ...ann }],
			/Recipient "b" has 0 signature blocks/,
		],
		'font size 25': [
			withBlocks({ type: 'paragraph', text: 'x', fontSize: 25 }),
			a,
			/'Documents' \[0\] block 0: "fontSize" must be from 7 to 24/,
		],
		'spacer 601': [withBlocks({ type: 'spacer', height: 601 }), a, /"height" from 1 to 600/],
		'an unknown block': [withBlocks({ type: 'image' }), a, /"type" must be heading, paragraph/],
		'501 blocks': [
			{
				...blockDoc(['a']),
				blocks: [
					...Array.from({ length: 500 }, () => ({ type: 'pageBreak' })),
					...blockDoc(['a']).blocks.slice(1),
				],
			},
			a,
			/"blocks" must hold 1 to 500 blocks/,
		],
	};
	it.each(Object.entries(refusals))(
		'refused before any request: %s',
		async (_label, [documents, recipients, message]) => {
			const params = jsonMode(documents, recipients);
			if (documents === '{') params.documents = '{';
			await expectRefused(ctx, params, message);
		},
	);
});

describe("Session → Create: AirSign's refusals and lost answers", () => {
	it('FILE_NOT_FOUND for a PDF of another organisation', async () => {
		const theirs = upload();
		ctx.sandbox.files.get(theirs.fileId)!.orgId = 'org-other';
		const result = await runAirSign(ctx, simple({ attachments: theirs.fileId }));
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect(result.error!.message).toBe(
			'An attached PDF is not an upload of this organisation [FILE_NOT_FOUND]',
		);
	});

	it('403 for Session Expiry names the feature and the options to remove', async () => {
		ctx.sandbox.setPlanFeatures(ctx.sandbox.demo.orgId, []);
		const result = await runAirSign(
			ctx,
			simple({ options: { expiryDays: 7, reminderFrequency: 'daily' } }),
		);
		expect(result.error!.message).toBe(
			'Your AirSign plan does not include Session Expiry [PLAN_FEATURE_UNAVAILABLE]',
		);
		expect(result.error!.description).toContain("Remove 'Expiry Days', 'Reminder Frequency'");
		expect(ctx.sandbox.listAllSessions()).toEqual([]);
	});

	describe('a 403 whose body AirSign shapes otherwise (loopback stub)', () => {
		const against = async (body: unknown, options: INodeParameters) => {
			await stubAirSign(ctx, () => ({ status: 403, body }));
			return await runAirSign(ctx, simple({ options }));
		};

		it('a feature named only in the message is still named', async () => {
			const result = await against(
				{ error: 'FORBIDDEN', message: 'Upgrade your plan to use session expiry' },
				{ expiryDays: 3 },
			);
			expect(result.error!.message).toBe(
				'Your AirSign plan does not include Session Expiry [FORBIDDEN]',
			);
		});

		it('no feature named: both causes, with the options that use a plan feature', async () => {
			const result = await against({ message: 'Forbidden' }, { reminderFrequency: 'daily' });
			expect(result.error!.message).toBe(
				'AirSign refused the request: a plan feature or a scope is missing [HTTP 403]',
			);
			expect(result.error!.description).toContain("Session Expiry (used by 'Reminder Frequency')");
			expect(result.error!.description).toContain('write:sessions');
		});
	});

	it('a 403 for scope when no plan feature is used', async () => {
		ctx.cred = await tokenCredential(ctx, ctx.sandbox.issueToken({ scopes: ['write:files'] }));
		const result = await runAirSign(ctx, simple());
		expect(result.error!.description).toContain('write:sessions');
	});

	it('the answer lost after the session was created: one request, "check AirSign … the session may exist"; with Continue On Fail the next item goes on', async () => {
		const sleeps = recordSleeps();
		ctx.sandbox.injectFault({ kind: 'dropAfter', path: '/api/v1/Session', method: 'POST' });
		const result = await runAirSign(ctx, simple({ name: '={{ $json.n }}' }), {
			input: [{ json: { n: 'First' } }, { json: { n: 'Second' } }],
			continueOnFail: true,
		});
		expect(result.items.map((i) => [i.json.name, i.json.error, i.pairedItem])).toEqual([
			[
				// The error item names the session it was about.
				'First',
				'No answer from AirSign (connection closed by the server): check AirSign before running again: the session may exist',
				{ item: 0 },
			],
			['Second', undefined, { item: 1 }],
		]);
		expect(ctx.sandbox.listAllSessions().map((s) => s.name)).toEqual(['First', 'Second']);
		expect(posts()).toHaveLength(2);
		expect(sleeps.requested).toEqual([]);
	});

	it('a 500 is never retried; a 429 is waited out within Max Wait', async () => {
		const sleeps = recordSleeps();
		const path = '/api/v1/Session';
		ctx.sandbox.injectFault({ kind: 'status', status: 500, path, method: 'POST' });
		const failed = await runAirSign(ctx, simple());
		expect(failed.error!.message).toBe(
			'AirSign could not finish the request [HTTP 500 INTERNAL]: check AirSign before running again: the session may exist',
		);
		ctx.sandbox.injectFault({ kind: 'rateLimit', path, method: 'POST', retryAfter: 120 });
		const tooLong = await runAirSign(ctx, simple({ options: { maxRateLimitWait: 60 } }));
		expect(tooLong.error!.message).toMatch(/^AirSign's request budget is used up/);
		ctx.sandbox.injectFault({ kind: 'rateLimit', path, method: 'POST', retryAfter: 5 });
		await runOk(ctx, simple());
		expect(sleeps.requested).toEqual([5000]);
		expect(posts().map((r) => r.status)).toEqual([500, 429, 429, 200]);
	});
});
