import { describe, expect, it } from 'vitest';
import { blockDocument, createBody, createSessionCall } from './publicHelpers';
import { useSandbox } from '../harness/sandbox';

const sandbox = useSandbox({ now: '2025-06-16T14:22:00.000Z' });

/** Create Session with one block document changed by `edit`. */
const withDocument = (document: Record<string, unknown>) =>
	createSessionCall(sandbox(), createBody({ files: [{ type: 'blocks', document }] }));
const withBlock = (block: Record<string, unknown>) =>
	withDocument(blockDocument(['ann'], { blocks: [block, ...blockDocument().blocks] }));

const expectRefused = async (
	pending: ReturnType<typeof withDocument>,
	code: string,
	field: string,
) => {
	const before = sandbox().listAllSessions().length;
	const res = await pending;
	expect(res.status).toBe(400);
	expect(res.body).toMatchObject({ code, field });
	expect(sandbox().listAllSessions()).toHaveLength(before);
};

describe('block document (docs/api.md#block-documents): the document', () => {
	it('format must be "blocks"', async () => {
		await expectRefused(
			withDocument({ ...blockDocument(), format: 'pdf' }),
			'VALIDATION_ERROR',
			'files[0].document.format',
		);
	});

	it('title is required', async () => {
		await expectRefused(
			withDocument({ ...blockDocument(), title: '  ' }),
			'VALIDATION_ERROR',
			'files[0].document.title',
		);
	});

	it('title must fit one line: 40 characters accepted, 41 → TITLE_TOO_LONG (sandbox decision)', async () => {
		expect((await withDocument({ ...blockDocument(), title: 'T'.repeat(40) })).status).toBe(200);
		await expectRefused(
			withDocument({ ...blockDocument(), title: 'T'.repeat(41) }),
			'TITLE_TOO_LONG',
			'files[0].document.title',
		);
	});

	it('subtitle: at most 200 characters', async () => {
		expect((await withDocument({ ...blockDocument(), subtitle: 's'.repeat(200) })).status).toBe(
			200,
		);
		await expectRefused(
			withDocument({ ...blockDocument(), subtitle: 's'.repeat(201) }),
			'VALIDATION_ERROR',
			'files[0].document.subtitle',
		);
	});

	it('footerLabel: optional text', async () => {
		expect((await withDocument({ ...blockDocument(), footerLabel: 'Confidential' })).status).toBe(
			200,
		);
		await expectRefused(
			withDocument({ ...blockDocument(), footerLabel: 7 }),
			'VALIDATION_ERROR',
			'files[0].document.footerLabel',
		);
	});

	it('blocks: 1 to 500', async () => {
		await expectRefused(
			withDocument({ ...blockDocument(), blocks: [] }),
			'VALIDATION_ERROR',
			'files[0].document.blocks',
		);
		const spacers = Array.from({ length: 499 }, () => ({ type: 'pageBreak' }));
		const full = { ...blockDocument(), blocks: [...spacers, blockDocument().blocks[2]] };
		expect((await withDocument(full)).status).toBe(200);
		await expectRefused(
			withDocument({ ...full, blocks: [{ type: 'pageBreak' }, ...full.blocks] }),
			'VALIDATION_ERROR',
			'files[0].document.blocks',
		);
	});
});

describe('block document (docs/api.md#block-documents): each block type', () => {
	it('heading: text required, at most 500 characters', async () => {
		expect((await withBlock({ type: 'heading', text: 'h'.repeat(500) })).status).toBe(200);
		await expectRefused(
			withBlock({ type: 'heading', text: 'h'.repeat(501) }),
			'VALIDATION_ERROR',
			'files[0].document.blocks[0].text',
		);
		await expectRefused(
			withBlock({ type: 'heading' }),
			'VALIDATION_ERROR',
			'files[0].document.blocks[0].text',
		);
	});

	it('paragraph: text required; "\\n" breaks a line; bold and muted are booleans', async () => {
		expect(
			(await withBlock({ type: 'paragraph', text: 'a\nb', bold: true, muted: false })).status,
		).toBe(200);
		await expectRefused(
			withBlock({ type: 'paragraph', text: '' }),
			'VALIDATION_ERROR',
			'files[0].document.blocks[0].text',
		);
		await expectRefused(
			withBlock({ type: 'paragraph', text: 'x', bold: 'yes' }),
			'VALIDATION_ERROR',
			'files[0].document.blocks[0].bold',
		);
	});

	it('paragraph fontSize: 7 to 24', async () => {
		for (const size of [7, 24]) {
			expect((await withBlock({ type: 'paragraph', text: 'x', fontSize: size })).status).toBe(200);
		}
		for (const size of [6, 25, '12']) {
			await expectRefused(
				withBlock({ type: 'paragraph', text: 'x', fontSize: size }),
				'VALIDATION_ERROR',
				'files[0].document.blocks[0].fontSize',
			);
		}
	});

	it('spacer: height 1 to 600 points, required', async () => {
		for (const height of [1, 600])
			expect((await withBlock({ type: 'spacer', height })).status).toBe(200);
		for (const height of [0, 601, undefined]) {
			await expectRefused(
				withBlock({ type: 'spacer', height }),
				'VALIDATION_ERROR',
				'files[0].document.blocks[0].height',
			);
		}
	});

	it('pageBreak: no fields', async () => {
		expect((await withBlock({ type: 'pageBreak' })).status).toBe(200);
	});

	it('signatureBlock: label required, at most 100 characters', async () => {
		const doc = (label: unknown) =>
			withDocument({
				...blockDocument(),
				blocks: [{ type: 'signatureBlock', recipient: 'ann', label }],
			});
		expect((await doc('l'.repeat(100))).status).toBe(200);
		await expectRefused(
			doc('l'.repeat(101)),
			'VALIDATION_ERROR',
			'files[0].document.blocks[0].label',
		);
		await expectRefused(doc(''), 'VALIDATION_ERROR', 'files[0].document.blocks[0].label');
	});

	it('signatureBlock: names a declared recipient key, else UNKNOWN_RECIPIENT_KEY', async () => {
		await expectRefused(
			withBlock({ type: 'signatureBlock', recipient: 'bob', label: 'Bob' }),
			'UNKNOWN_RECIPIENT_KEY',
			'files[0].document.blocks[0].recipient',
		);
	});

	it('each signer has exactly one signature block: none → MISSING_SIGNATURE_BLOCK, two → DUPLICATE_SIGNATURE_BLOCK', async () => {
		await expectRefused(
			withDocument({ ...blockDocument(), blocks: [{ type: 'paragraph', text: 'x' }] }),
			'MISSING_SIGNATURE_BLOCK',
			'recipients[0]',
		);
		await expectRefused(
			withBlock({ type: 'signatureBlock', recipient: 'ann', label: 'Again' }),
			'DUPLICATE_SIGNATURE_BLOCK',
			'recipients[0]',
		);
	});

	it('an unknown block type is refused', async () => {
		await expectRefused(
			withBlock({ type: 'image', src: 'x' }),
			'VALIDATION_ERROR',
			'files[0].document.blocks[0].type',
		);
	});
});
