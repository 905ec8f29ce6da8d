import type { INodeProperties } from 'n8n-workflow';

import { pageFields } from '../../descriptions/pageFields';
import { ONE_REQUEST_COST, toolDescriptions } from '../../descriptions/toolDescription';

import * as upload from './upload.operation';

/** The pages, by the operation they are (the value of its option below). */
export const operations = { upload };

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
				action: 'Upload a file',
			},
		],
		default: 'upload',
	},
	...toolDescriptions('file', {
		upload: `Upload a PDF from binary data to AirSign, to attach to a signing session; ${ONE_REQUEST_COST}`,
	}),
	...pageFields('file', operations),
];
