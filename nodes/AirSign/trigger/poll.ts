import type { IDataObject, INodeExecutionData, IPollFunctions, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { declaredFailureOf } from '../errors/causes';
import { failer } from '../errors/nodeError';
import { LIST_SESSIONS_HOURLY_BUDGET, LISTING_DELAY_MS } from '../helpers/constants';
import { utcIsoFromMs, dateParameterAsUtcIso } from '../helpers/dates';
import { readSessionMatch } from '../helpers/sessionMatch';
import type { Position } from '../transport/keysetPages';
import { PageReader, faultOf, readByKeys } from '../transport/keysetPages';
import { POLL_RETRIES, PollDeadline } from './deadline';
import { eventsOf, readEventSettings } from './events';
import type { Settings } from './start';
import { readPicture, start } from './start';
import { pollUnlessAlreadyPolling } from './pollsInFlight';
import { fetchSample } from './sample';
import type { TriggerState } from './state';
import {
	budgetFrom,
	deliveryKey,
	deliveryTime,
	readState,
	waitingText,
	writeStart,
	writeState,
} from './state';

/** Transient failures in a row before the trigger reports one (and every such run after). */
export const FAILED_POLLS_BEFORE_ERROR = 5;
/** Statuses that no later poll can cure (bad filter, wrong credential or right, wrong Base URL). */
const PERMANENT_FAILURE_STATUSES = [400, 401, 403, 404];
/** A later poll makes at most this many requests; a start may spend the hour's budget. */
const MAX_REQUESTS_PER_POLL = 20;
export const DEFAULT_RESERVE_REQUESTS = 10;

/** One poll of the AirSign Trigger: the items since the last one, or null when there are none. */
export async function pollSessionUpdates(
	this: IPollFunctions,
): Promise<INodeExecutionData[][] | null> {
	// Taken first: n8n's clock for the poll's time budget started before this call.
	const deadline = PollDeadline.of(this);
	const node = this.getNode();
	const fail = failer(node, 0);
	const match = readSessionMatch(this.getNodeParameter('filters', {}) as IDataObject, fail);
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const startFrom = options.startFrom
		? dateParameterAsUtcIso(options.startFrom, 'Start From', this.getTimezone(), fail)
		: undefined;
	const settings: Settings = {
		// Status applies to the new state of each session: List Sessions is asked without it.
		filters: { ...match, status: undefined },
		events: readEventSettings(this, match.status),
		reserve: Number(options.reserveRequests ?? DEFAULT_RESERVE_REQUESTS),
		startFrom,
	};
	if (this.getMode() === 'manual') {
		const sample = await fetchSample(this, settings.filters, settings.events);
		return sample.length ? [this.helpers.returnJsonArray(sample)] : null;
	}
	return await pollUnlessAlreadyPolling(
		`${this.getWorkflow().id}:${node.id}`,
		async () => await poll(this, settings, deadline),
		() =>
			this.logger.warn('AirSign Trigger: the previous poll is still running; this one is skipped'),
	);
}

async function poll(
	ctx: IPollFunctions,
	settings: Settings,
	deadline: PollDeadline | undefined,
): Promise<INodeExecutionData[][] | null> {
	const nodeData = ctx.getWorkflowStaticData('node');
	const globalData = ctx.getWorkflowStaticData('global');
	const nodeName = ctx.getNode().name;
	const saved = readState(nodeData, globalData, nodeName, settings.startFrom);
	const waiting = saved && waitingText(saved, settings.reserve);
	if (saved && waiting) {
		ctx.logger.debug(`${waiting} (poll skipped)`);
		if (!saved.budget!.warned) {
			ctx.logger.warn(waiting);
			writeState(nodeData, { ...saved, budget: { ...saved.budget!, warned: true } });
		}
		return null;
	}

	let budget = saved?.budget;
	const reader = new PageReader(ctx, {
		...POLL_RETRIES,
		maxRequests: saved ? MAX_REQUESTS_PER_POLL : LIST_SESSIONS_HOURLY_BUDGET,
		reserve: settings.reserve,
		deadline,
		onRateLimit: (rateLimit) => (budget = budgetFrom(rateLimit, Date.now()) ?? budget),
	});
	const state = saved ?? (await start(ctx, reader, settings));
	const save = (next: TriggerState) => {
		writeState(nodeData, { ...next, budget });
		if (!saved) writeStart(globalData, nodeName, { ...next, budget });
	};
	if (!saved && !settings.startFrom) {
		save({ ...state, fresh: true });
		return null;
	}

	const { sessions, next, complete, fault } = await readUpdates(ctx, reader, state, settings);
	if (fault && PERMANENT_FAILURE_STATUSES.includes(Number(fault.httpCode))) {
		save(state);
		throw fault;
	}
	if (fault && sessions.length === 0) {
		const failedPolls = (state.failedPolls ?? 0) + 1;
		save({ ...state, failedPolls });
		ctx.logger.warn(`AirSign Trigger: poll interrupted (${fault.message}); continuing next poll`);
		if (failedPolls % FAILED_POLLS_BEFORE_ERROR !== 0) return null;
		throw new NodeOperationError(
			ctx.getNode(),
			`AirSign could not be read for ${failedPolls} polls in a row: ${fault.message}`,
			{ description: fault.description ?? undefined, failure: declaredFailureOf(fault) },
		);
	}

	const items = eventsOf(sessions, state.cursor, next, settings.events);
	// The picture continues only once the updates are read to the end: they come first.
	if (next.picture && complete) await readPicture(ctx, reader, next, settings.filters);
	save(next);
	return items.length ? [ctx.helpers.returnJsonArray(items)] : null;
}

/**
 * The updates at or after the cursor, oldest first, less those already delivered, and the state
 * to keep if (and only if) they are delivered. A fault stops the reading; what was read before
 * it is still delivered and the cursor moves over exactly that.
 */
async function readUpdates(
	ctx: IPollFunctions,
	reader: PageReader,
	state: TriggerState,
	{ filters }: Settings,
) {
	const cursor = Date.parse(state.cursor);
	const delivered = new Set(state.delivered);
	const sessions: IDataObject[] = [];
	const position: Position & { at: number } = { at: cursor, past: state.past, group: state.group };
	let fault: NodeApiError | undefined;
	let complete = false;
	try {
		await readByKeys(reader, filters, ['updatedAt', 'createdAt'], position, (session) => {
			const updatedAt = Date.parse(String(session.updatedAt));
			const key = deliveryKey(session, updatedAt);
			if (updatedAt < cursor || delivered.has(key)) return;
			delivered.add(key);
			sessions.push(session);
		});
		complete = true;
	} catch (error) {
		fault = faultOf(ctx, error);
	}
	// Never past AirSign's clock less the settling time: a session stamped in the future must not
	// hide the updates before it. Read to the end, the cursor goes that far even past the newest
	// update, or a group of 100+ sessions at that instant would be read again by every quiet poll.
	const ceiling =
		reader.serverTime === undefined ? position.at : reader.serverTime - LISTING_DELAY_MS;
	const nextMs = Math.max(cursor, complete ? ceiling : Math.min(position.at, ceiling));
	// Inside an instant the next poll goes on where this one stopped: a group of any size is read
	// once. An instant within the settling time is read again from its start.
	const within = !complete && nextMs === position.at;
	const next: TriggerState = {
		...state,
		cursor: utcIsoFromMs(nextMs),
		past: within ? position.past : undefined,
		group: within ? position.group : undefined,
		delivered: [...delivered].filter((key) => deliveryTime(key) >= nextMs),
		failedPolls: 0,
		fresh: undefined,
	};
	return { sessions, next, complete, fault };
}
