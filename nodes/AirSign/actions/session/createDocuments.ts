import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Fail } from '../../errors/nodeError';
import { failer } from '../../errors/nodeError';
import type { BlockRecipient } from '../../helpers/blockDocument';
import {
	checkBlockDocument,
	checkRecipients,
	checkSignatureBlocks,
	checkTitleFits,
} from '../../helpers/blockDocument';
import { LIMITS } from '../../helpers/constants';
import { parseJson, textOf } from '../../helpers/validation';

export function readDocuments(
	ctx: IExecuteFunctions,
	itemIndex: number,
): { documents: IDataObject[]; recipients: BlockRecipient[] } {
	const fail = failer(ctx.getNode(), itemIndex);
	const mode = ctx.getNodeParameter('documentMode', itemIndex, 'simple') as string;
	if (mode === 'json') {
		const given = parseJson(ctx.getNodeParameter('documents', itemIndex), "'Documents'", fail);
		const list = Array.isArray(given) ? given : [given];
		if (list.length < 1 || list.length > LIMITS.files)
			throw fail(`'Documents' must hold 1 to ${LIMITS.files} block documents`);
		const documents = list.map((doc, index) =>
			checkBlockDocument(doc, `'Documents' [${index}]`, fail),
		);
		const recipientsGiven = parseJson(
			ctx.getNodeParameter('recipientsJson', itemIndex),
			"'Recipients (JSON)'",
			fail,
		);
		const recipients = checkRecipients(recipientsGiven, "'Recipients (JSON)'", fail);
		checkSignatureBlocks(documents, recipients, "'Documents'", fail);
		return { documents, recipients };
	}

	const text = (value: unknown, label: string) => textOf(value, label, fail);
	const title = text(ctx.getNodeParameter('title', itemIndex, ''), "'Title'").trim();
	const body = text(ctx.getNodeParameter('body', itemIndex, ''), "'Body'");
	const rows = (ctx.getNodeParameter('recipients.recipient', itemIndex, []) as IDataObject[]) ?? [];
	// Keys are made for the builder: r1, r2, … in the order listed.
	const recipients = checkRecipients(
		rows.map((row, index) => ({ ...row, key: `r${index + 1}` })),
		"'Recipients'",
		fail,
	);
	const labelled = recipients.map((recipient, index) => {
		const label =
			text(rows[index].label, `'Recipients' [${index}]: 'Signature Label'`).trim() ||
			recipient.name;
		if ([...label].length > LIMITS.label)
			throw fail(
				`'Recipients' [${index}]: the signature label is longer than ${LIMITS.label} characters`,
				"Set a shorter 'Signature Label' for this recipient.",
			);
		return { ...recipient, label };
	});
	const extra = ctx.getNodeParameter('documentOptions', itemIndex, {}) as IDataObject;
	const document = simpleDocument(title, body, labelled, {
		subtitle: text(extra.subtitle, "'Subtitle'").trim() || undefined,
		footerLabel: text(extra.footerLabel, "'Footer Label'").trim() || undefined,
	});
	checkSimpleDocument(document, fail);
	return {
		documents: [document],
		recipients: recipients.map(({ key, name, email, signingOrder }) => ({
			key,
			name,
			email,
			...(signingOrder && { signingOrder }),
		})),
	};
}

// The block rules a Title and Text document can break, in the words of the fields that made it;
// checkBlockDocument still checks the whole.
function checkSimpleDocument(document: IDataObject, fail: Fail): void {
	const title = document.title as string;
	if (title === '') throw fail("'Title' is empty");
	checkTitleFits(title, "'Title'", fail);
	if ([...String(document.subtitle ?? '')].length > LIMITS.subtitle)
		throw fail(`'Subtitle' is longer than ${LIMITS.subtitle} characters`);
	const blocks = document.blocks as IDataObject[];
	if (blocks.length > LIMITS.blocks)
		throw fail(
			`'Body' makes ${blocks.length} blocks with the signature blocks; AirSign takes at most ${LIMITS.blocks}`,
			'Merge short paragraphs (separate them with a single line break instead of a blank line).',
		);
	blocks.forEach((block, index) => {
		if (block.type === 'heading' && [...(block.text as string)].length > LIMITS.heading)
			throw fail(`'Body': heading ${index + 1} is longer than ${LIMITS.heading} characters`);
	});
	checkBlockDocument(document, 'The document', fail);
}

// Title and Text: blank lines separate paragraphs, a line break stays one, a paragraph starting
// with "# " is a heading; then one signature block per recipient.
function simpleDocument(
	title: string,
	body: string,
	recipients: Array<BlockRecipient & { label: string }>,
	extra: { subtitle?: string; footerLabel?: string },
): IDataObject {
	const paragraphs = body
		.replace(/\r\n?/g, '\n')
		.split(/\n\s*\n/)
		.map((text) => text.trim())
		.filter(Boolean)
		.map((text) =>
			/^#\s/.test(text)
				? { type: 'heading', text: text.replace(/^#\s+/, '') }
				: { type: 'paragraph', text },
		);
	return {
		format: 'blocks',
		title,
		...(extra.subtitle && { subtitle: extra.subtitle }),
		...(extra.footerLabel && { footerLabel: extra.footerLabel }),
		blocks: [
			...paragraphs,
			...(paragraphs.length > 0 ? [{ type: 'spacer', height: 24 }] : []),
			...recipients.map((r) => ({ type: 'signatureBlock', recipient: r.key, label: r.label })),
		],
	};
}
