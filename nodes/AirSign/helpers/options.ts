import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/** Default of "Max Wait on Rate Limit", in seconds. */
export const DEFAULT_MAX_RATE_LIMIT_WAIT_S = 60;

/**
 * The longest wait for a 429's Retry-After, from the option "Max Wait on Rate Limit" (in the
 * operation's "Options"), never beyond the workflow's own execution timeout.
 */
export function maxRateLimitWaitMs(ctx: IExecuteFunctions, options: IDataObject): number {
	const executionTimeout = Number(ctx.getWorkflowSettings().executionTimeout ?? -1);
	const seconds = Math.min(
		Math.max(0, Number(options.maxRateLimitWait ?? DEFAULT_MAX_RATE_LIMIT_WAIT_S)),
		executionTimeout > 0 ? executionTimeout : Number.POSITIVE_INFINITY,
	);
	return seconds * 1000;
}
