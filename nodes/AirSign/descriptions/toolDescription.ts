import type { INodeProperties } from 'n8n-workflow';

import { LIST_SESSIONS_HOURLY_BUDGET, MAX_PAGE_SIZE } from '../helpers/constants';

/** What one call costs, in the words of every agent text. */
export const ONE_REQUEST_COST = 'costs 1 request of the hourly AirSign budget';

/** A page of sessions comes out of List Sessions' own, smaller budget. */
export const LIST_SESSIONS_PAGE_COST = `each page of up to ${MAX_PAGE_SIZE} costs 1 of the ${LIST_SESSIONS_HOURLY_BUDGET} List Sessions requests an hour, shared by every workflow`;

/** Said of every operation that emails the recipients, for an agent that might do it unasked. */
export const EMAILS_PEOPLE = 'emails real people';

/**
 * The tool's "Description" for each operation of a resource: what an AI agent reads before it
 * calls the tool (n8n hands the model this parameter; without it the model would read only the
 * short action, "Send a session in AirSign"). `@tool` keeps it off the action node. A node with
 * this property gets no "Tool Description" pair from n8n, and a tool node saved with n8n's pair
 * ("Set Automatically") loses it at load: it too reads the operation's text.
 */
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
