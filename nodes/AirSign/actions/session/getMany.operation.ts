import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	maxRateLimitWaitMs,
	maxRateLimitWaitOption,
	optionsCollection,
	readLimit,
	returnAllAndLimit,
} from '../../descriptions/options';
import {
	filtersCollection,
	nameFilter,
	recipientEmailFilter,
	statusFilter,
} from '../../descriptions/sessionFilters';
import { failer } from '../../errors/nodeError';
import {
	listSessionsLimitText,
	MAX_PAGE_SIZE,
	SESSION_SORT_FIELDS,
	SORT_ORDERS,
} from '../../helpers/constants';
import { dateParameterAsUtcIso } from '../../helpers/dates';
import { readSessionMatch } from '../../helpers/sessionMatch';
import { assertOneOf } from '../../helpers/validation';
import { readByOffset } from '../../transport/offsetPages';
import type { SessionsQuery } from '../../transport/sessionPages';
import { readAllSessions } from '../../transport/allSessions';
import { sessionPages } from '../../transport/sessionPages';
import type { ShapeName } from '../shapes';

const DATE_FILTERS = {
	createdAfter: 'Created After',
	createdBefore: 'Created Before',
	updatedAfter: 'Updated After',
	updatedBefore: 'Updated Before',
} as const;
type DateFilter = keyof typeof DATE_FILTERS;

function dateFilter(name: DateFilter): INodeProperties {
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

const sortFields: INodeProperties[] = [
	{
		displayName: 'Sort By',
		name: 'sortBy',
		type: 'options',
		options: SESSION_SORT_FIELDS.map((field) => ({ name: SORT_FIELD_NAMES[field], value: field })),
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
];

export const description: INodeProperties[] = [
	{
		displayName: `${listSessionsLimitText()}. Return All costs one request up to ${MAX_PAGE_SIZE} sessions; over ${MAX_PAGE_SIZE}, one per ${MAX_PAGE_SIZE - 1} (each page asks again for the last session read) and one more (what changed while it read).`,
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
	optionsCollection([maxRateLimitWaitOption]),
	// Sorting in a collection of its own (n8n's guidelines).
	{
		displayName: 'Sort',
		name: 'sort',
		type: 'collection',
		placeholder: 'Add Sort Rule',
		default: {},
		options: sortFields,
	},
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const fail = failer(this.getNode(), itemIndex);
	const returnAll = this.getNodeParameter('returnAll', itemIndex);
	const limit = readLimit(returnAll, () => this.getNodeParameter('limit', itemIndex), fail);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const sort = this.getNodeParameter('sort', itemIndex, {}) as IDataObject;
	// A sort option not set (or blank) is left out, so AirSign's default applies.
	const choice = <T extends string>(value: unknown, label: string, allowed: readonly T[]) => {
		const given = typeof value === 'string' ? value.trim() : value;
		if (given === undefined || given === null || given === '') return undefined;
		return assertOneOf(given, label, allowed, fail);
	};
	const query: SessionsQuery = {
		...readSessionMatch(filters, fail),
		sortBy: choice(sort.sortBy, "'Sort By'", SESSION_SORT_FIELDS),
		sortOrder: choice(sort.sortOrder, "'Sort Order'", SORT_ORDERS),
	};
	for (const [key, label] of Object.entries(DATE_FILTERS) as Array<[DateFilter, string]>) {
		const value = filters[key];
		if (value === undefined || value === null || value === '') continue;
		query[key] = dateParameterAsUtcIso(value, label, this.getTimezone(), fail);
	}
	for (const event of ['Created', 'Updated']) {
		const after = query[`${event.toLowerCase()}After` as DateFilter];
		const before = query[`${event.toLowerCase()}Before` as DateFilter];
		if (after !== undefined && before !== undefined && Date.parse(after) >= Date.parse(before))
			throw fail(
				`'${event} After' (${after}) is not earlier than '${event} Before' (${before}), so no session could match`,
			);
	}

	const policy = { maxRateLimitWaitMs: maxRateLimitWaitMs(this, options) };
	if (returnAll) return await readAllSessions(this, query, itemIndex, policy);
	const { rows } = await readByOffset(sessionPages(this, query, itemIndex, policy), {
		limit,
		pageSize: MAX_PAGE_SIZE,
		idField: 'sessionId',
	});
	return rows;
}

/** Its items are sessions: Simplify and a tool's Output apply (actions/shapes.ts). */
export const output: ShapeName = 'session';
