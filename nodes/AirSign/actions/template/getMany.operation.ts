import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	maxRateLimitWaitMs,
	maxRateLimitWaitOption,
	optionsCollection,
	readLimit,
	returnAllAndLimit,
} from '../../descriptions/options';
import { failer } from '../../errors/nodeError';
import { LIMITS, TEMPLATE_STATUSES } from '../../helpers/constants';
import { assertOneOf } from '../../helpers/validation';
import { readByOffset } from '../../transport/offsetPages';
import { fetchTemplatesPage } from '../../transport/templates';

export const description: INodeProperties[] = [
	...returnAllAndLimit,
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: [
			{ name: 'Active', value: 'active', description: 'Templates sessions can be created from' },
			{ name: 'Draft', value: 'draft', description: 'Templates still being written' },
		],
		default: 'active',
	},
	optionsCollection([maxRateLimitWaitOption]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const fail = failer(this.getNode(), itemIndex);
	const returnAll = this.getNodeParameter('returnAll', itemIndex);
	const limit = readLimit(returnAll, () => this.getNodeParameter('limit', itemIndex), fail);
	const given = this.getNodeParameter('status', itemIndex, 'active');
	const status = assertOneOf(given, "'Status'", TEMPLATE_STATUSES, fail);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const maxWaitMs = maxRateLimitWaitMs(this, options);

	const { rows } = await readByOffset(
		async (pageSize, offset) =>
			await fetchTemplatesPage(this, { status, limit: pageSize, offset }, itemIndex, maxWaitMs),
		{ limit, pageSize: LIMITS.templatePageSize, idField: 'templateId' },
	);
	return rows;
}
