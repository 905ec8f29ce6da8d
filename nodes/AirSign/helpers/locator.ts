import type { INode } from 'n8n-workflow';

import type { IdKind } from './validation';
import { assertId, ID_KINDS } from './validation';
import { inputError } from '../errors/nodeError';

const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

// A plain string (a workflow saved before the field became a locator) is read as an ID.
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

// AirSign's links have no fixed form: any link with one UUID, or one after /session(s)/ or /template(s)/.
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
