import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { SESSION_STATUSES } from '../../helpers/constants';
import { toUtcIso } from '../../helpers/dates';
import type { SessionsQuery } from '../../transport/listSessions';
import { listSessions } from '../../transport/listSessions';

const statusOptions = SESSION_STATUSES.map((status) => ({
	name: status === 'inProgress' ? 'In Progress' : status.charAt(0).toUpperCase() + status.slice(1),
	value: status,
}));

const properties: INodeProperties[] = [
	{
		displayName:
			'AirSign allows 60 List Sessions requests per hour per organisation, shared by every workflow and trigger. Return All costs one request per 100 sessions.',
		name: 'rateLimitNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Created After',
				name: 'createdAfter',
				type: 'dateTime',
				default: '',
				description: 'Only sessions created after this moment',
			},
			{
				displayName: 'Created Before',
				name: 'createdBefore',
				type: 'dateTime',
				default: '',
				description: 'Only sessions created before this moment',
			},
			{
				displayName: 'Name Contains',
				name: 'name',
				type: 'string',
				default: '',
				description: 'Only sessions whose name contains this text',
			},
			{
				displayName: 'Recipient Email',
				name: 'recipientEmail',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
				description: 'Only sessions that include a recipient with this email',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'multiOptions',
				options: statusOptions,
				default: [],
				description: 'Only sessions in one of these states',
			},
			{
				displayName: 'Updated After',
				name: 'updatedAfter',
				type: 'dateTime',
				default: '',
				description: 'Only sessions updated after this moment',
			},
			{
				displayName: 'Updated Before',
				name: 'updatedBefore',
				type: 'dateTime',
				default: '',
				description: 'Only sessions updated before this moment',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Max Wait on Rate Limit (Seconds)',
				name: 'maxRateLimitWait',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 900 },
				default: 60,
				description:
					'When AirSign answers "too many requests", wait up to this long for the budget and try again; a longer wait fails with the time the budget resets. 0 never waits.',
			},
			{
				displayName: 'Sort By',
				name: 'sortBy',
				type: 'options',
				options: [
					{ name: 'Completed Date', value: 'completedDate' },
					{ name: 'Created At', value: 'createdAt' },
					{ name: 'Name', value: 'name' },
					{ name: 'Updated At', value: 'updatedAt' },
				],
				default: 'updatedAt',
			},
			{
				displayName: 'Sort Order',
				name: 'sortOrder',
				type: 'options',
				options: [
					{ name: 'Ascending', value: 'asc' },
					{ name: 'Descending', value: 'desc' },
				],
				default: 'desc',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['session'], operation: ['getAll'] } },
	properties,
);

const DATE_FILTERS = {
	createdAfter: 'Created After',
	createdBefore: 'Created Before',
	updatedAfter: 'Updated After',
	updatedBefore: 'Updated Before',
} as const;

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const node = this.getNode();
	const returnAll = this.getNodeParameter('returnAll', itemIndex) as boolean;
	const limit = returnAll ? 0 : (this.getNodeParameter('limit', itemIndex) as number);
	if (!returnAll && (!Number.isInteger(limit) || limit < 1)) {
		throw new NodeOperationError(node, `"Limit" must be a whole number of at least 1, not ${limit}`, {
			itemIndex,
		});
	}
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;

	const query: SessionsQuery = {
		name: optionalText(filters.name),
		recipientEmail: optionalText(filters.recipientEmail),
		status: statusFilter(filters.status),
		sortBy: optionalText(options.sortBy),
		sortOrder: optionalText(options.sortOrder),
	};
	const unknownStatus = query.status
		?.split(',')
		.find((status) => !(SESSION_STATUSES as readonly string[]).includes(status));
	if (unknownStatus !== undefined) {
		throw new NodeOperationError(node, `"Status" has an unknown value: ${unknownStatus}`, {
			itemIndex,
			description: `AirSign's session states are ${SESSION_STATUSES.join(', ')}.`,
		});
	}
	if (query.recipientEmail !== undefined && !/^[^\s@]+@[^\s@]+$/.test(query.recipientEmail)) {
		throw new NodeOperationError(node, `"Recipient Email" is not an email address: ${query.recipientEmail}`, {
			itemIndex,
		});
	}
	for (const [key, label] of Object.entries(DATE_FILTERS) as Array<[keyof typeof DATE_FILTERS, string]>) {
		const value = filters[key];
		if (value === undefined || value === null || value === '') continue;
		query[key] = toUtcIso(node, value, label, this.getTimezone(), itemIndex);
	}
	assertOrdered(this, query.createdAfter, query.createdBefore, 'Created', itemIndex);
	assertOrdered(this, query.updatedAfter, query.updatedBefore, 'Updated', itemIndex);

	const maxWaitSeconds = Number(options.maxRateLimitWait ?? 60);
	return await listSessions(
		this,
		query,
		{ returnAll, limit },
		itemIndex,
		{ maxRateLimitWaitMs: Math.max(0, maxWaitSeconds) * 1000, transientRetries: 2 },
	);
}

function optionalText(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The service takes several states as one comma-separated value. */
function statusFilter(value: unknown): string | undefined {
	const statuses = (Array.isArray(value) ? value : String(value ?? '').split(','))
		.map((status) => String(status).trim())
		.filter(Boolean);
	return statuses.length ? statuses.join(',') : undefined;
}

function assertOrdered(
	ctx: IExecuteFunctions,
	after: string | undefined,
	before: string | undefined,
	label: string,
	itemIndex: number,
): void {
	if (after !== undefined && before !== undefined && Date.parse(after) >= Date.parse(before)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`"${label} After" (${after}) is not earlier than "${label} Before" (${before}), so no session could match`,
			{ itemIndex },
		);
	}
}
