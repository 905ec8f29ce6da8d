import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';

export { create, get, getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['template'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Create a template from a block document with {{{variable}}} tokens, recipient roles and variables; a draft (with an editorUrl) unless activated',
				action: 'Create a template from a block document with variables',
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get one template by its ID: its recipient roles and the variables a session from it fills in',
				action: 'Get a template with its recipient roles and variables',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List the templates of the organisation, active or draft, by name',
				action: 'Get many templates',
			},
		],
		default: 'getMany',
	},
	...create.description,
	...get.description,
	...getMany.description,
];
