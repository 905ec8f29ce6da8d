import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { maxRateLimitWaitOption, optionsCollection } from '../../descriptions/options';
import { LIMITS, TEMPLATE_STATUSES, TIMESTAMP_FIELDS } from '../../helpers/constants';
import { assertOneOf, readLimit } from '../../helpers/validation';
import { utcTimestamps } from '../../helpers/dates';
import { maxRateLimitWaitMs } from '../../helpers/options';
import type { RequestFailure } from '../../errors/failure';
import { MALFORMED_RESPONSE } from '../../errors/failure';
import { callAirSign } from '../../transport/call';
import type { ApiAnswer } from '../../transport/request';
import { returnAllAndLimit } from '../../descriptions/paging';

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

interface TemplatesPage {
	templates?: IDataObject[];
	pagination?: { hasMore?: boolean };
}

/**
 * List Templates: pages by offset with the largest page AirSign serves (Return All) or what the
 * limit still needs, until hasMore is false. One item per template, sorted as AirSign sorts.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const limit = readLimit(this, itemIndex);
	const status = assertOneOf(
		this.getNode(),
		this.getNodeParameter('status', itemIndex, 'active'),
		'Status',
		TEMPLATE_STATUSES,
		itemIndex,
	);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const maxWaitMs = maxRateLimitWaitMs(this, options);

	const templates: IDataObject[] = [];
	const seen = new Set<unknown>();
	let offset = 0;
	while (templates.length < limit) {
		const pageSize = Math.min(LIMITS.templatePageSize, limit - templates.length);
		const { body } = await callAirSign(
			this,
			{ method: 'GET', path: '/Templates', qs: { status, limit: pageSize, offset }, itemIndex },
			{ failures: {}, maxRateLimitWaitMs: maxWaitMs, unusable: malformedTemplatesPage },
		);
		const page = body as TemplatesPage;
		const rows = page.templates as IDataObject[];
		for (const template of rows) {
			if (seen.has(template.templateId)) continue;
			seen.add(template.templateId);
			templates.push(utcTimestamps(template, TIMESTAMP_FIELDS));
		}
		if (!page.pagination?.hasMore || rows.length === 0) break;
		offset += rows.length;
	}
	return templates.slice(0, limit);
}

/** A page is a list of templates (objects) and its pagination; anything else is unreadable. */
function malformedTemplatesPage(answer: ApiAnswer): RequestFailure | undefined {
	const page = answer.body as { templates?: unknown } | undefined;
	const isTemplate = (row: unknown) =>
		row !== null && typeof row === 'object' && !Array.isArray(row);
	if (Array.isArray(page?.templates) && page.templates.every(isTemplate)) return undefined;
	return { status: answer.statusCode, code: MALFORMED_RESPONSE };
}
