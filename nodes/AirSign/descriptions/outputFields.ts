import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { shapes, type ShapeName } from '../actions/shapes';

// A saved version 1 node keeps AirSign's whole answer; version 2 and later simplify by default
// (each field twice under '@version', n8n's way of a default that depends on the version).
export type Show = NonNullable<IDisplayOptions['show']>;
export const V1: Show = { '@version': [1] };
export const V2_ON: Show = { '@version': [{ _cnd: { gte: 2 } }] };
const AS_TOOL: Show = { '@tool': [true] };

export const OUTPUT_MODES = ['simple', 'raw', 'selected'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

/** Selected Fields' parameter: "fields", unless the page has a field of that name already. */
export function selectedFieldsName(page: INodeProperties[]): string {
	return page.some((field) => field.name === 'fields') ? 'outputFields' : 'fields';
}

const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: false,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

const simplify = (show: Show, on: boolean): INodeProperties => ({
	...simplifyField,
	...(on && { default: true }),
	displayOptions: { show, hide: AS_TOOL },
});

const output = (show: Show, defaultValue: OutputMode): INodeProperties => ({
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
			value: 'selected',
			description: 'Only the fields chosen below, and always the ID',
		},
		{
			name: 'Simplified',
			value: 'simple',
			description: 'At most 10 fields: those an agent most often needs next',
		},
	],
	default: defaultValue,
	description: 'What the agent receives of each record',
	displayOptions: { show: { ...show, ...AS_TOOL } },
});

/** Simplify, or as a tool Output and its fields: for a page whose answer is a resource's record. */
export function outputFields(shapeName: ShapeName, page: INodeProperties[]): INodeProperties[] {
	const shape = shapes[shapeName];
	return [
		simplify(V1, false),
		simplify(V2_ON, true),
		output(V1, 'raw'),
		output(V2_ON, 'simple'),
		{
			displayName: 'Fields',
			name: selectedFieldsName(page),
			type: 'multiOptions',
			options: shape.fields,
			default: [],
			description: `The fields the agent receives; ${shape.id} is always included`,
			displayOptions: { show: { ...AS_TOOL, output: ['selected'] } },
		},
	];
}
