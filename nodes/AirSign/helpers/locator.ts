import type { INode } from 'n8n-workflow';

import type { IdKind } from './validation';
import { assertId, ID_KINDS } from './validation';
import { inputError } from '../errors/inputError';

const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * The ID a resource locator holds, whatever its mode: "From List" and "By ID" hold the ID, "By
 * URL" a link that carries it. A plain string (workflows saved before the field became a
 * locator) is read as an ID. The result is always a checked UUID.
 */
export function readLocatorId(
	node: INode,
	value: unknown,
	kind: 'session' | 'template',
	itemIndex: number,
): string {
	const locator =
		value !== null && typeof value === 'object' && 'value' in value
			? (value as { mode?: unknown; value: unknown })
			: { mode: 'id', value };
	if (locator.mode === 'url' && typeof locator.value === 'string') {
		return assertId(node, idFromUrl(node, locator.value, kind, itemIndex), kind, itemIndex);
	}
	return assertId(node, locator.value, kind, itemIndex);
}

/**
 * The ID in an AirSign link. AirSign's links are not documented, so any link is accepted that
 * holds one UUID, or several of which one follows a "/session(s)/" (or "/template(s)/") segment.
 */
function idFromUrl(node: INode, url: string, kind: IdKind, itemIndex: number): string {
	const text = url.trim();
	const ids = [...text.matchAll(UUID_ANYWHERE)].map((m) => m[0]);
	const afterSegment = new RegExp(`/${kind}s?/(${UUID_ANYWHERE.source})`, 'i').exec(text)?.[1];
	const id = ids.length === 1 ? ids[0] : afterSegment;
	if (id === undefined) {
		throw inputError(
			node,
			ids.length === 0
				? `The URL "${text.slice(0, 120)}" holds no AirSign ${kind} ID`
				: `The URL "${text.slice(0, 120)}" holds several IDs; which one is the ${kind} is unclear`,
			{
				itemIndex,
				description: `Paste the link of the ${kind} as AirSign shows it (for a draft, the "draftUrl" of its creation), or choose "By ID". ${ID_KINDS[kind].hint}`,
			},
		);
	}
	return id;
}
