import type { INodeProperties } from 'n8n-workflow';

import { SESSION_STATUSES } from '../helpers/constants';

export const nameFilter: INodeProperties = {
	displayName: 'Name Contains',
	name: 'name',
	type: 'string',
	default: '',
	description: 'Only sessions whose name contains this text',
};

export const recipientEmailFilter: INodeProperties = {
	displayName: 'Recipient Email',
	name: 'recipientEmail',
	type: 'string',
	placeholder: 'e.g. nathan@example.com',
	default: '',
	description: 'Only sessions that include a recipient with this email',
};

/** Each session state in words, as the Status filter shows it ("In Progress"). */
export const STATUS_LABELS = new Map<string, string>(
	SESSION_STATUSES.map((status) => [
		status,
		status === 'inProgress' ? 'In Progress' : status.charAt(0).toUpperCase() + status.slice(1),
	]),
);

export const statusFilter: INodeProperties = {
	displayName: 'Status',
	name: 'status',
	type: 'multiOptions',
	options: [...STATUS_LABELS].map(([value, name]) => ({ name, value })),
	default: [],
	description: 'Only sessions in one of these states',
};

export function filtersCollection(filters: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: filters,
	};
}
