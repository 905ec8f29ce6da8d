import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

export type ItemIdentity = (this: IExecuteFunctions, itemIndex: number) => IDataObject;

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
