/**
 * Generators of what a previous node may hand the AirSign node: valid values of each documented
 * rule, values that break one (each of which must be refused before any request), and junk of
 * unknown validity (whatever an expression may resolve to).
 */
import fc from 'fast-check';
import { expect } from 'vitest';

import { LIMITS, MAX_FILE_NAME_LENGTH } from '../../nodes/AirSign/helpers/constants';

/** Words that must never appear in a message: junk text never contains them, so a hit is the node's. */
export const FORBIDDEN_WORDS = [
	'TypeError',
	'undefined',
	'[object Object]',
	// What a TypeError says when it is shown without its name.
	'is not a function',
	'Cannot read properties',
	'is not iterable',
];
export const clean = (text: string) =>
	!FORBIDDEN_WORDS.some((word) => text.toLowerCase().includes(word.toLowerCase()));

/** A message a user may see: text, not blank, without a forbidden word. */
export function expectCleanMessage(message: unknown, where: string): void {
	expect(typeof message, `${where}: the message is text`).toBe('string');
	const text = message as string;
	expect(text.trim(), `${where}: the message is not empty`).not.toBe('');
	for (const word of FORBIDDEN_WORDS)
		expect(text.toLowerCase(), `${where}: "${text}" holds "${word}"`).not.toContain(
			word.toLowerCase(),
		);
}

/** Text of any kind (emoji, other scripts, control characters), without the forbidden words. */
export const anyText = (maxLength = 40) =>
	fc
		.oneof(
			fc.string({ maxLength }),
			fc.string({ unit: 'grapheme', maxLength }),
			fc.string({ unit: 'binary', maxLength }),
			fc.constantFrom('', ' ', '\n', '\t', '  \n ', '😀', '👩‍👩‍👧‍👦', 'null', '{}', '[]', '0'),
		)
		.filter(clean);

/** Text with at least one visible character and at most `max` code points, one line. */
export const shortText = (max: number) =>
	fc
		.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: Math.min(max, 30) })
		.map((text) => text.replace(/[\r\n]/g, ' '))
		.filter((text) => text.trim() !== '' && [...text].length <= max && clean(text));

/** Text of `min` to `max` code points, of emoji or letters (long values). */
export const textOfLength = (min: number, max = min) =>
	fc
		.tuple(fc.constantFrom('a', 'é', '😀', '中'), fc.integer({ min, max }))
		.map(([unit, length]) => unit.repeat(length));
/** Text longer than `limit` (by up to `max`). */
export const overLimit = (limit: number, max = limit * 3) => textOfLength(limit + 1, max);
/** Blank, or a value of one of `arbitraries`. */
export const orBlank = (...arbitraries: Array<fc.Arbitrary<unknown>>) =>
	fc.oneof(fc.constant(''), ...arbitraries);

/** Anything an expression may resolve to. */
export const junk = (): fc.Arbitrary<unknown> =>
	fc.oneof(
		anyText(),
		fc.constantFrom(null, true, false, 0, -1, 1.5, 1e21, -0),
		fc.integer(),
		fc.double({ noNaN: true }),
		fc.array(fc.oneof(fc.integer(), anyText(8)), { maxLength: 3 }),
		fc.dictionary(anyText(6), fc.oneof(fc.integer(), anyText(8)), { maxKeys: 3 }),
		textOfLength(10_000),
	);

export const uuid = () => fc.uuid({ version: 4 });

/** A valid date from `min` to `max` (UTC). */
export const dateBetween = (min: string, max: string) =>
	fc.date({
		min: new Date(`${min}T00:00:00Z`),
		max: new Date(`${max}T00:00:00Z`),
		noInvalidDate: true,
	});

/** Strings that are not a UUID (an ID, once trimmed, must be one). */
export const notUuid = () =>
	fc.oneof(
		anyText().filter((text) => !/^\s*[0-9a-f-]{36}\s*$/i.test(text)),
		uuid().map((id) => id.slice(0, 35)),
		uuid().map((id) => `${id}0`),
		uuid().map((id) => id.replace(/-/g, '')),
		uuid().map((id) => `${id}/../x`),
		uuid().map((id) => `x${id}`),
	);

/** Values of another type than text, where text is required. */
export const notText = () =>
	fc.oneof(
		fc.constantFrom(null, true, false),
		fc.integer(),
		fc.array(fc.integer(), { maxLength: 2 }),
		fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
	);

export const email = () =>
	fc
		.tuple(
			fc.stringMatching(/^[a-z0-9._%+-]{1,12}$/),
			fc.stringMatching(/^[a-z0-9-]{1,10}$/),
			fc.constantFrom('com', 'org', 'io', 'com.au'),
		)
		.map(([local, domain, tld]) => `${local}@${domain}.${tld}`);

export const notEmail = () =>
	fc.oneof(
		fc.constantFrom(
			'',
			' ',
			'ann',
			'ann@',
			'@example.com',
			'ann@example',
			'a nn@example.com',
			'ann@@x.com',
		),
		anyText().filter((text) => !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text.trim())),
		notText(),
	);

/** Names of sessions and templates: 1 to 50 characters, not blank. */
export const name = () => shortText(LIMITS.name);
export const badName = () =>
	fc.oneof(
		fc.constantFrom('', ' ', '\n\t '),
		overLimit(LIMITS.name, 400),
		fc.constant('x'.repeat(10_000)),
	);

export const fileName = () =>
	fc.oneof(
		shortText(60),
		fc.integer({ min: 1, max: MAX_FILE_NAME_LENGTH }).map((n) => 'f'.repeat(n)),
		// Counted in code points (docs/api.md#upload-file): 255 emoji are a valid name.
		textOfLength(1, MAX_FILE_NAME_LENGTH),
		fc.integer({ min: 1, max: MAX_FILE_NAME_LENGTH - 4 }).map((n) => `${'n'.repeat(n)}.PDF`),
	);
export const badFileName = () => overLimit(MAX_FILE_NAME_LENGTH, 2_000);
