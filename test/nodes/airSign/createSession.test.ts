import '../../harness';

import type { INodeParameters } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { ann, blockDoc, jsonMode, simple, uploaded } from './createSessionParams';
import {
	expectError,
	recordSleeps,
	stubAirSign,
	tokenCredential,
	useAirSign,
	WHOLE_ANSWER,
} from './helpers';

const ctx = useAirSign();
const posts = () => ctx.apiRequests().filter((r) => r.method === 'POST');
const upload = (name?: string) => uploaded(ctx.sandbox, name);

describe('Session → Create, Title and Text', () => {
	it('a draft: paragraphs and a heading from the body, one signature block per recipient; output carries draftUrl', async () => {
		const result = await ctx.ok(simple(WHOLE_ANSWER));
		const out = result.items[0].json;
		expect(out).toMatchObject({ name: 'Service agreement', status: 'draft' });
		expect(out.draftUrl).toBe(`${ctx.sandbox.baseUrl}/app/sessions/${out.sessionId}/edit`);
		const stored = ctx.sandbox.getSession(out.sessionId as string)!;
		expect(stored.recipients.map((r) => [r.name, r.email])).toEqual([
			['Ann Signer', 'ann@example.com'],
			['Bob Witness', 'bob@example.com'],
		]);
		expect((stored.files[0] as { document: unknown }).document).toEqual({
			format: 'blocks',
			title: 'Service Agreement',
			blocks: [
				{ type: 'heading', text: 'Terms' },
				{ type: 'paragraph', text: 'The supplier delivers.\nOn time.' },
				{ type: 'paragraph', text: 'The client pays.' },
				{ type: 'spacer', height: 24 },
				{ type: 'signatureBlock', recipient: 'r1', label: 'Ann Signer' },
				{ type: 'signatureBlock', recipient: 'r2', label: 'Witness' },
			],
		});
		expect(ctx.sandbox.outbox).toEqual([]);
		expect(posts()).toHaveLength(1);
	});

	it('Send Immediately, Expiry Days, reminders: pending, invitations out, no draftUrl', async () => {
		const result = await ctx.ok(
			simple({
				sendImmediately: true,
				options: { expiryDays: 14, reminderEnabled: true, reminderFrequency: 'weekly' },
			}),
		);
		expect(result.items[0].json).toMatchObject({ status: 'pending' });
		expect(result.items[0].json.draftUrl).toBeNull();
		expect(ctx.sandbox.outbox.map((m) => m.to)).toEqual(['ann@example.com', 'bob@example.com']);
		expect(ctx.sandbox.getSession(result.items[0].json.sessionId as string)).toMatchObject({
			expiryDays: 14,
			reminderEnabled: true,
			reminderFrequency: 'weekly',
		});
	});

	it('Attach Uploaded PDFs: file IDs, an Upload output item, a fileReference, or a list of them', async () => {
		const [a, b, c] = [upload('a.pdf'), upload('b.pdf'), upload('c.pdf')];
		const cases: Array<[INodeParameters['attachments'], string[]]> = [
			[`${a.fileId}, ${b.fileId}`, ['a.pdf', 'b.pdf']],
			['={{ $json.upload }}', ['a.pdf']],
			['={{ $json.upload.fileReference }}', ['a.pdf']],
			['={{ $json.all.map(u => u.fileReference) }}', ['a.pdf', 'b.pdf', 'c.pdf']],
		];
		for (const [attachments, names] of cases) {
			const result = await ctx.ok(simple({ attachments, ...WHOLE_ANSWER }), {
				input: [{ json: { upload: a, all: [a, b, c] } }],
			});
			const files = result.items[0].json.files as Array<{ fileName: string }>;
			expect(files.slice(1).map((f) => f.fileName)).toEqual(names);
		}
	});

	it('three items from expressions, each output paired with its item', async () => {
		const result = await ctx.ok(
			simple({
				name: '={{ "Contract " + $json.n }}',
				recipients: {
					recipient: [{ name: '={{ $json.n }}', email: '={{ $json.n + "@example.com" }}' }],
				},
			}),
			{ input: ['ann', 'bob', 'cy'].map((n) => ({ json: { n } })) },
		);
		expect(result.items.map((i) => [i.json.name, i.pairedItem])).toEqual([
			['Contract ann', { item: 0 }],
			['Contract bob', { item: 1 }],
			['Contract cy', { item: 2 }],
		]);
	});

	describe('checked before any request, naming the parameter and the item', () => {
		const cases: Record<string, [INodeParameters, RegExp]> = {
			'Name over 50': [
				{ name: 'n'.repeat(51) },
				/^'Name' must be 1 to 50 characters long; it is 51$/,
			],
			'Title over 40': [
				{ title: 'T'.repeat(41) },
				/^'Title' is 41 characters; it must fit on one line \(at most 40\)$/,
			],
			'Subtitle over 200': [
				{ documentOptions: { subtitle: 's'.repeat(201) } },
				/^'Subtitle' is longer than 200/,
			],
			'no recipient': [
				{ recipients: {} },
				/^'Recipients' must hold 1 to 20 recipients; it holds 0$/,
			],
			'21 recipients': [
				{ recipients: { recipient: Array.from({ length: 21 }, () => ann) } },
				/must hold 1 to 20 recipients; it holds 21/,
			],
			'an email that is not one': [
				{ recipients: { recipient: [{ name: 'A', email: 'a@b' }] } },
				/'Recipients' \[0\]: "email" is not an email address: "a@b"/,
			],
			'a label over 100': [
				{ recipients: { recipient: [{ ...ann, label: 'l'.repeat(101) }] } },
				/signature label is longer than 100/,
			],
			'a heading over 500': [
				{ body: `# ${'h'.repeat(501)}` },
				/'Body': heading 1 is longer than 500/,
			],
			'too many paragraphs': [
				{ body: Array.from({ length: 499 }, (_, i) => `p${i}`).join('\n\n') },
				/'Body' makes 502 blocks/,
			],
			'an attachment that is not a file': [
				{ attachments: 'contract.pdf' },
				/'Attach Uploaded PDFs' holds something that is not an uploaded file: "contract.pdf"/,
			],
			'Expiry Days 0': [
				{ options: { expiryDays: 0 } },
				/'Expiry Days' must be a whole number from 1 to 730, not 0/,
			],
		};
		it.each(Object.entries(cases))('%s', async (_label, [extra, message]) => {
			await ctx.refused(simple(extra), message);
		});

		it('more than 10 files in all', async () => {
			const ids = Array.from({ length: 10 }, () => upload().fileId).join(',');
			await ctx.refused(
				simple({ attachments: ids }),
				'A session holds at most 10 files; this one would hold 11 (1 document(s) and 10 uploaded PDF(s))',
			);
		});
	});
});

describe('Session → Create, Block Documents (JSON)', () => {
	it('one document or a list, recipients with keys and signing order', async () => {
		const result = await ctx.ok(
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
			await ctx.refused(params, message);
		},
	);
});

describe("Session → Create: AirSign's refusals and lost answers", () => {
	it('FILE_NOT_FOUND for a PDF of another organisation', async () => {
		const theirs = upload();
		ctx.sandbox.files.get(theirs.fileId)!.orgId = 'org-other';
		const result = await ctx.run(simple({ attachments: theirs.fileId }));
		const message = 'An attached PDF is not an upload of this organisation [FILE_NOT_FOUND]';
		expectError(result, message, { type: NodeApiError });
	});

	it('403 for Session Expiry names the feature and the options to remove', async () => {
		ctx.sandbox.setPlanFeatures(ctx.sandbox.demo.orgId, []);
		const options = { expiryDays: 7, reminderFrequency: 'daily' };
		const result = await ctx.run(simple({ options }));
		const message = 'Your AirSign plan does not include Session Expiry [PLAN_FEATURE_UNAVAILABLE]';
		expectError(result, message, { description: "Remove 'Expiry Days', 'Reminder Frequency'" });
		expect(ctx.sandbox.listAllSessions()).toEqual([]);
	});

	describe('a 403 whose body AirSign shapes otherwise (loopback stub)', () => {
		const against = async (body: unknown, options: INodeParameters) => {
			await stubAirSign(ctx, () => ({ status: 403, body }));
			return await ctx.run(simple({ options }));
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
		const result = await ctx.run(simple());
		expect(result.error!.description).toContain('write:sessions');
	});

	it('the answer lost after the session was created: one request, "check AirSign … the session may exist"; with Continue On Fail the next item goes on', async () => {
		const sleeps = recordSleeps();
		ctx.sandbox.injectFault({ kind: 'dropAfter', path: '/api/v1/Session', method: 'POST' });
		const result = await ctx.run(simple({ name: '={{ $json.n }}' }), {
			input: [{ json: { n: 'First' } }, { json: { n: 'Second' } }],
			continueOnFail: true,
		});
		expect(result.items.map((i) => [i.json.name, i.json.error, i.pairedItem])).toEqual([
			[
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
		const failed = await ctx.run(simple());
		expect(failed.error!.message).toBe(
			'AirSign could not finish the request [HTTP 500 INTERNAL]: check AirSign before running again: the session may exist',
		);
		ctx.sandbox.injectFault({ kind: 'rateLimit', path, method: 'POST', retryAfter: 120 });
		const tooLong = await ctx.run(simple({ options: { maxRateLimitWait: 60 } }));
		expect(tooLong.error!.message).toMatch(/^AirSign's request budget is used up/);
		ctx.sandbox.injectFault({ kind: 'rateLimit', path, method: 'POST', retryAfter: 5 });
		await ctx.ok(simple());
		expect(sleeps.requested).toEqual([5000]);
		expect(posts().map((r) => r.status)).toEqual([500, 429, 429, 200]);
	});
});
