import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { declaredFailureOf } from '../errors/declaredFailure';
import { MAX_PAGE_SIZE } from '../helpers/constants';
import { isoFromMs, toUtcIso } from '../helpers/dates';
import { readSessionMatch } from '../helpers/sessionMatch';
import type { SessionsQuery } from '../transport/sessionPages';
import { fetchSessionsPage } from '../transport/sessionPages';
import type { RateLimitState } from '../transport/answerHeaders';
import { budgetFrom, mustWaitForReset, waitingText } from './budget';
import { POLL_RETRY_POLICY, collectUpdates } from './collectUpdates';
import { PollDeadline } from './pollBudget';
import { pollUnlessAlreadyPolling } from './pollsInFlight';
import type { EventSettings } from './pollEvents';
import {
	continuePicture,
	deriveDelivered,
	fetchEventSample,
	readEventSettings,
	storedMemory,
} from './pollEvents';
import type { TriggerState } from './triggerState';
import {
	countFailedPoll,
	deliveryKey,
	endFailureStreak,
	readBudget,
	readStartOrigin,
	rememberBudget,
	stateToContinue,
	writeStartOrigin,
	writeState,
} from './triggerState';

/** Transient failures in a row before the trigger reports one as an error (and every such run after). */
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
	// Version 2 filters on the session's new status itself: every state is read, to be diffed.
	const events = readEventSettings(ctx, filters.status);
	const listFilters = events ? { ...filters, status: undefined } : filters;
	if (ctx.getMode() === 'manual') {
		if (!events) return await fetchSample(ctx, filters);
		const sample = await fetchEventSample(ctx, listFilters, events);
		return sample.length ? [ctx.helpers.returnJsonArray(sample)] : null;
	}
	return await pollUnlessAlreadyPolling(
		triggerKey(ctx),
		async () => await readSinceCursor(ctx, listFilters, events),
		() =>
			ctx.logger.warn(
				'AirSign Trigger: the previous poll is still running; this one is skipped (nothing is lost: the next poll reads from where that one ends)',
			),
	);
}

/** This trigger in this n8n: its workflow and node. */
function triggerKey(ctx: IPollFunctions): string {
	return `${ctx.getWorkflow().id}:${ctx.getNode().id}`;
}

async function readSinceCursor(
	ctx: IPollFunctions,
	filters: SessionsQuery,
	events: EventSettings | undefined,
): Promise<INodeExecutionData[][] | null> {
	// Taken first: n8n's clock for the poll's time budget (n8n 2.9+) started before this call.
	const deadline = PollDeadline.of(ctx);
	const staticData = ctx.getWorkflowStaticData('node');
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const reserve = Number(options.reserveRequests ?? DEFAULT_RESERVE_REQUESTS);
	const startFrom = optionalDate(ctx, options.startFrom);
	const origin = readStartOrigin(ctx.getWorkflowStaticData('global'), ctx.getNode().name);
	const state = stateToContinue(staticData, startFrom, origin);

	const budget = readBudget(staticData);
	if (state && mustWaitForReset(budget, reserve, Date.now())) {
		ctx.logger.debug(`${waitingText(budget, reserve)} (poll skipped)`);
		if (!budget.warned) {
			ctx.logger.warn(waitingText(budget, reserve));
			rememberBudget(staticData, { ...budget, warned: true });
		}
		return null;
	}

	// Every answer, a failed one too, tells what is left of the budget: keep the last word.
	let lastRateLimit: { rateLimit: RateLimitState; at: number } | undefined;
	const onRateLimit = (rateLimit: RateLimitState) =>
		(lastRateLimit = { rateLimit, at: Date.now() });
	try {
		return await readUpdates(ctx, staticData, state, {
			filters,
			reserve,
			startFrom,
			onRateLimit,
			deadline,
			events,
		});
	} finally {
		const learned = lastRateLimit && budgetFrom(lastRateLimit.rateLimit, lastRateLimit.at);
		if (learned) rememberBudget(staticData, learned);
	}
}

interface ReadSettings {
	filters: SessionsQuery;
	reserve: number;
	startFrom: string | undefined;
	onRateLimit: (rateLimit: RateLimitState) => void;
	deadline: PollDeadline | undefined;
	/** Version 2: the events to derive; undefined: version 1 (every update as it is). */
	events: EventSettings | undefined;
}

async function readUpdates(
	ctx: IPollFunctions,
	staticData: IDataObject,
	continued: TriggerState | undefined,
	{ filters, reserve, startFrom, onRateLimit, deadline, events }: ReadSettings,
): Promise<INodeExecutionData[][] | null> {
	let state = continued;
	if (!state) {
		state = await startingState(ctx, filters, startFrom, onRateLimit);
		if (startFrom === undefined) {
			// First activation starts from the present: nothing to deliver yet. The start is kept
			// twice: n8n's database-backed scheduler drops the node's static data of this poll.
			writeState(staticData, { ...state, fresh: true });
			writeStartOrigin(ctx.getWorkflowStaticData('global'), ctx.getNode().name, state);
			return null;
		}
	}

	const result = await collectUpdates(ctx, state, filters, {
		reserveRequests: reserve,
		maxRequests: MAX_REQUESTS_PER_POLL,
		settleMs: SETTLE_MS,
		onRateLimit,
		deadline,
	});
	const streakKey = triggerKey(ctx);

	if (result.fault) {
		if (PERMANENT_FAILURE_STATUSES.includes(Number(result.fault.httpCode))) throw result.fault;
		ctx.logger.warn(
			`AirSign Trigger: poll interrupted (${result.fault.message}); continuing next poll`,
		);
		if (result.sessions.length === 0) {
			const failedPolls = countFailedPoll(staticData, streakKey);
			if (failedPolls % FAILED_POLLS_BEFORE_ERROR === 0) {
				throw new NodeOperationError(
					ctx.getNode(),
					`AirSign could not be read for ${failedPolls} polls in a row: ${result.fault.message}`,
					{
						description: result.fault.description ?? undefined,
						// the cause of the last failed poll (temporarily unavailable, rate-limited)
						failure: declaredFailureOf(result.fault),
					},
				);
			}
			return null;
		}
	}

	if (events) {
		// The known states move with the cursor, in the same write: each state is diffed once.
		const { items, memory } = deriveDelivered(state, result, events, streakKey);
		if (result.caughtUp) {
			await continuePicture(ctx, memory, result.state.cursor, {
				filters,
				reserve,
				maxRequests: MAX_REQUESTS_PER_POLL - result.requests,
				deadline,
				onRateLimit,
				triggerKey: streakKey,
			});
		}
		writeState(staticData, {
			...result.state,
			events: storedMemory(memory, result.state.cursor),
		});
		endFailureStreak(streakKey);
		return items.length ? [ctx.helpers.returnJsonArray(items)] : null;
	}

	// The cursor moves only together with the items it moved over.
	writeState(staticData, result.state);
	endFailureStreak(streakKey);
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
		POLL_RETRY_POLICY,
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
	onRateLimit: (rateLimit: RateLimitState) => void,
): Promise<TriggerState> {
	if (startFrom !== undefined) return { cursor: startFrom, delivered: [], startFrom };
	// One page of the newest sessions: its Date header gives "now", and every session in
	// it stamped at or after that instant is history that must not come back later.
	const page = await fetchSessionsPage(
		ctx,
		{ ...filters, sortBy: 'updatedAt', sortOrder: 'desc' },
		{ limit: MAX_PAGE_SIZE, offset: 0 },
		0,
		{ ...POLL_RETRY_POLICY, onRateLimit },
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
