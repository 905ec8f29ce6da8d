import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/**
 * What an item was about (the session, the template, the file), read from the node's
 * parameters for that item. An error item carries it next to the error, so that a table of
 * results says which input failed: a failing item has no answer of AirSign to show instead.
 */
export type ItemIdentity = (this: IExecuteFunctions, itemIndex: number) => IDataObject;

/**
 * A parameter as the item gave it, for an error item: a resource locator's value whatever its
 * mode (the ID, or the link as pasted), a string trimmed. Never throws: the parameter may be the
 * very thing that failed (an expression that does not resolve), and then it is left out.
 */
export function parameterAsGiven(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
): string | undefined {
	let value: unknown;
	try {
		value = ctx.getNodeParameter(name, itemIndex, '');
	} catch {
		return undefined;
	}
	if (value !== null && typeof value === 'object' && 'value' in value)
		value = (value as { value: unknown }).value;
	if (typeof value === 'number') return String(value);
	if (typeof value !== 'string') return undefined;
	return value.trim() || undefined;
}

/** The identity made of these parameters, each under its own name, those without a value left out. */
export function identifyByParameters(...names: string[]): ItemIdentity {
	return function (this: IExecuteFunctions, itemIndex: number) {
		const identity: IDataObject = {};
		for (const name of names) {
			const value = parameterAsGiven(this, name, itemIndex);
			if (value !== undefined) identity[name] = value;
		}
		return identity;
	};
}
