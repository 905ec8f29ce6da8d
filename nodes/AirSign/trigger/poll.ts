import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../helpers/constants';
import { isoFromMs, toUtcIso } from '../helpers/dates';
import { readSessionMatch } from '../helpers/sessionMatch';
import type { SessionsQuery } from '../transport/sessionPages';
import { fetchSessionsPage } from '../transport/sessionPages';
import { collectUpdates } from './collectUpdates';
import type { TriggerState } from './triggerState';
import { countFailedPoll, deliveryKey, stateToContinue, writeState } from './triggerState';

/** Transient failures in a row before the trigger reports one as an error. */
export const FAILED_POLLS_BEFORE_ERROR = 5;
/** Statuses that no later poll can cure (bad filter, wrong credential or right, wrong Base URL). */
export const PERMANENT_FAILURE_STATUSES = [400, 401, 403, 404];
const MAX_REQUESTS_PER_POLL = 20;
const SETTLE_MS = 2_000;
export const DEFAULT_RESERVE_REQUESTS = 10;

/** One poll of the AirSign Trigger: the updates since the last one, or null when there are none. */
export async function pollSessionUpdates(
	ctx: IPollFunctions,
): Promise<INodeExecutionData[][] | null> {
	const filters = readSessionMatch(
		ctx.getNode(),
		ctx.getNodeParameter('filters', {}) as IDataObject,
		0,
	);
	if (ctx.getMode() === 'manual') return await fetchSample(ctx, filters);

	const staticData = ctx.getWorkflowStaticData('node');
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const startFrom = optionalDate(ctx, options.startFrom);
	let state = stateToContinue(staticData, startFrom);
	if (!state) {
		state = await startingState(ctx, filters, startFrom);
		if (startFrom === undefined) {
			// First activation starts from the present: nothing to deliver yet.
			writeState(staticData, state);
			return null;
		}
	}

	const result = await collectUpdates(ctx, state, filters, {
		reserveRequests: Number(options.reserveRequests ?? DEFAULT_RESERVE_REQUESTS),
		maxRequests: MAX_REQUESTS_PER_POLL,
		settleMs: SETTLE_MS,
	});

	if (result.fault) {
		if (PERMANENT_FAILURE_STATUSES.includes(Number(result.fault.httpCode))) throw result.fault;
		ctx.logger.warn(
			`AirSign Trigger: poll interrupted (${result.fault.message}); continuing next poll`,
		);
		if (result.sessions.length === 0) {
			const failedPolls = countFailedPoll(staticData, FAILED_POLLS_BEFORE_ERROR);
			if (failedPolls >= FAILED_POLLS_BEFORE_ERROR) {
				throw new NodeOperationError(
					ctx.getNode(),
					`AirSign could not be read for ${failedPolls} polls in a row: ${result.fault.message}`,
					{ description: result.fault.description ?? undefined },
				);
			}
			return null;
		}
	}

	// The cursor moves only together with the items it moved over.
	writeState(staticData, result.state);
	return result.sessions.length ? [ctx.helpers.returnJsonArray(result.sessions)] : null;
}

function optionalDate(ctx: IPollFunctions, value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	return toUtcIso(ctx.getNode(), value, 'Start From', ctx.getTimezone(), 0);
}

/** "Fetch Test Event": the most recently updated matching session; the cursor is left alone. */
async function fetchSample(
	ctx: IPollFunctions,
	filters: SessionsQuery,
): Promise<INodeExecutionData[][] | null> {
	const page = await fetchSessionsPage(
		ctx,
		{ ...filters, sortBy: 'updatedAt', sortOrder: 'desc' },
		{ limit: 1, offset: 0 },
		0,
		{ maxRateLimitWaitMs: 0, transientRetries: 1 },
	);
	return page.sessions.length ? [ctx.helpers.returnJsonArray(page.sessions)] : null;
}

/**
 * Where a new trigger starts: "now" on the service's clock (its Date header, or
 * the newest update it lists), or the user's "Start From".
 */
async function startingState(
	ctx: IPollFunctions,
	filters: SessionsQuery,
	startFrom: string | undefined,
): Promise<TriggerState> {
	if (startFrom !== undefined) return { cursor: startFrom, delivered: [], startFrom };
	// One page of the newest sessions: its Date header gives "now", and every session in
	// it stamped at or after that instant is history that must not come back later.
	const page = await fetchSessionsPage(
		ctx,
		{ ...filters, sortBy: 'updatedAt', sortOrder: 'desc' },
		{ limit: MAX_PAGE_SIZE, offset: 0 },
		0,
		{ maxRateLimitWaitMs: 0, transientRetries: 1 },
	);
	const stamped = page.sessions
		.map((session) => ({ session, updatedAtMs: Date.parse(String(session.updatedAt)) }))
		.filter(({ updatedAtMs }) => !Number.isNaN(updatedAtMs));
	// The service's clock wins: a session stamped in the future must not put the cursor
	// there, or every update until that time would be skipped. The newest update only
	// stands in when no Date header came.
	const cursorMs = page.serverTime ?? (stamped.length ? stamped[0].updatedAtMs : 0);
	return {
		cursor: isoFromMs(cursorMs),
		delivered: stamped
			.filter(({ updatedAtMs }) => updatedAtMs >= cursorMs - 1)
			.map(({ session, updatedAtMs }) => deliveryKey(session, updatedAtMs)),
	};
}
