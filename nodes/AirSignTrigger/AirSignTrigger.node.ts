import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../AirSign/helpers/constants';
import {
	nameFilter,
	readSessionMatch,
	recipientEmailFilter,
	statusFilter,
} from '../AirSign/helpers/sessionFilters';
import { toUtcIso } from '../AirSign/helpers/dates';
import type { SessionsQuery } from '../AirSign/transport/listSessions';
import { fetchSessionsPage } from '../AirSign/transport/listSessions';
import { collectUpdates } from './collectUpdates';
import type { TriggerState } from './triggerState';
import { deliveryKey, readState, writeState } from './triggerState';

/** Transient failures in a row before the trigger reports one as an error. */
const FAILED_POLLS_BEFORE_ERROR = 5;
const MAX_REQUESTS_PER_POLL = 20;
const SETTLE_MS = 2_000;

export class AirSignTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AirSign Trigger',
		name: 'airSignTrigger',
		icon: { light: 'file:airsign.svg', dark: 'file:airsign.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ "Session Updated" }}',
		description: 'Starts the workflow when an AirSign signing session changes',
		defaults: { name: 'AirSign Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'airSignApi', required: true }],
		properties: [
			{
				displayName:
					'AirSign allows 60 List Sessions requests per hour per organisation, shared by every workflow. A quiet poll costs one request: polling every 2 minutes or slower leaves room for the others.',
				name: 'budgetNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				options: [
					{
						name: 'Session Updated',
						value: 'sessionUpdated',
						description: 'A session was created, sent, signed, completed, cancelled, expired or edited',
					},
				],
				default: 'sessionUpdated',
			},
			{
				displayName: 'Filters',
				name: 'filters',
				type: 'collection',
				placeholder: 'Add Filter',
				default: {},
				options: [
					nameFilter,
					recipientEmailFilter,
					{
						...statusFilter,
						description: 'Only sessions whose new state is one of these, e.g. only Completed',
					},
				],
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Keep Requests for Other Workflows',
						name: 'reserveRequests',
						type: 'number',
						typeOptions: { minValue: 0, maxValue: 59 },
						default: 10,
						description:
							'When AirSign reports this many List Sessions requests or fewer left in the hour, the trigger stops reading and continues at the next poll',
					},
					{
						displayName: 'Start From',
						name: 'startFrom',
						type: 'dateTime',
						default: '',
						description:
							'Deliver updates made since this date when the trigger first runs. Empty: start from the moment it is activated.',
					},
				],
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const filters = readFilters(this);
		if (this.getMode() === 'manual') {
			return await fetchSample(this, filters);
		}

		const staticData = this.getWorkflowStaticData('node');
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const startFrom = optionalDate(this, options.startFrom);
		let state = readState(staticData);
		if (state && startFrom === undefined && state.startFrom !== undefined) {
			// "Start From" was cleared: carry on from where the trigger is, skipping nothing.
			state = { ...state, startFrom: undefined };
		}
		if (!state || state.startFrom !== startFrom) {
			state = await startingState(this, filters, startFrom);
			if (startFrom === undefined) {
				// First activation starts from the present: nothing to deliver yet.
				writeState(staticData, state);
				return null;
			}
		}

		const result = await collectUpdates(this, state, filters, {
			reserveRequests: Number(options.reserveRequests ?? 10),
			maxRequests: MAX_REQUESTS_PER_POLL,
			settleMs: SETTLE_MS,
		});

		if (result.fault) {
			const httpCode = Number(result.fault.httpCode);
			// Wrong credential, missing right, bad filter: the user must see it now.
			if ([400, 401, 403, 404].includes(httpCode)) throw result.fault;
			const failedPolls = (state.failedPolls ?? 0) + 1;
			this.logger.warn(`AirSign Trigger: poll interrupted (${result.fault.message}); continuing next poll`);
			if (result.sessions.length === 0) {
				staticData.failedPolls = failedPolls % FAILED_POLLS_BEFORE_ERROR;
				if (failedPolls >= FAILED_POLLS_BEFORE_ERROR) {
					throw new NodeOperationError(
						this.getNode(),
						`AirSign could not be read for ${failedPolls} polls in a row: ${result.fault.message}`,
						{ description: result.fault.description ?? undefined },
					);
				}
				return null;
			}
		}

		// The cursor moves only together with the items it moved over.
		writeState(staticData, result.state);
		return result.sessions.length ? [this.helpers.returnJsonArray(result.sessions)] : null;
	}
}

function readFilters(ctx: IPollFunctions): SessionsQuery {
	return readSessionMatch(ctx.getNode(), ctx.getNodeParameter('filters', {}) as IDataObject, 0);
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
	if (startFrom !== undefined) {
		return { cursor: startFrom, delivered: [], startFrom, failedPolls: 0 };
	}
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
		cursor: new Date(cursorMs).toISOString(),
		delivered: stamped
			.filter(({ updatedAtMs }) => updatedAtMs >= cursorMs - 1)
			.map(({ session, updatedAtMs }) => deliveryKey(session, updatedAtMs)),
		failedPolls: 0,
	};
}
