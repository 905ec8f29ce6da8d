import type { INodeProperties } from 'n8n-workflow';

import { SESSION_STATUSES, statusInWords } from '../helpers/constants';

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

export const statusFilter: INodeProperties = {
	displayName: 'Status',
	name: 'status',
	type: 'multiOptions',
	// n8n's option names are in title case: "In Progress"
	options: SESSION_STATUSES.map((value) => ({
		name: statusInWords(value).replace(/\b[a-z]/g, (letter) => letter.toUpperCase()),
		value,
	})),
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
