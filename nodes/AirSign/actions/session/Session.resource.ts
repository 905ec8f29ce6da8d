import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';
import * as send from './send.operation';

export { getMany, send };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['session'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List sessions, with filters and sorting',
				action: 'Get many sessions',
			},
			{
				name: 'Send',
				value: 'send',
				description: 'Send a draft session: its recipients get their signing invitations',
				action: 'Send a session',
			},
		],
		default: 'send',
	},
	...send.description,
	...getMany.description,
];
