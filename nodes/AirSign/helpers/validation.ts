import type { IExecuteFunctions, INode } from 'n8n-workflow';

import type { Fail } from '../errors/nodeError';
import { failer, inputError } from '../errors/nodeError';
import { EMAIL_PATTERN, LIMITS, UUID_PATTERN } from './constants';

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

export function assertEmail(node: INode, value: unknown, label: string, itemIndex: number): string {
	const email = typeof value === 'string' ? value.trim() : '';
	if (!EMAIL_PATTERN.test(email)) {
		throw inputError(node, `"${label}" is not an email address: ${shownValue(value, 80)}`, {
			itemIndex,
		});
	}
	return email;
}

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
	throw inputError(node, `"${label}" must be ${choices}, not ${shownValue(value)}`, { itemIndex });
}

export function textOf(value: unknown, label: string, fail: Fail): string {
	if (typeof value === 'string') return value;
	if (value === undefined || value === null) return '';
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	throw fail(`${label} must be text, not ${shownValue(value)}`);
}
