import type { INodeProperties } from 'n8n-workflow';

import { ONE_REQUEST_COST } from '../../helpers/constants';

import * as upload from './upload.operation';

export { upload };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['file'] } },
		options: [
			{
				name: 'Upload',
				value: 'upload',
				description: 'Upload a PDF from binary data, to attach to a session',
				action: `Upload a PDF to attach to a signing session; ${ONE_REQUEST_COST}`,
			},
		],
		default: 'upload',
	},
	...upload.description,
];
