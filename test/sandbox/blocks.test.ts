import { describe, expect, it } from 'vitest';
import { blockDocument, createBody, createSessionCall } from './publicHelpers';
import { expectError, useApi } from './helpers';

const { sandbox } = useApi({ now: '2025-06-16T14:22:00.000Z' });

type Document = Record<string, unknown>;
const create = (document: Document) =>
	createSessionCall(sandbox(), createBody({ files: [{ type: 'blocks', document }] }));
/** A valid block document with these fields, or with `block` put before its blocks. */
const doc = (extra: Document): Document => ({ ...blockDocument(), ...extra });
const withBlock = (block: Document) => doc({ blocks: [block, ...blockDocument().blocks] });

/** Each document in turn: refused with 400, this code and this field, and no session made. */
async function expectRefused(documents: Document[], code: string, field: string) {
	for (const document of documents) {
		const before = sandbox().listAllSessions().length;
		expectError(await create(document), 400, code, field);
		expect(sandbox().listAllSessions()).toHaveLength(before);
	}
}
const expectAccepted = async (...documents: Document[]) => {
	for (const document of documents) expect((await create(document)).status).toBe(200);
};
const INVALID = 'VALIDATION_ERROR';
const FIELD = 'files[0].document';
const BLOCK = `${FIELD}.blocks[0]`;

describe('block document (docs/api.md#block-documents): the document', () => {
	it('format must be "blocks"', async () => {
		await expectRefused([doc({ format: 'pdf' })], INVALID, `${FIELD}.format`);
	});

	it('title is required', async () => {
		await expectRefused([doc({ title: '  ' })], INVALID, `${FIELD}.title`);
	});

	it('title must fit one line: 40 characters accepted, 41 → TITLE_TOO_LONG (sandbox decision)', async () => {
		await expectAccepted(doc({ title: 'T'.repeat(40) }));
		await expectRefused([doc({ title: 'T'.repeat(41) })], 'TITLE_TOO_LONG', `${FIELD}.title`);
	});

	it('subtitle: at most 200 characters', async () => {
		await expectAccepted(doc({ subtitle: 's'.repeat(200) }));
		await expectRefused([doc({ subtitle: 's'.repeat(201) })], INVALID, `${FIELD}.subtitle`);
	});

	it('footerLabel: optional text', async () => {
		await expectAccepted(doc({ footerLabel: 'Confidential' }));
		await expectRefused([doc({ footerLabel: 7 })], INVALID, `${FIELD}.footerLabel`);
	});

	it('blocks: 1 to 500', async () => {
		await expectRefused([doc({ blocks: [] })], INVALID, `${FIELD}.blocks`);
		const spacers = Array.from({ length: 499 }, () => ({ type: 'pageBreak' }));
		const full = [...spacers, blockDocument().blocks[2]];
		await expectAccepted(doc({ blocks: full }));
		await expectRefused(
			[doc({ blocks: [{ type: 'pageBreak' }, ...full] })],
			INVALID,
			`${FIELD}.blocks`,
		);
	});
});

describe('block document (docs/api.md#block-documents): each block type', () => {
	it('heading: text required, at most 500 characters', async () => {
		await expectAccepted(withBlock({ type: 'heading', text: 'h'.repeat(500) }));
		await expectRefused(
			[withBlock({ type: 'heading', text: 'h'.repeat(501) }), withBlock({ type: 'heading' })],
			INVALID,
			`${BLOCK}.text`,
		);
	});

	it('paragraph: text required; "\\n" breaks a line; bold and muted are booleans', async () => {
		await expectAccepted(withBlock({ type: 'paragraph', text: 'a\nb', bold: true, muted: false }));
		await expectRefused([withBlock({ type: 'paragraph', text: '' })], INVALID, `${BLOCK}.text`);
		await expectRefused(
			[withBlock({ type: 'paragraph', text: 'x', bold: 'yes' })],
			INVALID,
			`${BLOCK}.bold`,
		);
	});

	it('paragraph fontSize: 7 to 24', async () => {
		const sized = (fontSize: unknown) => withBlock({ type: 'paragraph', text: 'x', fontSize });
		await expectAccepted(sized(7), sized(24));
		await expectRefused([sized(6), sized(25), sized('12')], INVALID, `${BLOCK}.fontSize`);
	});

	it('spacer: height 1 to 600 points, required', async () => {
		const spacer = (height: unknown) => withBlock({ type: 'spacer', height });
		await expectAccepted(spacer(1), spacer(600));
		await expectRefused([spacer(0), spacer(601), spacer(undefined)], INVALID, `${BLOCK}.height`);
	});

	it('pageBreak: no fields', async () => {
		await expectAccepted(withBlock({ type: 'pageBreak' }));
	});

	it('signatureBlock: label required, at most 100 characters', async () => {
		const labelled = (label: unknown) =>
			doc({ blocks: [{ type: 'signatureBlock', recipient: 'ann', label }] });
		await expectAccepted(labelled('l'.repeat(100)));
		await expectRefused([labelled('l'.repeat(101)), labelled('')], INVALID, `${BLOCK}.label`);
	});

	it('signatureBlock: names a declared recipient key, else UNKNOWN_RECIPIENT_KEY', async () => {
		await expectRefused(
			[withBlock({ type: 'signatureBlock', recipient: 'bob', label: 'Bob' })],
			'UNKNOWN_RECIPIENT_KEY',
			`${BLOCK}.recipient`,
		);
	});

	it('each signer has exactly one signature block: none → MISSING_SIGNATURE_BLOCK, two → DUPLICATE_SIGNATURE_BLOCK', async () => {
		await expectRefused(
			[doc({ blocks: [{ type: 'paragraph', text: 'x' }] })],
			'MISSING_SIGNATURE_BLOCK',
			'recipients[0]',
		);
		await expectRefused(
			[withBlock({ type: 'signatureBlock', recipient: 'ann', label: 'Again' })],
			'DUPLICATE_SIGNATURE_BLOCK',
			'recipients[0]',
		);
	});

	it('an unknown block type is refused', async () => {
		await expectRefused([withBlock({ type: 'image', src: 'x' })], INVALID, `${BLOCK}.type`);
	});
});
