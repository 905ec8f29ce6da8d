import '../../harness';

import type { INodeParameters } from 'n8n-workflow';

import { describe, expect, it } from 'vitest';

import { ann, simple, uploaded } from './createSessionParams';
import { apiRequests, runAirSign, useAirSign, runOk, expectRefused, WHOLE_ANSWER } from './helpers';

const ctx = useAirSign();
const posts = () => apiRequests(ctx.sandbox).filter((r) => r.method === 'POST');
const upload = (name?: string) => uploaded(ctx.sandbox, name);

describe('Session → Create, Title and Text', () => {
	it('a draft: paragraphs and a heading from the body, one signature block per recipient; output carries draftUrl', async () => {
		const result = await runOk(ctx, simple(WHOLE_ANSWER));
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
		const result = await runOk(
			ctx,
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
			const result = await runOk(ctx, simple({ attachments, ...WHOLE_ANSWER }), {
				input: [{ json: { upload: a, all: [a, b, c] } }],
			});
			const files = result.items[0].json.files as Array<{ fileName: string }>;
			expect(files.slice(1).map((f) => f.fileName)).toEqual(names);
		}
	});

	it('three items from expressions, each output paired with its item', async () => {
		const result = await runOk(
			ctx,
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
			await expectRefused(ctx, simple(extra), message);
		});

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
