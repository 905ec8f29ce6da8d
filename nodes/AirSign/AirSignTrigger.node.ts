import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { AIRSIGN_DESCRIPTION } from './descriptions/nodesPanel';
import {
	filtersCollection,
	nameFilter,
	recipientEmailFilter,
	statusFilter,
} from './descriptions/sessionFilters';
import { EVENTS_SUBTITLE, eventsProperty, recipientStatusFilter } from './trigger/eventOptions';
import { LIST_SESSIONS_HOURLY_BUDGET, listSessionsLimitText } from './helpers/constants';
import { DEFAULT_RESERVE_REQUESTS, pollSessionUpdates } from './trigger/poll';

export class AirSignTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AirSign Trigger',
		name: 'airSignTrigger',
		icon: { light: 'file:airsign.svg', dark: 'file:airsign.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: EVENTS_SUBTITLE,
		// the nodes panel's AirSign entry shows it: the action node's (descriptions/nodesPanel.ts)
		description: AIRSIGN_DESCRIPTION,
		defaults: { name: 'AirSign Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'airSignApi', required: true }],
		properties: [
			{
				displayName: `${listSessionsLimitText()}. A quiet poll costs one request: every minute (n8n's default) spends the whole hour's budget, fine when nothing else of the organisation lists sessions (the trigger then pauses near the end of each hour to keep the reserve); every 2 minutes or slower leaves room for the others.`,
				name: 'budgetNotice',
				type: 'notice',
				default: '',
			},
			eventsProperty,
			filtersCollection([
				nameFilter,
				recipientEmailFilter,
				recipientStatusFilter,
				{
					...statusFilter,
					description:
						'Only events of sessions whose new state is one of these, e.g. Any Change of sessions now In Progress',
				},
			]),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Keep Requests for Other Workflows',
						name: 'reserveRequests',
						type: 'number',
						typeOptions: { minValue: 0, maxValue: LIST_SESSIONS_HOURLY_BUDGET - 1 },
						default: DEFAULT_RESERVE_REQUESTS,
						description:
							'When AirSign reports this many List Sessions requests or fewer left in the hour, the trigger stops reading and continues at the next poll',
					},
					{
						displayName: 'Start From',
						name: 'startFrom',
						type: 'dateTime',
						default: '',
						description:
							'Deliver updates made since this date when the trigger first runs. Empty: start from the moment it is activated.',
					},
				],
			},
		],
	};

	poll = pollSessionUpdates;
}
