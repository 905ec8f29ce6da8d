import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getMany from './getMany.operation';

export { get, getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['template'] } },
		options: [
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
	...get.description,
	...getMany.description,
];
