import { ApiProblem, invalid, isPlainObject } from './http';
import { MAX_RECIPIENTS, RECIPIENT_KEY_PATTERN } from './sessionSettings';

/**
 * A `recipients` array of Create Session or Create Template (docs/api.md#create-session,
 * #create-template): 1 to 20 objects, each with a unique key of letters, digits, "_" and "-",
 * checked in body order. The rest of each entry is the caller's: `parseEntry` gets the object
 * and its field path.
 */
export function parseRecipientList<T>(
	value: unknown,
	parseEntry: (entry: Record<string, unknown>, field: string, key: string) => T,
): T[] {
	if (!Array.isArray(value) || value.length < 1 || value.length > MAX_RECIPIENTS)
		throw invalid('recipients', `recipients must be an array of 1 to ${MAX_RECIPIENTS} entries`);
	const seen = new Set<string>();
	return value.map((entry, index) => {
		const field = `recipients[${index}]`;
		if (!isPlainObject(entry)) throw invalid(field, 'a recipient must be an object');
		const { key } = entry;
		if (typeof key !== 'string' || !RECIPIENT_KEY_PATTERN.test(key))
			throw invalid(`${field}.key`, 'key must be letters, digits, "_" or "-"');
		if (seen.has(key)) {
			throw new ApiProblem(
				400,
				'DUPLICATE_RECIPIENT_KEY',
				`Two recipients have the key "${key}"`,
				`${field}.key`,
			);
		}
		seen.add(key);
		return parseEntry(entry, field, key);
	});
}

/** An optional signing order: a whole number from 1. */
export function checkSigningOrder(value: unknown, field: string): number | undefined {
	if (value === undefined) return undefined;
	if (!Number.isInteger(value) || (value as number) < 1)
		throw invalid(`${field}.signingOrder`, 'signingOrder must be a whole number from 1');
	return value as number;
}
