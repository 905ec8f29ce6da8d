import { describe, expect, it } from 'vitest';
import { blockDocument, createBody, expectError, useApi } from './helpers';

const { sandbox, createSession } = useApi({ now: '2025-06-16T14:22:00.000Z' });

type Document = Record<string, unknown>;
/** A valid block document with these fields, or with `block` put before its blocks. */
const doc = (extra: Document): Document => ({ ...blockDocument(), ...extra });
const withBlock = (block: Document) => doc({ blocks: [block, ...blockDocument().blocks] });
const at = (field: string) => `files[0].document.${field}`;
const inBlock = (field: string) => at(`blocks[0].${field}`);

/** Each of `accepted` → 200; each of `refused` → 400 with this code and field, no session made. */
async function expectBounds(
	accepted: Document[],
	refused: Document[],
	field: string,
	code = 'VALIDATION_ERROR',
) {
	const create = (document: Document) =>
		createSession(createBody({ files: [{ type: 'blocks', document }] }));
	for (const document of accepted) expect((await create(document)).status).toBe(200);
	const made = sandbox().listAllSessions().length;
	for (const document of refused) expectError(await create(document), 400, code, field);
	expect(sandbox().listAllSessions()).toHaveLength(made);
}

describe('block document (docs/api.md#block-documents): the document', () => {
	it('format must be "blocks"', () => expectBounds([], [doc({ format: 'pdf' })], at('format')));

	it('title is required', () => expectBounds([], [doc({ title: '  ' })], at('title')));

	it('title must fit one line: 40 characters accepted, 41 → TITLE_TOO_LONG (sandbox decision)', () =>
		expectBounds(
			[doc({ title: 'T'.repeat(40) })],
			[doc({ title: 'T'.repeat(41) })],
			at('title'),
			'TITLE_TOO_LONG',
		));

	it('subtitle: at most 200 characters', () =>
		expectBounds(
			[doc({ subtitle: 's'.repeat(200) })],
			[doc({ subtitle: 's'.repeat(201) })],
			at('subtitle'),
		));

	it('footerLabel: optional text', () =>
		expectBounds(
			[doc({ footerLabel: 'Confidential' })],
			[doc({ footerLabel: 7 })],
			at('footerLabel'),
		));

	it('blocks: 1 to 500', () => {
		const full = [...Array(499).fill({ type: 'pageBreak' }), blockDocument().blocks[2]];
		return expectBounds(
			[doc({ blocks: full })],
			[doc({ blocks: [] }), doc({ blocks: [{ type: 'pageBreak' }, ...full] })],
			at('blocks'),
		);
	});
});

describe('block document (docs/api.md#block-documents): each block type', () => {
	it('heading: text required, at most 500 characters', () =>
		expectBounds(
			[withBlock({ type: 'heading', text: 'h'.repeat(500) })],
			[withBlock({ type: 'heading', text: 'h'.repeat(501) }), withBlock({ type: 'heading' })],
			inBlock('text'),
		));

	it('paragraph: text required; "\\n" breaks a line; bold and muted are booleans', async () => {
		const paragraph = (fields: Document) => withBlock({ type: 'paragraph', ...fields });
		await expectBounds(
			[paragraph({ text: 'a\nb', bold: true, muted: false })],
			[paragraph({ text: '' })],
			inBlock('text'),
		);
		await expectBounds([], [paragraph({ text: 'x', bold: 'yes' })], inBlock('bold'));
	});

	it('paragraph fontSize: 7 to 24', () => {
		const sized = (fontSize: unknown) => withBlock({ type: 'paragraph', text: 'x', fontSize });
		return expectBounds(
			[sized(7), sized(24)],
			[sized(6), sized(25), sized('12')],
			inBlock('fontSize'),
		);
	});

	it('spacer: height 1 to 600 points, required', () => {
		const spacer = (height: unknown) => withBlock({ type: 'spacer', height });
		return expectBounds(
			[spacer(1), spacer(600)],
			[spacer(0), spacer(601), spacer(undefined)],
			inBlock('height'),
		);
	});

	it('pageBreak: no fields', () => expectBounds([withBlock({ type: 'pageBreak' })], [], ''));

	it('signatureBlock: label required, at most 100 characters', () => {
		const labelled = (label: unknown) =>
			doc({ blocks: [{ type: 'signatureBlock', recipient: 'ann', label }] });
		return expectBounds(
			[labelled('l'.repeat(100))],
			[labelled('l'.repeat(101)), labelled('')],
			inBlock('label'),
		);
	});

	it('signatureBlock: names a declared recipient key, else UNKNOWN_RECIPIENT_KEY', () =>
		expectBounds(
			[],
			[withBlock({ type: 'signatureBlock', recipient: 'bob', label: 'Bob' })],
			inBlock('recipient'),
			'UNKNOWN_RECIPIENT_KEY',
		));

	it('each signer has exactly one signature block: none → MISSING_SIGNATURE_BLOCK, two → DUPLICATE_SIGNATURE_BLOCK', async () => {
		const none = doc({ blocks: [{ type: 'paragraph', text: 'x' }] });
		await expectBounds([], [none], 'recipients[0]', 'MISSING_SIGNATURE_BLOCK');
		const again = withBlock({ type: 'signatureBlock', recipient: 'ann', label: 'Again' });
		await expectBounds([], [again], 'recipients[0]', 'DUPLICATE_SIGNATURE_BLOCK');
	});

	it('an unknown block type is refused', () =>
		expectBounds([], [withBlock({ type: 'image', src: 'x' })], inBlock('type')));
});
