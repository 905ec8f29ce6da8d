import type { INodeProperties } from 'n8n-workflow';

import { pageFields } from '../../descriptions/pageFields';
import { ONE_REQUEST_COST, toolDescriptions } from '../../descriptions/toolDescription';
import { LIMITS } from '../../helpers/constants';

import * as create from './create.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';

/** The pages, by the operation they are (the value of its option below). */
export const operations = { create, get, getMany };

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
				action: 'Create a template',
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get one template by its ID: its recipient roles (name, email, signing order) and the variables (name, type, required) a session from it fills in',
				action: 'Get a template',
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
	...toolDescriptions('template', {
		create: `Create an AirSign template from a block document with variables; ${ONE_REQUEST_COST}`,
		get: `Get an AirSign template by its ID: its recipient roles in order (name, signing order) and variables (name, type, required); ${ONE_REQUEST_COST}`,
		getMany: `Get many AirSign templates; each page of up to ${LIMITS.templatePageSize} ${ONE_REQUEST_COST}`,
	}),
	...pageFields('template', operations),
];
