import type { IDataObject, IPollFunctions, NodeApiError } from 'n8n-workflow';

import { utcIsoFromMs } from '../helpers/dates';
import type { PageReader } from '../transport/keysetPages';
import { faultOf, readByKeys } from '../transport/keysetPages';
import type { SessionsQuery } from '../transport/sessionPages';
import { IN_FLIGHT_STATUSES, knownStateOf } from './events';
import type { EventSettings } from './events';
import type { TriggerState } from './state';

export interface Settings {
	/** Name and Recipient Email: what List Sessions is asked for. */
	filters: SessionsQuery;
	events: EventSettings;
	reserve: number;
	startFrom?: string;
}

/**
 * Where a trigger starts: "now" on AirSign's clock (its Date header), or Start From. It reads the
 * sessions in flight at the start into its known states in the same poll.
 */
export async function start(
	ctx: IPollFunctions,
	reader: PageReader,
	{ filters, startFrom }: Settings,
): Promise<TriggerState> {
	const state: TriggerState = { cursor: '', delivered: [], startFrom, start: startFrom };
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
export async function readPicture(
	ctx: IPollFunctions,
	reader: PageReader,
	state: TriggerState,
	filters: SessionsQuery,
): Promise<NodeApiError | undefined> {
	const known = (state.known ??= {});
	const position = state.picture ?? {};
	const query = { ...filters, status: IN_FLIGHT_STATUSES.join(','), createdBefore: state.start };
	const take = (session: IDataObject) => {
		const seenAt = reader.serverTime ?? Date.now();
		state.start ??= utcIsoFromMs(seenAt);
		const id = String(session.sessionId).toLowerCase();
		const changedSince = !(Date.parse(String(session.updatedAt)) < Date.parse(state.start));
		if (known[id] || changedSince || !IN_FLIGHT_STATUSES.includes(String(session.status))) return;
		known[id] = knownStateOf(session, seenAt);
	};
	try {
		await readByKeys(reader, query, ['createdAt'], position, take);
		state.start ??= utcIsoFromMs(reader.serverTime ?? Date.now());
		delete state.picture;
	} catch (error) {
		const fault = faultOf(ctx, error);
		state.picture = position;
		if (fault && state.start !== undefined)
			ctx.logger.warn(
				`AirSign Trigger: reading the sessions in flight at the start stopped (${fault.message}); continuing next poll`,
			);
		return fault;
	}
	return undefined;
}
