import type { IExecuteFunctions, INode } from 'n8n-workflow';

import type { Fail } from '../errors/inputError';
import { failer, inputError } from '../errors/inputError';
import { EMAIL_PATTERN, LIMITS, UUID_PATTERN } from './constants';

/** What an ID names, for messages. */
export const ID_KINDS = {
	session: {
		label: 'Session ID',
		hint: 'Map the "sessionId" field of a Get Many or Create result, or pick the session from the list.',
	},
	template: {
		label: 'Template ID',
		hint: 'Map the "templateId" field of a Template Get Many result, or pick the template from the list.',
	},
	recipient: {
		label: 'Recipient ID',
		hint: 'Map a "recipientId" from the recipients of a Get Session result.',
	},
} as const;
export type IdKind = keyof typeof ID_KINDS;

/**
 * A value a builder gave, for a message: text quoted and cut to `max` characters, anything else
 * (an expression of the wrong type) as JSON, so that a message never reads "[object Object]" or
 * "undefined".
 */
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

/**
 * IDs go into URL paths and bodies, so only a well-formed UUID is ever used: anything else is
 * refused before a request is made.
 */
export function assertId(node: INode, value: unknown, kind: IdKind, itemIndex: number): string {
	const id = typeof value === 'string' ? value.trim() : '';
	if (!UUID_PATTERN.test(id)) {
		throw inputError(
			node,
			`${ID_KINDS[kind].label} ${shownValue(value)} is not a valid AirSign ${kind} ID`,
			{
				itemIndex,
				description: `An AirSign ${kind} ID is a UUID such as 3f2b8a1e-7c4d-4e8f-9a0b-1c2d3e4f5a6b. ${ID_KINDS[kind].hint}`,
			},
		);
	}
	return id;
}

/** "Return All" and "Limit": how many rows a Get Many returns (Infinity: all), the limit checked. */
export function readLimit(ctx: IExecuteFunctions, itemIndex: number): number {
	if (ctx.getNodeParameter('returnAll', itemIndex) as boolean) return Number.POSITIVE_INFINITY;
	const limit = ctx.getNodeParameter('limit', itemIndex) as number;
	if (!Number.isInteger(limit) || limit < 1) {
		throw inputError(
			ctx.getNode(),
			`"Limit" must be a whole number of at least 1, not ${shownValue(limit)}`,
			{ itemIndex },
		);
	}
	return limit;
}

/** An email, trimmed; anything else is refused naming the parameter and the item. */
export function assertEmail(node: INode, value: unknown, label: string, itemIndex: number): string {
	const email = typeof value === 'string' ? value.trim() : '';
	if (!EMAIL_PATTERN.test(email)) {
		throw inputError(node, `"${label}" is not an email address: ${shownValue(value, 80)}`, {
			itemIndex,
		});
	}
	return email;
}

/** "Name" of a session or template: text of 1 to LIMITS.name characters; `optional`: "" too. */
export function readName(ctx: IExecuteFunctions, itemIndex: number, optional = false): string {
	const fail = failer(ctx.getNode(), itemIndex);
	const name = textOf(ctx.getNodeParameter('name', itemIndex, ''), '"Name"', fail).trim();
	const length = [...name].length;
	if ((name === '' && !optional) || length > LIMITS.name) {
		throw fail(
			`"Name" must be 1 to ${LIMITS.name} characters long; it is ${length}`,
			`Shorten it: AirSign accepts names of at most ${LIMITS.name} characters.`,
		);
	}
	return name;
}

/**
 * One of the values AirSign knows (an options parameter set by an expression can hold anything):
 * refused before the request, naming the parameter, the values it takes and the one it got.
 */
export function assertOneOf<T extends string>(
	node: INode,
	value: unknown,
	label: string,
	allowed: readonly T[],
	itemIndex: number,
): T {
	if ((allowed as readonly unknown[]).includes(value)) return value as T;
	const choices =
		allowed.length === 2 ? `${allowed[0]} or ${allowed[1]}` : `one of ${allowed.join(', ')}`;
	throw inputError(node, `"${label}" must be ${choices}, not ${shownValue(value)}`, {
		itemIndex,
	});
}

/**
 * A text parameter as the item gave it: text as it is, a number or true/false as its text, nothing
 * as "". An object or a list (an expression of the wrong type) is refused, naming the parameter
 * (`label`, quoted by the caller), so that "[object Object]" never reaches AirSign.
 */
export function textOf(value: unknown, label: string, fail: Fail): string {
	if (typeof value === 'string') return value;
	if (value === undefined || value === null) return '';
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	throw fail(`${label} must be text, not ${shownValue(value)}`);
}
