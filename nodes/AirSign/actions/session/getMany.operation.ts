import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	filtersCollection,
	nameFilter,
	recipientEmailFilter,
	statusFilter,
} from '../../descriptions/sessionFilters';
import { maxRateLimitWaitOption, optionsCollection } from '../../descriptions/options';
import {
	MAX_PAGE_SIZE,
	SESSION_SORT_FIELDS,
	SORT_ORDERS,
	listSessionsLimitText,
} from '../../helpers/constants';
import { dateParameterAsUtcIso } from '../../helpers/dates';
import { maxRateLimitWaitMs } from '../../helpers/options';
import { readSessionMatch } from '../../helpers/sessionMatch';
import { assertOneOf, readLimit } from '../../helpers/validation';
import { READ_TRANSIENT_RETRIES } from '../../transport/call';
import type { SessionsQuery } from '../../transport/sessionPages';
import { sessionPages } from '../../transport/sessionPages';
import { readByOffset } from '../../transport/offsetPages';
import { returnAllAndLimit } from '../../descriptions/paging';
import { inputError } from '../../errors/inputError';

const DATE_FILTERS = {
	createdAfter: 'Created After',
	createdBefore: 'Created Before',
	updatedAfter: 'Updated After',
	updatedBefore: 'Updated Before',
} as const;

function dateFilter(name: keyof typeof DATE_FILTERS): INodeProperties {
	const [event, side] = DATE_FILTERS[name].toLowerCase().split(' ');
	return {
		displayName: DATE_FILTERS[name],
		name,
		type: 'dateTime',
		default: '',
		description: `Only sessions ${event} ${side} this moment`,
	};
}

const SORT_FIELD_NAMES: Record<(typeof SESSION_SORT_FIELDS)[number], string> = {
	completedDate: 'Completed Date',
	createdAt: 'Created At',
	name: 'Name',
	updatedAt: 'Updated At',
};

const properties: INodeProperties[] = [
	{
		displayName: `${listSessionsLimitText()}. Return All costs one request per ${MAX_PAGE_SIZE} sessions.`,
		name: 'rateLimitNotice',
		type: 'notice',
		default: '',
	},
	...returnAllAndLimit,
	filtersCollection([
		dateFilter('createdAfter'),
		dateFilter('createdBefore'),
		nameFilter,
		recipientEmailFilter,
		statusFilter,
		dateFilter('updatedAfter'),
		dateFilter('updatedBefore'),
	]),
	optionsCollection([
		maxRateLimitWaitOption,
		{
			displayName: 'Sort By',
			name: 'sortBy',
			type: 'options',
			options: SESSION_SORT_FIELDS.map((field) => ({
				name: SORT_FIELD_NAMES[field],
				value: field,
			})),
			default: 'updatedAt',
		},
		{
			displayName: 'Sort Order',
			name: 'sortOrder',
			type: 'options',
			options: SORT_ORDERS.map((order) => ({
				name: order === 'asc' ? 'Ascending' : 'Descending',
				value: order,
			})),
			default: 'desc',
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['session'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const node = this.getNode();
	const limit = readLimit(this, itemIndex);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;

	const query: SessionsQuery = {
		...readSessionMatch(node, filters, itemIndex),
		sortBy: optionalChoice(node, options.sortBy, 'Sort By', SESSION_SORT_FIELDS, itemIndex),
		sortOrder: optionalChoice(node, options.sortOrder, 'Sort Order', SORT_ORDERS, itemIndex),
	};
	for (const [key, label] of Object.entries(DATE_FILTERS) as Array<
		[keyof typeof DATE_FILTERS, string]
	>) {
		const value = filters[key];
		if (value === undefined || value === null || value === '') continue;
		query[key] = dateParameterAsUtcIso(node, value, label, this.getTimezone(), itemIndex);
	}
	assertOrdered(this, query.createdAfter, query.createdBefore, 'Created', itemIndex);
	assertOrdered(this, query.updatedAfter, query.updatedBefore, 'Updated', itemIndex);

	const policy = {
		maxRateLimitWaitMs: maxRateLimitWaitMs(this, options),
		transientRetries: READ_TRANSIENT_RETRIES,
	};
	const { rows } = await readByOffset(sessionPages(this, query, itemIndex, policy), {
		limit,
		pageSize: MAX_PAGE_SIZE,
		idField: 'sessionId',
	});
	return rows;
}

/** A sort option, checked; left out when not set (or blank), so AirSign's default applies. */
function optionalChoice<T extends string>(
	node: INode,
	value: unknown,
	label: string,
	allowed: readonly T[],
	itemIndex: number,
): T | undefined {
	const given = typeof value === 'string' ? value.trim() : value;
	if (given === undefined || given === null || given === '') return undefined;
	return assertOneOf(node, given, label, allowed, itemIndex);
}

function assertOrdered(
	ctx: IExecuteFunctions,
	after: string | undefined,
	before: string | undefined,
	label: string,
	itemIndex: number,
): void {
	if (after !== undefined && before !== undefined && Date.parse(after) >= Date.parse(before)) {
		throw inputError(
			ctx.getNode(),
			`"${label} After" (${after}) is not earlier than "${label} Before" (${before}), so no session could match`,
			{ itemIndex },
		);
	}
}
