import type { INodeProperties } from 'n8n-workflow';

import { LIST_SESSIONS_HOURLY_BUDGET, MAX_PAGE_SIZE } from '../helpers/constants';

export const ONE_REQUEST_COST = 'costs 1 request of the hourly AirSign budget';

export const LIST_SESSIONS_PAGE_COST = `each page of up to ${MAX_PAGE_SIZE} costs 1 of the ${LIST_SESSIONS_HOURLY_BUDGET} List Sessions requests an hour, shared by every workflow`;

export const EMAILS_PEOPLE = 'emails real people';

// What an AI agent reads before it calls the tool; "@tool" keeps it off the action node, and with
// this property n8n adds no "Tool Description" pair of its own.
export function toolDescriptions(
	resource: string,
	agentTexts: Record<string, string>,
): INodeProperties[] {
	return Object.entries(agentTexts).map(([operation, text]) => ({
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: text,
		description:
			'What the AI agent reads about this tool before it calls it: what it does, what it costs and whom it emails. Keep those facts if you change it.',
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
	}));
}
