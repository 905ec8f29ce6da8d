import type { Fail } from '../errors/nodeError';
import { EMAIL_PATTERN, LIMITS, UUID, UUID_PATTERN } from './constants';

const ID_HINTS = {
	session:
		'Map the "sessionId" field of a Get Many or Create result, or pick the session from the list.',
	template:
		'Map the "templateId" field of a Template Get Many result, or pick the template from the list.',
	recipient: 'Map a "recipientId" from the recipients of a Get Session result.',
};
type IdKind = keyof typeof ID_HINTS;

/** A length in characters: Unicode code points (docs/api.md#our-decisions-where-airsign-is-silent). */
export const chars = (text: string) => [...text].length;

// A value for a message: never "[object Object]" or "undefined".
export function shownValue(value: unknown, max = 60): string {
	if (typeof value === 'string') return `"${value.slice(0, max)}"`;
	if (value === undefined) return 'nothing';
	if (typeof value === 'number' && !Number.isFinite(value))
		return `${String(value)} (not a number)`;
	let json: string | undefined;
	try {
		json = JSON.stringify(value);
	} catch {
		// A circular structure: named by its type below.
	}
	return (json ?? `a ${typeof value}`).slice(0, max);
}

export function assertId(value: unknown, kind: IdKind, fail: Fail): string {
	const id = typeof value === 'string' ? value.trim() : '';
	if (UUID_PATTERN.test(id)) return id;
	const label = `${kind.charAt(0).toUpperCase()}${kind.slice(1)} ID`;
	throw fail(
		`${label} ${shownValue(value)} is not a valid AirSign ${kind} ID`,
		`An AirSign ${kind} ID is a UUID such as 3f2b8a1e-7c4d-4e8f-9a0b-1c2d3e4f5a6b. ${ID_HINTS[kind]}`,
	);
}

const UUID_ANYWHERE = new RegExp(UUID, 'g');

// A plain string (a workflow saved before the field became a locator) is read as an ID.
function asLocator(value: unknown): { mode?: unknown; value: unknown } {
	return value !== null && typeof value === 'object' && 'value' in value
		? (value as { mode?: unknown; value: unknown })
		: { mode: 'id', value };
}

export function readLocatorId(value: unknown, kind: 'session' | 'template', fail: Fail): string {
	const locator = asLocator(value);
	if (locator.mode !== 'url' || typeof locator.value !== 'string')
		return assertId(locator.value, kind, fail);
	// AirSign's links have no fixed form: any link with one UUID, or one after /session(s)/ or /template(s)/.
	const url = locator.value.trim();
	const ids = [...url.matchAll(UUID_ANYWHERE)].map((m) => m[0]);
	const afterSegment = new RegExp(`/${kind}s?/(${UUID})`, 'i').exec(url)?.[1];
	const id = ids.length === 1 ? ids[0] : afterSegment;
	if (id !== undefined) return assertId(id, kind, fail);
	throw fail(
		ids.length === 0
			? `The URL "${url.slice(0, 120)}" holds no AirSign ${kind} ID`
			: `The URL "${url.slice(0, 120)}" holds several IDs; which one is the ${kind} is unclear`,
		`Paste the link of the ${kind} as AirSign shows it (for a draft, the "draftUrl" of its creation), or choose 'By ID'. ${ID_HINTS[kind]}`,
	);
}

/** Send Invitation's 'Recipient' locator, as the one field AirSign takes for its mode. */
export function readRecipient(
	value: unknown,
	fail: Fail,
): { recipientId: string } | { recipientEmail: string } {
	const locator = asLocator(value);
	return locator.mode === 'email'
		? { recipientEmail: assertEmail(locator.value, 'Recipient', fail) }
		: { recipientId: assertId(locator.value, 'recipient', fail) };
}

export function assertEmail(value: unknown, label: string, fail: Fail): string {
	const email = typeof value === 'string' ? value.trim() : '';
	if (!EMAIL_PATTERN.test(email))
		throw fail(`'${label}' is not an email address: ${shownValue(value, 80)}`);
	return email;
}

/** The 'Name' of a session or template; `optional`: it may be empty (AirSign then uses the template's). */
export function readName(value: unknown, fail: Fail, optional = false): string {
	const name = textOf(value, "'Name'", fail).trim();
	const length = [...name].length;
	if ((name === '' && !optional) || length > LIMITS.name) {
		throw fail(
			`'Name' must be 1 to ${LIMITS.name} characters long; it is ${length}`,
			`Shorten it: AirSign accepts names of at most ${LIMITS.name} characters.`,
		);
	}
	return name;
}

/** `label` as the message shows it: `'Status'`, `'Variables' [0]: 'Type'`. */
export function assertOneOf<T extends string>(
	value: unknown,
	label: string,
	allowed: readonly T[],
	fail: Fail,
): T {
	if ((allowed as readonly unknown[]).includes(value)) return value as T;
	const choices =
		allowed.length === 2 ? `${allowed[0]} or ${allowed[1]}` : `one of ${allowed.join(', ')}`;
	throw fail(`${label} must be ${choices}, not ${shownValue(value)}`);
}

export function textOf(value: unknown, label: string, fail: Fail): string {
	if (typeof value === 'string') return value;
	if (value === undefined || value === null) return '';
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	throw fail(`${label} must be text, not ${shownValue(value)}`);
}

/** A JSON field's value: the text as typed, or whatever an expression gave (read as it is). */
export function parseJson(value: unknown, label: string, fail: Fail): unknown {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') throw fail(`${label} is empty`);
	try {
		return JSON.parse(value);
	} catch {
		throw fail(`${label} is not valid JSON`);
	}
}
