import '../../harness';

import type { INodeParameters } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { afterEach, describe, expect, it } from 'vitest';

import {
	apiRequests,
	recordSleeps,
	runAirSign,
	startStub,
	tokenCredential,
	useSandbox,
	type StubServer,
} from './helpers';

const ctx = useSandbox();
const posts = () => apiRequests(ctx.sandbox).filter((r) => r.method === 'POST');
const ann = { name: 'Ann Signer', email: 'ann@example.com' };
const bob = { name: 'Bob Witness', email: 'bob@example.com', signingOrder: 0, label: 'Witness' };

let restoreSleep: (() => void) | undefined;
let stub: StubServer | undefined;
afterEach(async () => {
	restoreSleep?.();
	restoreSleep = undefined;
	await stub?.close();
	stub = undefined;
});

const simple = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'session',
	operation: 'create',
	name: 'Service agreement',
	documentMode: 'simple',
	title: 'Service Agreement',
	body: '# Terms\n\nThe supplier delivers.\nOn time.\n\n\nThe client pays.',
	recipients: { recipient: [ann, bob] },
	...extra,
});

const blockDoc = (keys: string[], title = 'Agreement') => ({
	format: 'blocks',
	title,
	blocks: [
		{ type: 'paragraph', text: 'Terms.' },
		...keys.map((key) => ({ type: 'signatureBlock', recipient: key, label: key })),
	],
});
const jsonMode = (documents: unknown, recipients: unknown, extra: INodeParameters = {}) =>
	simple({
		documentMode: 'json',
		documents: JSON.stringify(documents),
		recipientsJson: JSON.stringify(recipients),
		...extra,
	});

function upload(name = 'terms.pdf') {
	const fileId = `${'0'.repeat(8)}-0000-4000-8000-${String(ctx.sandbox.files.size + 1).padStart(12, '0')}`;
	ctx.sandbox.files.set(fileId, {
		fileName: name,
		bytes: Buffer.from('%PDF-1.7\n'),
		orgId: 'org-demo',
	});
	return { fileId, fileName: name, fileReference: { type: 'uploadedPdf', fileId } };
}

describe('Session → Create, Title and Text', () => {
	it('a draft: paragraphs and a heading from the body, one signature block per recipient; output carries draftUrl', async () => {
		const result = await runAirSign(ctx, simple());
		expect(result.error).toBeUndefined();
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
		const result = await runAirSign(
			ctx,
			simple({
				sendImmediately: true,
				options: { expiryDays: 14, reminderEnabled: true, reminderFrequency: 'weekly' },
			}),
		);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ status: 'pending' });
		expect(result.items[0].json.draftUrl).toBeUndefined();
		expect(ctx.sandbox.outbox.map((m) => m.to)).toEqual(['ann@example.com', 'bob@example.com']);
		expect(ctx.sandbox.getSession(result.items[0].json.sessionId as string)).toMatchObject({
			expiryDays: 14,
			reminderEnabled: true,
			reminderFrequency: 'weekly',
		});
	});

	it('Attach Uploaded PDFs: file IDs, an Upload output item, a fileReference, or a list of them', async () => {
		const [a, b, c] = [upload('a.pdf'), upload('b.pdf'), upload('c.pdf')];
		const cases: Array<[INodeParameters['attachments'], number]> = [
			[`${a.fileId}, ${b.fileId}`, 2],
			['={{ $json.upload }}', 1],
			['={{ $json.upload.fileReference }}', 1],
			['={{ $json.all.map(u => u.fileReference) }}', 3],
		];
		for (const [attachments, count] of cases) {
			const result = await runAirSign(ctx, simple({ attachments }), {
				input: [{ json: { upload: a, all: [a, b, c] } }],
			});
			expect(result.error).toBeUndefined();
			const files = result.items[0].json.files as Array<{ fileName: string }>;
			expect(files).toHaveLength(1 + count);
		}
		const named = await runAirSign(ctx, simple({ attachments: '={{ $json.upload }}' }), {
			input: [{ json: { upload: a } }],
		});
		expect((named.items[0].json.files as Array<{ fileName: string }>)[1].fileName).toBe('a.pdf');
	});

	it('three items from expressions, each output paired with its item', async () => {
		const result = await runAirSign(
			ctx,
			simple({
				name: '={{ "Contract " + $json.n }}',
				recipients: {
					recipient: [{ name: '={{ $json.n }}', email: '={{ $json.n + "@example.com" }}' }],
				},
			}),
			{ input: ['ann', 'bob', 'cy'].map((n) => ({ json: { n } })) },
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => [i.json.name, i.pairedItem])).toEqual([
			['Contract ann', { item: 0 }],
			['Contract bob', { item: 1 }],
			['Contract cy', { item: 2 }],
		]);
	});

	describe('checked before any request, naming the parameter and the item', () => {
		const cases: Array<[string, INodeParameters, RegExp]> = [
			[
				'Name over 50',
				{ name: 'n'.repeat(51) },
				/^"Name" must be 1 to 50 characters long; it is 51$/,
			],
			[
				'Title over 40',
				{ title: 'T'.repeat(41) },
				/^"Title" is 41 characters; it must fit on one line \(at most 40\)$/,
			],
			[
				'Subtitle over 200',
				{ documentOptions: { subtitle: 's'.repeat(201) } },
				/^"Subtitle" is longer than 200/,
			],
			[
				'no recipient',
				{ recipients: {} },
				/^"Recipients" must hold 1 to 20 recipients; it holds 0$/,
			],
			[
				'21 recipients',
				{ recipients: { recipient: Array.from({ length: 21 }, () => ann) } },
				/must hold 1 to 20 recipients; it holds 21/,
			],
			[
				'an email that is not one',
				{ recipients: { recipient: [{ name: 'A', email: 'a@b' }] } },
				/"Recipients" \[0\]: "email" is not an email address: "a@b"/,
			],
			[
				'a label over 100',
				{ recipients: { recipient: [{ ...ann, label: 'l'.repeat(101) }] } },
				/signature label is longer than 100/,
			],
			[
				'a heading over 500',
				{ body: `# ${'h'.repeat(501)}` },
				/"Body": heading 1 is longer than 500/,
			],
			[
				'too many paragraphs',
				{ body: Array.from({ length: 499 }, (_, i) => `p${i}`).join('\n\n') },
				/"Body" makes 502 blocks/,
			],
			[
				'an attachment that is not a file',
				{ attachments: 'contract.pdf' },
				/"Attach Uploaded PDFs" holds something that is not an uploaded file: "contract.pdf"/,
			],
			[
				'Expiry Days 0',
				{ options: { expiryDays: 0 } },
				/"Expiry Days" must be a whole number from 1 to 730, not 0/,
			],
		];
		for (const [label, extra, message] of cases) {
			it(label, async () => {
				const result = await runAirSign(ctx, simple(extra));
				expect(result.error).toBeInstanceOf(NodeOperationError);
				expect(result.error!.message).toMatch(message);
				expect(result.error!.context?.itemIndex).toBe(0);
				expect(ctx.sandbox.requests).toEqual([]);
			});
		}

		it('more than 10 files in all', async () => {
			const ids = Array.from({ length: 10 }, () => upload().fileId).join(',');
			const result = await runAirSign(ctx, simple({ attachments: ids }));
			expect(result.error!.message).toBe(
				'A session holds at most 10 files; this one would hold 11 (1 document(s) and 10 uploaded PDF(s))',
			);
			expect(ctx.sandbox.requests).toEqual([]);
		});
	});
});

describe('Session → Create, Block Documents (JSON)', () => {
	it('one document or a list, recipients with keys and signing order', async () => {
		const result = await runAirSign(
			ctx,
			jsonMode(
				[blockDoc(['buyer']), blockDoc(['seller'], 'Schedule')],
				[
					{ key: 'buyer', ...ann, signingOrder: 2 },
					{ key: 'seller', name: 'Sam', email: 'sam@example.com', signingOrder: 1 },
				],
			),
		);
		expect(result.error).toBeUndefined();
		const stored = ctx.sandbox.getSession(result.items[0].json.sessionId as string)!;
		expect(stored.files.map((f) => f.fileName)).toEqual(['Agreement.pdf', 'Schedule.pdf']);
		expect(stored.recipients.map((r) => r.name)).toEqual(['Sam', 'Ann Signer']);
	});

	const refusals: Array<[string, unknown, unknown, RegExp]> = [
		['not JSON', '{', [], /"Documents" is not valid JSON/],
		[
			'a key with a space',
			blockDoc(['a b']),
			[{ key: 'a b', ...ann }],
			/"key" must be letters, digits/,
		],
		[
			'a key used twice',
			blockDoc(['a']),
			[
				{ key: 'a', ...ann },
				{ key: 'a', ...ann },
			],
			/the key "a" is used twice/,
		],
		[
			'a signature block naming no key',
			blockDoc(['a', 'zed']),
			[{ key: 'a', ...ann }],
			/names "zed", which is not the key of a recipient/,
		],
		[
			'a recipient without a signature block',
			blockDoc(['a']),
			[
				{ key: 'a', ...ann },
				{ key: 'b', ...ann },
			],
			/Recipient "b" has 0 signature blocks/,
		],
		[
			'font size 25',
			{
				...blockDoc(['a']),
				blocks: [{ type: 'paragraph', text: 'x', fontSize: 25 }, ...blockDoc(['a']).blocks],
			},
			[{ key: 'a', ...ann }],
			/"Documents" \[0\] block 0: "fontSize" must be from 7 to 24/,
		],
		[
			'spacer 601',
			{ ...blockDoc(['a']), blocks: [{ type: 'spacer', height: 601 }, ...blockDoc(['a']).blocks] },
			[{ key: 'a', ...ann }],
			/"height" from 1 to 600/,
		],
		[
			'an unknown block',
			{ ...blockDoc(['a']), blocks: [{ type: 'image' }, ...blockDoc(['a']).blocks] },
			[{ key: 'a', ...ann }],
			/"type" must be heading, paragraph/,
		],
		[
			'501 blocks',
			{
				...blockDoc(['a']),
				blocks: [
					...Array.from({ length: 500 }, () => ({ type: 'pageBreak' })),
					...blockDoc(['a']).blocks.slice(1),
				],
			},
			[{ key: 'a', ...ann }],
			/"blocks" must hold 1 to 500 blocks/,
		],
	];
	for (const [label, documents, recipients, message] of refusals) {
		it(`refused before any request: ${label}`, async () => {
			const params = jsonMode(documents, recipients);
			if (documents === '{') params.documents = '{';
			const result = await runAirSign(ctx, params);
			expect(result.error).toBeInstanceOf(NodeOperationError);
			expect(result.error!.message).toMatch(message);
			expect(ctx.sandbox.requests).toEqual([]);
		});
	}
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
		expect(result.error!.description).toContain('Remove "Expiry Days", "Reminder Frequency"');
		expect(ctx.sandbox.listAllSessions()).toEqual([]);
	});

	describe('a 403 whose body AirSign shapes otherwise (loopback stub)', () => {
		const against = async (body: unknown, options: INodeParameters) => {
			stub = await startStub(() => ({ status: 403, body }));
			ctx.cred = await tokenCredential(ctx, 'stub-token-abcdef', stub.baseUrl);
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
			expect(result.error!.description).toContain('Session Expiry (used by "Reminder Frequency")');
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
		restoreSleep = sleeps.restore;
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
		restoreSleep = sleeps.restore;
		ctx.sandbox.injectFault({
			kind: 'status',
			status: 500,
			path: '/api/v1/Session',
			method: 'POST',
		});
		const failed = await runAirSign(ctx, simple());
		expect(failed.error!.message).toBe(
			'AirSign had an internal problem [HTTP 500 INTERNAL]: check AirSign before running again: the session may exist',
		);
		ctx.sandbox.injectFault({
			kind: 'rateLimit',
			path: '/api/v1/Session',
			method: 'POST',
			retryAfter: 120,
		});
		const tooLong = await runAirSign(ctx, simple({ options: { maxRateLimitWait: 60 } }));
		expect(tooLong.error!.message).toMatch(/^AirSign's request budget is used up/);
		ctx.sandbox.injectFault({
			kind: 'rateLimit',
			path: '/api/v1/Session',
			method: 'POST',
			retryAfter: 5,
		});
		const waited = await runAirSign(ctx, simple());
		expect(waited.error).toBeUndefined();
		expect(sleeps.requested).toEqual([5000]);
		expect(posts().map((r) => r.status)).toEqual([500, 429, 429, 200]);
	});
});
