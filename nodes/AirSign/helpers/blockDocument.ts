import type { IDataObject } from 'n8n-workflow';

import { EMAIL_PATTERN, LIMITS, RECIPIENT_KEY_PATTERN } from './constants';
import type { Fail } from '../errors/nodeError';
import { chars, shownValue } from './validation';

export interface BlockRecipient extends IDataObject {
	key: string;
	name: string;
	email: string;
	signingOrder?: number;
}

const isText = (value: unknown): value is string => typeof value === 'string';
const blank = (value: unknown) => !isText(value) || value.trim() === '';

export function checkBlockDocument(value: unknown, where: string, fail: Fail): IDataObject {
	if (value === null || typeof value !== 'object' || Array.isArray(value))
		throw fail(`${where} is not a block document (an object with "format": "blocks")`);
	const doc = value as IDataObject;
	if (doc.format !== 'blocks') throw fail(`${where}: "format" must be "blocks"`);
	if (blank(doc.title)) throw fail(`${where}: "title" is required`);
	checkTitleFits(doc.title as string, `${where}: the title`, fail);
	if (
		doc.subtitle !== undefined &&
		(!isText(doc.subtitle) || chars(doc.subtitle) > LIMITS.subtitle)
	)
		throw fail(`${where}: "subtitle" must be text of at most ${LIMITS.subtitle} characters`);
	if (doc.footerLabel !== undefined && !isText(doc.footerLabel))
		throw fail(`${where}: "footerLabel" must be text`);
	const blocks = doc.blocks;
	if (!Array.isArray(blocks) || blocks.length < 1 || blocks.length > LIMITS.blocks)
		throw fail(`${where}: "blocks" must hold 1 to ${LIMITS.blocks} blocks`);
	blocks.forEach((block, index) => checkBlock(block, `${where} block ${index}`, fail));
	return doc;
}

/** `label` names the title as the message shows it: `'Title'`, `'Documents' [0]: the title`. */
export function checkTitleFits(title: string, label: string, fail: Fail): void {
	if (chars(title) > LIMITS.title)
		throw fail(
			`${label} is ${chars(title)} characters; it must fit on one line (at most ${LIMITS.title})`,
			'AirSign prints the title in every page’s header band and refuses one that does not fit (it says "about 30 characters").',
		);
}

function checkBlock(block: unknown, where: string, fail: Fail): void {
	if (block === null || typeof block !== 'object') throw fail(`${where} is not an object`);
	const b = block as IDataObject;
	const between = (v: unknown, { min, max }: { min: number; max: number }) =>
		typeof v === 'number' && v >= min && v <= max;
	switch (b.type) {
		case 'heading':
			if (blank(b.text) || chars(b.text as string) > LIMITS.heading)
				throw fail(`${where}: a heading needs "text" of 1 to ${LIMITS.heading} characters`);
			return;
		case 'paragraph':
			if (blank(b.text)) throw fail(`${where}: a paragraph needs "text"`);
			if (b.fontSize !== undefined && !between(b.fontSize, LIMITS.fontSize))
				throw fail(
					`${where}: "fontSize" must be from ${LIMITS.fontSize.min} to ${LIMITS.fontSize.max}`,
				);
			for (const flag of ['bold', 'muted'])
				if (b[flag] !== undefined && typeof b[flag] !== 'boolean')
					throw fail(`${where}: "${flag}" must be true or false`);
			return;
		case 'spacer':
			if (!between(b.height, LIMITS.spacer))
				throw fail(
					`${where}: a spacer needs "height" from ${LIMITS.spacer.min} to ${LIMITS.spacer.max} points`,
				);
			return;
		case 'pageBreak':
			return;
		case 'signatureBlock':
			if (blank(b.recipient))
				throw fail(`${where}: a signature block needs "recipient" (a recipient key)`);
			if (blank(b.label) || chars(b.label as string) > LIMITS.label)
				throw fail(`${where}: a signature block needs "label" of 1 to ${LIMITS.label} characters`);
			return;
		default:
			throw fail(
				`${where}: "type" must be heading, paragraph, spacer, pageBreak or signatureBlock, not ${shownValue(b.type)}`,
			);
	}
}

/**
 * 1 to 20 recipients with keys of their own (letters, digits, "_" or "-"): a block document's, and
 * a template's roles. `entry` says how the key is labelled and read, then reads the rest.
 */
export function checkRecipientList<T>(
	value: unknown,
	where: string,
	fail: Fail,
	entry: {
		keyLabel: string;
		key: (given: IDataObject) => unknown;
		rest: (given: IDataObject, at: string, key: string) => T;
	},
): T[] {
	if (!Array.isArray(value) || value.length < 1 || value.length > LIMITS.recipients)
		throw fail(
			`${where} must hold 1 to ${LIMITS.recipients} recipients; it holds ${Array.isArray(value) ? value.length : 'none'}`,
		);
	const keys = new Set<string>();
	return value.map((item, index) => {
		const given = (item ?? {}) as IDataObject;
		const at = `${where} [${index}]`;
		const key = entry.key(given);
		if (!isText(key) || !RECIPIENT_KEY_PATTERN.test(key))
			throw fail(
				`${at}: ${entry.keyLabel} must be letters, digits, "_" or "-", not ${shownValue(given.key)}`,
			);
		if (keys.has(key)) throw fail(`${at}: the key "${key}" is used twice`);
		keys.add(key);
		return entry.rest(given, at, key);
	});
}

export function checkRecipients(value: unknown, where: string, fail: Fail): BlockRecipient[] {
	return checkRecipientList(value, where, fail, {
		keyLabel: '"key"',
		key: (r) => r.key,
		rest: (r, at, key) => {
			if (blank(r.name)) throw fail(`${at}: "name" is required`);
			const email = isText(r.email) ? r.email.trim() : '';
			if (!EMAIL_PATTERN.test(email))
				throw fail(`${at}: "email" is not an email address: ${JSON.stringify(r.email ?? '')}`);
			const recipient: BlockRecipient = { key, name: (r.name as string).trim(), email };
			if (r.signingOrder !== undefined && r.signingOrder !== null && r.signingOrder !== 0) {
				if (!Number.isInteger(r.signingOrder) || (r.signingOrder as number) < 1)
					throw fail(`${at}: "signingOrder" must be a whole number from 1`);
				recipient.signingOrder = r.signingOrder as number;
			}
			return recipient;
		},
	});
}

export function checkSignatureBlocks(
	documents: IDataObject[],
	recipients: Array<{ key: string }>,
	where: string,
	fail: Fail,
): void {
	const count = new Map(recipients.map((r) => [r.key, 0]));
	documents.forEach((doc, d) =>
		(doc.blocks as IDataObject[]).forEach((block, b) => {
			if (block.type !== 'signatureBlock') return;
			const key = block.recipient as string;
			if (!count.has(key))
				throw fail(
					`${where} [${d}] block ${b}: the signature block names "${key}", which is not the key of a recipient`,
				);
			count.set(key, count.get(key)! + 1);
		}),
	);
	for (const [key, found] of count) {
		if (found !== 1)
			throw fail(
				`Recipient "${key}" has ${found} signature blocks; each signer has exactly one`,
				'Add one signatureBlock naming each recipient key, and no more.',
			);
	}
}
