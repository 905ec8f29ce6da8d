import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_ITEMS_AT_ONCE, MAX_ITEMS_AT_ONCE } from '../helpers/constants';
import { DEFAULT_MAX_RATE_LIMIT_WAIT_S } from '../helpers/options';

export const maxRateLimitWaitOption: INodeProperties = {
	displayName: 'Max Wait on Rate Limit (Seconds)',
	name: 'maxRateLimitWait',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 900 },
	default: DEFAULT_MAX_RATE_LIMIT_WAIT_S,
	description:
		'When AirSign answers "too many requests", wait up to this long for the budget and try again; a longer wait fails with the time the budget resets. 0 never waits.',
};

export const itemsAtOnceOption: INodeProperties = {
	displayName: 'Items at Once',
	name: 'itemsAtOnce',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_ITEMS_AT_ONCE },
	default: DEFAULT_ITEMS_AT_ONCE,
	description: `The most items to run at the same time (1 to ${MAX_ITEMS_AT_ONCE}; 1 runs them one after another). The node never has more requests under way than AirSign says are left of its budget, sends none while it says none are left (it waits for the reset, up to Max Wait on Rate Limit), and when AirSign answers "too many requests" every item waits. The output keeps the input order. Without Continue On Fail, a failure stops new items, but those already sent still reach AirSign.`,
};

export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}
