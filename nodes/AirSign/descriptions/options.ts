import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { Fail } from '../errors/nodeError';
import { DEFAULT_ITEMS_AT_ONCE, FIRST_WAVE, MAX_ITEMS_AT_ONCE } from '../helpers/constants';
import { shownValue } from '../helpers/validation';

const DEFAULT_MAX_RATE_LIMIT_WAIT_S = 60;

export const maxRateLimitWaitOption: INodeProperties = {
	displayName: 'Max Wait on Rate Limit (Seconds)',
	name: 'maxRateLimitWait',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 900 },
	default: DEFAULT_MAX_RATE_LIMIT_WAIT_S,
	description:
		'When AirSign answers "too many requests", wait up to this long for the budget and try again; a longer wait fails with the time the budget resets. 0 never waits.',
};

// Its presence in a page's Options is what lets the router run that page's items at once.
export const itemsAtOnceOption: INodeProperties = {
	displayName: 'Items at Once',
	name: 'itemsAtOnce',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_ITEMS_AT_ONCE },
	default: DEFAULT_ITEMS_AT_ONCE,
	description: `The most items to run at the same time (1 to ${MAX_ITEMS_AT_ONCE}, the default; 1 runs them one after another). Below it, AirSign's budget sets the pace: the node sends up to ${FIRST_WAVE} requests (half the items of a run of more than ${2 * FIRST_WAVE}) before AirSign's first answer, then never has more under way than AirSign says are left of its budget, and sends none while it says none are left (it waits for the reset, up to Max Wait on Rate Limit). When AirSign answers "too many requests", every item waits, and where AirSign states no budget the node then keeps half as many under way, one more after each success. The output keeps the input order. Without Continue On Fail, a failure stops new items, but those already sent still reach AirSign.`,
};

/** The options of an operation that makes one request per item, so its items may run at once. */
export const itemOptions = [maxRateLimitWaitOption, itemsAtOnceOption];

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

/** Never beyond the workflow's own execution timeout. */
export function maxRateLimitWaitMs(ctx: IExecuteFunctions, options: IDataObject): number {
	const executionTimeout = Number(ctx.getWorkflowSettings().executionTimeout ?? -1);
	const seconds = Math.min(
		Math.max(0, Number(options.maxRateLimitWait ?? DEFAULT_MAX_RATE_LIMIT_WAIT_S)),
		executionTimeout > 0 ? executionTimeout : Number.POSITIVE_INFINITY,
	);
	return seconds * 1000;
}

export const returnAllAndLimit: INodeProperties[] = [
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
];

/**
 * How many rows a Get Many returns (Infinity: all). `limit` is read only without Return All: n8n
 * leaves a hidden field out of the parameters, so reading it would throw.
 */
export function readLimit(returnAll: unknown, limit: () => unknown, fail: Fail): number {
	if (returnAll as boolean) return Number.POSITIVE_INFINITY;
	const given = limit() as number;
	if (!Number.isInteger(given) || given < 1)
		throw fail(`'Limit' must be a whole number of at least 1, not ${shownValue(given)}`);
	return given;
}
