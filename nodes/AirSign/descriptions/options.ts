import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_MAX_RATE_LIMIT_WAIT_S } from '../helpers/options';

/** "Max Wait on Rate Limit", in every operation's Options. */
export const maxRateLimitWaitOption: INodeProperties = {
	displayName: 'Max Wait on Rate Limit (Seconds)',
	name: 'maxRateLimitWait',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 900 },
	default: DEFAULT_MAX_RATE_LIMIT_WAIT_S,
	description:
		'When AirSign answers "too many requests", wait up to this long for the budget and try again; a longer wait fails with the time the budget resets. 0 never waits.',
};

/** An "Options" collection holding the given options. */
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
