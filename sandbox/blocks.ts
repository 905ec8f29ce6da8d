import { ApiProblem, invalid, isBlank, isPlainObject } from './http';
import type { Block, BlockDocument } from './publicTypes';

/** The bounds of docs/api.md#block-documents, with our title limit ("about 30 characters"). */
export const BLOCK_LIMITS = {
	title: 40,
	subtitle: 200,
	blocks: 500,
	heading: 500,
	label: 100,
	fontSize: [7, 24],
	spacer: [1, 600],
} as const;

/** `{{{name}}}` tokens (docs/api.md#create-template). */
export const TOKEN_PATTERN = /\{\{\{\s*([^{}\s]+)\s*\}\}\}/g;

const isText = (value: unknown): value is string => typeof value === 'string';
/** Characters, not UTF-16 units. */
const length = (text: unknown) => [...(text as string)].length;

/** Checks a block document (docs/api.md#block-documents); throws the first problem, at its path. */
export function validateBlockDocument(value: unknown, field: string): BlockDocument {
	if (!isPlainObject(value)) throw invalid(field, `${field} must be a block document object`);
	if (value.format !== 'blocks') throw invalid(`${field}.format`, 'format must be "blocks"');
	if (isBlank(value.title)) throw invalid(`${field}.title`, 'title is required');
	const title = value.title;
	if (length(title) > BLOCK_LIMITS.title) {
		const message = `The title must fit on one line of the page header (at most ${BLOCK_LIMITS.title} characters)`;
		throw new ApiProblem(400, 'TITLE_TOO_LONG', message, `${field}.title`);
	}
	const { subtitle } = value;
	if (subtitle != null && (!isText(subtitle) || length(subtitle) > BLOCK_LIMITS.subtitle)) {
		const message = `subtitle must be text of at most ${BLOCK_LIMITS.subtitle} characters`;
		throw invalid(`${field}.subtitle`, message);
	}
	if (value.footerLabel !== undefined && value.footerLabel !== null && !isText(value.footerLabel))
		throw invalid(`${field}.footerLabel`, 'footerLabel must be text');
	const blocks = value.blocks;
	const most = BLOCK_LIMITS.blocks;
	if (!Array.isArray(blocks) || blocks.length < 1 || blocks.length > most)
		throw invalid(`${field}.blocks`, `blocks must be an array of 1 to ${most} blocks`);
	blocks.forEach((block, index) => validateBlock(block, `${field}.blocks[${index}]`));
	return value as unknown as BlockDocument;
}

function validateBlock(block: unknown, field: string): void {
	if (!isPlainObject(block)) throw invalid(field, 'a block must be an object');
	const between = (v: unknown, [min, max]: readonly [number, number]) =>
		typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
	switch (block.type) {
		case 'heading':
			if (isBlank(block.text)) throw invalid(`${field}.text`, 'a heading needs text');
			if (length(block.text) > BLOCK_LIMITS.heading)
				throw invalid(`${field}.text`, `a heading has at most ${BLOCK_LIMITS.heading} characters`);
			return;
		case 'paragraph':
			if (isBlank(block.text)) throw invalid(`${field}.text`, 'a paragraph needs text');
			if (block.fontSize !== undefined && !between(block.fontSize, BLOCK_LIMITS.fontSize))
				throw invalid(`${field}.fontSize`, 'fontSize must be from 7 to 24');
			for (const flag of ['bold', 'muted'])
				if (block[flag] !== undefined && typeof block[flag] !== 'boolean')
					throw invalid(`${field}.${flag}`, `${flag} must be true or false`);
			return;
		case 'spacer':
			if (!between(block.height, BLOCK_LIMITS.spacer))
				throw invalid(`${field}.height`, 'a spacer needs a height from 1 to 600 points');
			return;
		case 'pageBreak':
			return;
		case 'signatureBlock':
			if (isBlank(block.recipient))
				throw invalid(`${field}.recipient`, 'a signature block names its recipient key');
			if (isBlank(block.label)) throw invalid(`${field}.label`, 'a signature block needs a label');
			if (length(block.label) > BLOCK_LIMITS.label)
				throw invalid(`${field}.label`, `a label has at most ${BLOCK_LIMITS.label} characters`);
			return;
		default:
			throw invalid(
				`${field}.type`,
				'type must be heading, paragraph, spacer, pageBreak or signatureBlock',
			);
	}
}

/** Signature blocks name declared keys; each recipient has exactly one over all the documents. */
export function checkSignatureBlocks(
	documents: Array<{ document: BlockDocument; field: string }>,
	keys: string[],
	recipientsField: string,
): void {
	const problem = (code: string, message: string, field: string) =>
		new ApiProblem(400, code, message, field);
	const count = new Map(keys.map((key) => [key, 0]));
	for (const { document, field } of documents) {
		document.blocks.forEach((block: Block, index) => {
			if (block.type !== 'signatureBlock') return;
			if (!count.has(block.recipient)) {
				const message = `The signature block names "${block.recipient}", which is not the key of any recipient`;
				throw problem('UNKNOWN_RECIPIENT_KEY', message, `${field}.blocks[${index}].recipient`);
			}
			count.set(block.recipient, count.get(block.recipient)! + 1);
		});
	}
	keys.forEach((key, index) => {
		const found = count.get(key)!;
		const at = `${recipientsField}[${index}]`;
		if (found === 0)
			throw problem('MISSING_SIGNATURE_BLOCK', `Recipient "${key}" has no signature block`, at);
		if (found > 1) {
			const message = `Recipient "${key}" has ${found} signature blocks; each signer has exactly one`;
			throw problem('DUPLICATE_SIGNATURE_BLOCK', message, at);
		}
	});
}

/** Token names used in a document's texts. */
export function tokensOf(document: BlockDocument): Set<string> {
	const names = new Set<string>();
	const texts = [document.title, document.subtitle, document.footerLabel];
	for (const block of document.blocks) {
		if ('text' in block) texts.push(block.text);
		if ('label' in block) texts.push(block.label);
	}
	for (const text of texts) for (const m of (text ?? '').matchAll(TOKEN_PATTERN)) names.add(m[1]);
	return names;
}

/** The text with every token replaced by its value (a value not given leaves the token). */
export function fillTokens(text: string, values: Record<string, unknown>): string {
	return text.replace(TOKEN_PATTERN, (whole, name: string) => {
		const value = values[name];
		if (value === undefined || value === null) return whole;
		if (typeof value === 'object') return JSON.stringify(value);
		return String(value);
	});
}

/** A copy of the document with its tokens filled. */
export function fillDocument(document: BlockDocument, values: Record<string, unknown>) {
	// A subtitle or footer label sent as null is accepted (validateBlockDocument) and stays null.
	const fill = (text: string | null | undefined) =>
		text == null ? text : fillTokens(text, values);
	return {
		...document,
		title: fill(document.title)!,
		subtitle: fill(document.subtitle),
		footerLabel: fill(document.footerLabel),
		blocks: document.blocks.map((block) => {
			if (block.type === 'heading' || block.type === 'paragraph')
				return { ...block, text: fill(block.text)! };
			if (block.type === 'signatureBlock') return { ...block, label: fill(block.label)! };
			return { ...block };
		}),
	} as BlockDocument;
}
