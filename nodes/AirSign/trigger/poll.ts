import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { NODE_DEFECT, declaredFailureOf } from '../errors/declaredFailure';
import { LIST_SESSIONS_HOURLY_BUDGET } from '../helpers/constants';
import { isoFromMs, toUtcIso } from '../helpers/dates';
import { readSessionMatch } from '../helpers/sessionMatch';
import type { SessionsQuery } from '../transport/sessionPages';
import { PollDeadline } from './deadline';
import type { EventSettings } from './events';
import {
	FINAL_MEMORY_MS,
	IN_FLIGHT_STATUSES,
	eventItems,
	isFinal,
	knownStateOf,
	readEventSettings,
} from './events';
import { PageReader, Stop, readByKeys } from './pager';
import { pollUnlessAlreadyPolling } from './pollsInFlight';
import { fetchSample } from './sample';
import type { TriggerState } from './state';
import {
	budgetFrom,
	deliveryKey,
	deliveryTime,
	mustWaitForReset,
	readState,
	waitingText,
	withEvents,
	writeStart,
	writeState,
} from './state';

/** Transient failures in a row before the trigger reports one (and every such run after). */
export const FAILED_POLLS_BEFORE_ERROR = 5;
/** Statuses that no later poll can cure (bad filter, wrong credential or right, wrong Base URL). */
const PERMANENT_FAILURE_STATUSES = [400, 401, 403, 404];
/** A later poll makes at most this many requests; a start may spend the hour's budget. */
const MAX_REQUESTS_PER_POLL = 20;
/** The cursor stays this far behind AirSign's clock: an update listed a moment late is read. */
const SETTLE_MS = 2_000;
export const DEFAULT_RESERVE_REQUESTS = 10;

interface Settings {
	/** Name, Recipient Email and (version 1) Status: what List Sessions is asked for. */
	filters: SessionsQuery;
	/** Version 2 (reads every state, to compare them); undefined for version 1. */
	events?: EventSettings;
	reserve: number;
	startFrom?: string;
}

/** One poll of the AirSign Trigger: the items since the last one, or null when there are none. */
export async function pollSessionUpdates(
	ctx: IPollFunctions,
): Promise<INodeExecutionData[][] | null> {
	// Taken first: n8n's clock for the poll's time budget started before this call.
	const deadline = PollDeadline.of(ctx);
	const node = ctx.getNode();
	const match = readSessionMatch(node, ctx.getNodeParameter('filters', {}) as IDataObject, 0);
	const events = node.typeVersion >= 2 ? readEventSettings(ctx, match.status) : undefined;
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const startFrom = options.startFrom
		? toUtcIso(node, options.startFrom, 'Start From', ctx.getTimezone(), 0)
		: undefined;
	const settings: Settings = {
		filters: events ? { ...match, status: undefined } : match,
		events,
		reserve: Number(options.reserveRequests ?? DEFAULT_RESERVE_REQUESTS),
		startFrom,
	};
	if (ctx.getMode() === 'manual') {
		const reader = new PageReader(ctx, { maxRequests: 1, reserve: -1, onRateLimit: () => {} });
		const sample = await fetchSample(ctx, reader, settings.filters, events);
		return sample.length ? [ctx.helpers.returnJsonArray(sample)] : null;
	}
	return await pollUnlessAlreadyPolling(
		`${ctx.getWorkflow().id}:${node.id}`,
		async () => await poll(ctx, settings, deadline),
		() =>
			ctx.logger.warn('AirSign Trigger: the previous poll is still running; this one is skipped'),
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
	const stored = readState(nodeData, globalData, nodeName, settings.startFrom);
	const saved = stored && settings.events ? withEvents(stored) : stored;
	if (saved && mustWaitForReset(saved, settings.reserve)) {
		ctx.logger.debug(`${waitingText(saved, settings.reserve)} (poll skipped)`);
		if (!saved.budget!.warned) {
			ctx.logger.warn(waitingText(saved, settings.reserve));
			writeState(nodeData, { ...saved, budget: { ...saved.budget!, warned: true } });
		}
		return null;
	}

	let budget = saved?.budget;
	const reader = new PageReader(ctx, {
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

	let items: IDataObject[] = sessions;
	if (settings.events) {
		const stand = { start: Date.parse(next.start!), cursor: Date.parse(state.cursor) };
		const seenAt = Date.parse(next.cursor);
		const known = { ...next.known };
		items = sessions.flatMap((session) => {
			const id = String(session.sessionId).toLowerCase();
			const derived = eventItems(session, known[id], stand, settings.events!);
			known[id] = knownStateOf(session, Math.max(seenAt, Date.parse(String(session.updatedAt))));
			return derived;
		});
		// A final state is kept for a day and an hour: long enough that it proves nothing again.
		for (const [id, entry] of Object.entries(known))
			if (isFinal(entry.status) && seenAt - Date.parse(entry.seenAt) > FINAL_MEMORY_MS)
				delete known[id];
		next.known = known;
		// The picture continues only once the updates are read to the end: they come first.
		if (next.picture && complete) await readPicture(ctx, reader, next, settings.filters);
	}
	save(next);
	return items.length ? [ctx.helpers.returnJsonArray(items)] : null;
}

/**
 * Where a trigger starts: "now" on AirSign's clock (its Date header), or Start From. Version 2
 * reads the sessions in flight at the start into its known states in the same poll.
 */
async function start(
	ctx: IPollFunctions,
	reader: PageReader,
	{ filters, events, startFrom }: Settings,
): Promise<TriggerState> {
	if (!events) {
		if (startFrom) return { cursor: startFrom, delivered: [], startFrom };
		// Version 1: the newest page; every session stamped at or after "now" is history.
		const page = await reader.page({ ...filters, sortBy: 'updatedAt', sortOrder: 'desc' });
		const stamped = page.sessions.map((s) => ({ s, at: Date.parse(String(s.updatedAt)) }));
		const now = page.serverTime ?? Math.max(0, ...stamped.map(({ at }) => at));
		const history = stamped.filter(({ at }) => at >= now).map(({ s, at }) => deliveryKey(s, at));
		return { cursor: isoFromMs(now), delivered: history };
	}
	const state: TriggerState = { cursor: '', delivered: [], startFrom, start: startFrom };
	Object.assign(state, { known: {}, picture: {} });
	const fault = await readPicture(ctx, reader, state, filters);
	// Only the first page must answer: it gives the time. The rest may continue later.
	if (state.start === undefined) throw fault;
	state.cursor = state.start;
	return state;
}

/**
 * Reads the sessions in flight at the start (by creation time) into the known states, as they
 * were then: one updated since already changed, and the update stream gives that change. A
 * session the trigger knows keeps what it knows. Returns the fault that stopped it, if one did.
 */
async function readPicture(
	ctx: IPollFunctions,
	reader: PageReader,
	state: TriggerState,
	filters: SessionsQuery,
): Promise<NodeApiError | undefined> {
	const known = (state.known ??= {});
	const picture = state.picture ?? {};
	const position = {
		at: picture.createdAt ? Date.parse(picture.createdAt) : undefined,
		past: picture.past,
	};
	const query = { ...filters, status: IN_FLIGHT_STATUSES.join(','), createdBefore: state.start };
	const take = (session: IDataObject) => {
		const seenAt = reader.serverTime ?? Date.now();
		state.start ??= isoFromMs(seenAt);
		const id = String(session.sessionId).toLowerCase();
		const changedSince = !(Date.parse(String(session.updatedAt)) < Date.parse(state.start));
		if (known[id] || changedSince || !IN_FLIGHT_STATUSES.includes(String(session.status))) return;
		known[id] = knownStateOf(session, seenAt);
	};
	try {
		await readByKeys(reader, query, ['createdAt'], position, take);
		state.start ??= isoFromMs(reader.serverTime ?? Date.now());
		delete state.picture;
	} catch (error) {
		const fault = faultOf(ctx, error);
		state.picture = {
			...(position.at !== undefined && { createdAt: isoFromMs(position.at) }),
			...(position.past && { past: true }),
		};
		if (fault && state.start !== undefined)
			ctx.logger.warn(
				`AirSign Trigger: reading the sessions in flight at the start stopped (${fault.message}); continuing next poll`,
			);
		return fault;
	}
	return undefined;
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
	const position = { at: cursor };
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
	const ceiling = reader.serverTime === undefined ? position.at : reader.serverTime - SETTLE_MS;
	const nextMs = Math.max(cursor, complete ? ceiling : Math.min(position.at, ceiling));
	const next: TriggerState = {
		...state,
		cursor: isoFromMs(nextMs),
		delivered: [...delivered].filter((key) => deliveryTime(key) >= nextMs),
		failedPolls: 0,
		fresh: undefined,
	};
	return { sessions, next, complete, fault };
}

/** A request failure, or nothing when the poll ran out of requests or time; a bug surfaces. */
function faultOf(ctx: IPollFunctions, error: unknown): NodeApiError | undefined {
	if (error instanceof NodeApiError) return error;
	if (error instanceof Stop) return undefined;
	throw new NodeOperationError(ctx.getNode(), error as Error, { failure: NODE_DEFECT });
}
