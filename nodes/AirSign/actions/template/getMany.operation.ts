import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	maxRateLimitWaitMs,
	maxRateLimitWaitOption,
	optionsCollection,
	readLimit,
	returnAllAndLimit,
} from '../../descriptions/options';
import type { RequestFailure } from '../../errors/failure';
import { MALFORMED_RESPONSE } from '../../errors/failure';
import { failer } from '../../errors/nodeError';
import { LIMITS, TEMPLATE_STATUSES } from '../../helpers/constants';
import { assertOneOf } from '../../helpers/validation';
import { callAirSign } from '../../transport/call';
import type { OffsetPage } from '../../transport/offsetPages';
import { readByOffset } from '../../transport/offsetPages';
import type { AirSignContext, ApiAnswer } from '../../transport/request';

const properties: INodeProperties[] = [
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

export const description = updateDisplayOptions(
	{ show: { resource: ['template'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const fail = failer(this.getNode(), itemIndex);
	const returnAll = this.getNodeParameter('returnAll', itemIndex);
	const limit = readLimit(returnAll, () => this.getNodeParameter('limit', itemIndex), fail);
	const given = this.getNodeParameter('status', itemIndex, 'active');
	const status = assertOneOf(given, 'Status', TEMPLATE_STATUSES, fail);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const maxWaitMs = maxRateLimitWaitMs(this, options);

	const { rows } = await readByOffset(
		async (pageSize, offset) =>
			await fetchTemplatesPage(this, { status, limit: pageSize, offset }, itemIndex, maxWaitMs),
		{ limit, pageSize: LIMITS.templatePageSize, idField: 'templateId' },
	);
	return rows;
}

export async function fetchTemplatesPage(
	ctx: AirSignContext,
	qs: { status: string; limit: number; offset: number },
	itemIndex: number,
	maxRateLimitWaitMs: number,
): Promise<OffsetPage> {
	const { body } = await callAirSign(
		ctx,
		{ method: 'GET', path: '/Templates', qs, itemIndex },
		{ failures: {}, maxRateLimitWaitMs, unusable: malformedTemplatesPage },
	);
	const page = body as { templates: IDataObject[]; pagination?: { hasMore?: boolean } };
	return { rows: page.templates, hasMore: Boolean(page.pagination?.hasMore) };
}

function malformedTemplatesPage(answer: ApiAnswer): RequestFailure | undefined {
	const page = answer.body as { templates?: unknown } | undefined;
	const isTemplate = (row: unknown) =>
		row !== null && typeof row === 'object' && !Array.isArray(row);
	if (Array.isArray(page?.templates) && page.templates.every(isTemplate)) return undefined;
	return { status: answer.statusCode, code: MALFORMED_RESPONSE };
}
