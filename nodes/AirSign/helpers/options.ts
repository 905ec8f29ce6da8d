import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

export const DEFAULT_MAX_RATE_LIMIT_WAIT_S = 60;

export function maxRateLimitWaitMs(ctx: IExecuteFunctions, options: IDataObject): number {
	const executionTimeout = Number(ctx.getWorkflowSettings().executionTimeout ?? -1);
	const seconds = Math.min(
		Math.max(0, Number(options.maxRateLimitWait ?? DEFAULT_MAX_RATE_LIMIT_WAIT_S)),
		executionTimeout > 0 ? executionTimeout : Number.POSITIVE_INFINITY,
	);
	return seconds * 1000;
}
