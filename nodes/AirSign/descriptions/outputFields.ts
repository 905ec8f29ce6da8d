import type { INodeProperties } from 'n8n-workflow';

import { shapes, type ShapeName } from '../actions/shapes';

const AS_TOOL = { '@tool': [true] };

// Outlook's Output values (n8n's Microsoft Outlook v2): simple, raw, fields.
export const OUTPUT_MODES = ['simple', 'raw', 'fields'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

/** Selected Fields' parameter: "fields", unless the page has a field of that name already. */
export function selectedFieldsName(page: INodeProperties[]): string {
	return page.some((field) => field.name === 'fields') ? 'outputFields' : 'fields';
}

/** Simplify, or as a tool Output and its fields: for a page whose answer is a resource's record. */
export function outputFields(shapeName: ShapeName, page: INodeProperties[]): INodeProperties[] {
	const shape = shapes[shapeName];
	return [
		{
			displayName: 'Simplify',
			name: 'simple',
			type: 'boolean',
			default: true,
			description: 'Whether to return a simplified version of the response instead of the raw data',
			hint: `Simplified: ${shape.summary}`,
			displayOptions: { hide: AS_TOOL },
		},
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			options: [
				{
					name: 'Raw',
					value: 'raw',
					description: 'Every field AirSign returns, nested lists included',
				},
				{
					name: 'Selected Fields',
					value: 'fields',
					description: 'Only the fields chosen below, and always the ID',
				},
				{
					name: 'Simplified',
					value: 'simple',
					description: `At most 10 fields: ${shape.summary}`,
				},
			],
			default: 'simple',
			description: 'What the agent receives of each record',
			displayOptions: { show: AS_TOOL },
		},
		{
			displayName: 'Fields',
			name: selectedFieldsName(page),
			type: 'multiOptions',
			options: shape.fields,
			default: [],
			description: `The fields the agent receives; ${shape.id} is always included`,
			displayOptions: { show: { ...AS_TOOL, output: ['fields'] } },
		},
	];
}
