import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

/** Each page's fields, shown only for its resource and the operation it is registered as. */
export function pageFields(
	resource: string,
	pages: Record<string, { description: INodeProperties[] }>,
): INodeProperties[] {
	return Object.entries(pages).flatMap(([operation, page]) =>
		updateDisplayOptions(
			{ show: { resource: [resource], operation: [operation] } },
			page.description,
		),
	);
}
