import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { OUTPUT_MODES, selectedFieldsName, type OutputMode } from '../descriptions/outputFields';
import { failer } from '../errors/nodeError';
import { assertOneOf } from '../helpers/validation';
import { selectFields, shapes, type ShapeName } from './shapes';

/** A page whose items are one resource's records declares that resource as its `output`. */
export interface ShapedPage {
	description: INodeProperties[];
	output?: ShapeName;
}

/**
 * Simplify, or as a tool Output: what to make of the item's records, read and checked before the
 * operation's request (a bad Fields must not fail an item whose write reached AirSign).
 */
export function outputShaper(
	ctx: IExecuteFunctions,
	page: ShapedPage,
	itemIndex: number,
): (records: IDataObject[]) => IDataObject[] {
	const keep = (records: IDataObject[]) => records;
	if (!page.output) return keep;
	const shape = shapes[page.output];
	const mode = outputMode(ctx, itemIndex);
	if (mode === 'raw') return keep;
	if (mode === 'simple') return (records) => records.map((record) => shape.simplify(record));
	const name = selectedFieldsName(page.description);
	const fields = ctx.getNodeParameter(name, itemIndex, []) as unknown;
	if (!Array.isArray(fields) || fields.some((field) => typeof field !== 'string')) {
		throw failer(ctx.getNode(), itemIndex)(
			"'Fields' must be a list of field names",
			`Pick them in 'Fields', e.g. status and recipients; ${shape.id} is always included`,
		);
	}
	return (records) => records.map((record) => selectFields(shape, record, fields as string[]));
}

// An AI agent runs the node as "<node>Tool" (its '@tool' fields show): Output there, else Simplify.
function outputMode(ctx: IExecuteFunctions, itemIndex: number): OutputMode {
	if (!ctx.getNode().type.endsWith('Tool'))
		return ctx.getNodeParameter('simple', itemIndex, true) === true ? 'simple' : 'raw';
	const given = ctx.getNodeParameter('output', itemIndex, 'simple');
	return assertOneOf(given, "'Output'", OUTPUT_MODES, failer(ctx.getNode(), itemIndex));
}
