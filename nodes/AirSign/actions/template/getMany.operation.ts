import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	maxRateLimitWaitMs,
	maxRateLimitWaitOption,
	optionsCollection,
	readLimit,
	returnAllAndLimit,
} from '../../descriptions/options';
import { TEMPORARILY_UNAVAILABLE } from '../../errors/causes';
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

	const totals = new Set<number | undefined>();
	const { rows, repeated } = await readByOffset(
		async (pageSize, offset) => {
			const qs = { status, limit: pageSize, offset };
			const page = await fetchTemplatesPage(this, qs, itemIndex, maxWaitMs);
			totals.add(page.total);
			return page;
		},
		{ limit, pageSize: LIMITS.templatePageSize, idField: 'templateId' },
	);
	// AirSign names no order for templates, so a list that moved between pages may have skipped
	// one (docs/operations.md#template--get-many): its count changed, or a template came back.
	if (repeated > 0 || totals.size > 1)
		throw new NodeOperationError(
			this.getNode(),
			`AirSign's list of ${status} templates changed while it was read: a template may be missing`,
			{
				itemIndex,
				description: `Templates were added, removed or moved between its pages of ${LIMITS.templatePageSize}. Run the node again.`,
				failure: TEMPORARILY_UNAVAILABLE,
			},
		);
	return rows;
}
