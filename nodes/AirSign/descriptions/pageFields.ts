import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ShapeName } from '../actions/shapes';
import { outputFields } from './outputFields';

/**
 * Each page's fields, shown only for its resource and the operation it is registered as; a page
 * that declares its `output` shape gets Simplify (and, as a tool, Output) before its Options.
 */
export function pageFields(
	resource: string,
	pages: Record<string, { description: INodeProperties[]; output?: ShapeName }>,
): INodeProperties[] {
	return Object.entries(pages).flatMap(([operation, page]) => {
		const fields = [...page.description];
		if (page.output) {
			const options = fields.findIndex((field) => field.name === 'options');
			const at = options === -1 ? fields.length : options;
			fields.splice(at, 0, ...outputFields(page.output, page.description));
		}
		return updateDisplayOptions({ show: { resource: [resource], operation: [operation] } }, fields);
	});
}
