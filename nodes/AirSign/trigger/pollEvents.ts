import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { inputError } from '../errors/inputError';
import { MAX_PAGE_SIZE } from '../helpers/constants';
import { isoFromMs } from '../helpers/dates';
import { optionalText } from '../helpers/sessionMatch';
import type { RateLimitState } from '../transport/answerHeaders';
import type { SessionsQuery } from '../transport/sessionPages';
import { fetchSessionsPage } from '../transport/sessionPages';
import type { CollectResult } from './collectUpdates';
import { POLL_RETRY_POLICY } from './collectUpdates';
import type { EventMemory } from './knownStates';
import { PROOF_WINDOW_MS, newMemory, readMemory, sessionKey, storeMemory } from './knownStates';
import type { PollDeadline } from './pollBudget';
import { PollBudgetSpent } from './pollBudget';
import type { DerivedEvent, Previous, TriggerEvent } from './sessionEvents';
import {
	TRIGGER_EVENTS,
	deriveEvents,
	isFinalStatus,
	knownStateOf,
	previousOf,
} from './sessionEvents';
import { catchUpPicture, rememberPicture } from './pictureCache';
import { readStartingPicture } from './startingPicture';
import type { TriggerState } from './triggerState';

/** What a version 2 trigger listens for, and the filters applied to what it emits. */
export interface EventSettings {
	events: Set<TriggerEvent>;
	/** Only items whose session's new status is one of these. */
	statuses?: Set<string>;
	/** Only recipient items whose recipient's new status is one of these (any text). */
	recipientStatuses?: Set<string>;
}

/** The events and filters of a version 2 trigger; undefined for version 1. */
export function readEventSettings(
	ctx: IPollFunctions,
	sessionStatuses: string | undefined,
): EventSettings | undefined {
	if (ctx.getNode().typeVersion < 2) return undefined;
	const chosen = ctx.getNodeParameter('events', []) as unknown;
	const events = (Array.isArray(chosen) ? chosen : [chosen]).map(String);
	if (events.length === 0) {
		throw inputError(ctx.getNode(), '"Events" is empty: choose at least one event', {
			description: `The events are ${TRIGGER_EVENTS.join(', ')}.`,
		});
	}
	const unknown = events.find((event) => !(TRIGGER_EVENTS as readonly string[]).includes(event));
	if (unknown !== undefined) {
		throw inputError(ctx.getNode(), `"Events" has an unknown value: ${unknown}`, {
			description: `The events are ${TRIGGER_EVENTS.join(', ')}.`,
		});
	}
	const filters = ctx.getNodeParameter('filters', {}) as IDataObject;
	const recipientStatuses = (optionalText(filters.recipientStatus) ?? '')
		.split(',')
		.map((status) => status.trim())
		.filter(Boolean);
	return {
		events: new Set(events as TriggerEvent[]),
		statuses: sessionStatuses ? new Set(sessionStatuses.split(',')) : undefined,
		recipientStatuses: recipientStatuses.length ? new Set(recipientStatuses) : undefined,
	};
}

/**
 * The events of the states a poll read, oldest first, and the memory to store with the cursor.
 * Each state is diffed against the one known before it and then becomes the known one; what a
 * filter or an unchosen event leaves out is still remembered, so that the next diff is right.
 */
export function deriveDelivered(
	previous: TriggerState,
	result: CollectResult,
	settings: EventSettings,
	triggerKey: string,
): { items: IDataObject[]; memory: EventMemory } {
	const memory = memoryOf(previous);
	catchUpPicture(triggerKey, memory);
	const cursor = Date.parse(result.state.cursor);
	const context = {
		start: memory.start,
		proofFloor: Date.parse(previous.cursor) - PROOF_WINDOW_MS,
	};
	const items: IDataObject[] = [];
	for (const session of result.sessions) {
		const key = sessionKey(session.sessionId);
		const prior = previousOf(session, memory.known.get(key), context);
		for (const derived of deriveEvents(session, prior, context)) {
			if (wanted(session, derived, settings)) items.push(eventItem(session, derived, prior));
		}
		const updatedAt = Date.parse(String(session.updatedAt));
		memory.known.set(
			key,
			knownStateOf(session, Number.isNaN(updatedAt) ? cursor : Math.max(cursor, updatedAt)),
		);
	}
	return { items, memory };
}

/** The memory a state continues with: its own, or a new one starting at its cursor. */
export function memoryOf(state: TriggerState): EventMemory {
	return readMemory(state.events) ?? newMemory(Date.parse(state.cursor));
}

export function storedMemory(memory: EventMemory, cursor: string): IDataObject {
	return storeMemory(memory, isFinalStatus, Date.parse(cursor));
}

function wanted(session: IDataObject, derived: DerivedEvent, settings: EventSettings): boolean {
	if (!settings.events.has(derived.event)) return false;
	if (settings.statuses && !settings.statuses.has(String(session.status))) return false;
	if (
		derived.event === 'recipientStatusChanged' &&
		settings.recipientStatuses &&
		!settings.recipientStatuses.has(String(derived.recipient?.status))
	)
		return false;
	return true;
}

function eventItem(session: IDataObject, derived: DerivedEvent, prior: Previous): IDataObject {
	const known = prior.kind === 'known' ? prior.state : undefined;
	return {
		...session,
		event: derived.event,
		previousStatus: known ? known.status : null,
		previousStatusSeenAt: known ? isoFromMs(known.seenAt) : null,
		...(derived.recipient && { recipient: derived.recipient }),
	};
}

export interface PictureStep {
	filters: SessionsQuery;
	reserve: number;
	maxRequests: number;
	deadline?: PollDeadline;
	onRateLimit: (rateLimit: RateLimitState) => void;
}

/**
 * Continues the starting picture with what the poll has left of its requests, once the update
 * stream is read to its end (the stream always comes first). Failures stop it until next poll.
 */
export async function continuePicture(
	ctx: IPollFunctions,
	memory: EventMemory,
	cursor: string,
	step: PictureStep & { triggerKey: string },
): Promise<void> {
	if (!memory.picture || step.maxRequests <= 0) return;
	const policy = { ...POLL_RETRY_POLICY, onRateLimit: step.onRateLimit };
	const { deadline } = step;
	const outcome = await readStartingPicture(
		async (query, offset) => {
			const request = () =>
				fetchSessionsPage(ctx, query, { limit: MAX_PAGE_SIZE, offset }, 0, policy);
			if (!deadline) return await request();
			if (!deadline.allowsRequest()) throw new PollBudgetSpent();
			return await deadline.within(request());
		},
		memory,
		step.filters,
		{
			maxRequests: step.maxRequests,
			reserveRequests: step.reserve,
			seenAt: Date.parse(cursor),
			node: ctx.getNode(),
		},
	);
	rememberPicture(step.triggerKey, memory, outcome.added);
	if (!outcome.fault) return;
	if (Number(outcome.fault.httpCode) === 400) {
		// AirSign refuses the picture's query: the trigger goes on without it (see docs/trigger.md).
		memory.picture = undefined;
		ctx.logger.warn(
			`AirSign Trigger: the sessions in flight at the start could not be read (${outcome.fault.message}); sessions first seen later count as unknown before`,
		);
		return;
	}
	ctx.logger.warn(
		`AirSign Trigger: reading the sessions in flight at the start was interrupted (${outcome.fault.message}); continuing next poll`,
	);
}

/** What "Fetch Test Event" reads for the first chosen event: one page of one session. */
const SAMPLE_QUERIES: Record<TriggerEvent, SessionsQuery> = {
	sessionCreated: { sortBy: 'createdAt', sortOrder: 'desc' },
	sessionSent: { status: 'pending,inProgress', sortBy: 'updatedAt', sortOrder: 'desc' },
	recipientStatusChanged: {
		status: 'inProgress,completed',
		sortBy: 'updatedAt',
		sortOrder: 'desc',
	},
	sessionCompleted: { status: 'completed', sortBy: 'completedDate', sortOrder: 'desc' },
	sessionCancelled: { status: 'cancelled', sortBy: 'updatedAt', sortOrder: 'desc' },
	sessionExpired: { status: 'expired', sortBy: 'updatedAt', sortOrder: 'desc' },
	anyChange: { sortBy: 'updatedAt', sortOrder: 'desc' },
};

/**
 * "Fetch Test Event" (version 2): a real session shaped as the first chosen event would deliver
 * it (the newest completed session for Session Completed; for Recipient Status Changed, its
 * first recipient in a session being signed or signed). The previous state is not known to a
 * sample (null). One request; the cursor and the memory are left alone.
 */
export async function fetchEventSample(
	ctx: IPollFunctions,
	filters: SessionsQuery,
	settings: EventSettings,
): Promise<IDataObject[]> {
	const event = TRIGGER_EVENTS.find((candidate) => settings.events.has(candidate)) ?? 'anyChange';
	const sampleQuery = SAMPLE_QUERIES[event];
	const statuses =
		settings.statuses && sampleQuery.status
			? sampleQuery.status.split(',').filter((status) => settings.statuses?.has(status))
			: settings.statuses
				? [...settings.statuses]
				: sampleQuery.status?.split(',');
	const page = await fetchSessionsPage(
		ctx,
		{
			...filters,
			...sampleQuery,
			status: statuses?.length ? statuses.join(',') : sampleQuery.status,
		},
		{ limit: 1, offset: 0 },
		0,
		POLL_RETRY_POLICY,
	);
	const session = page.sessions[0];
	if (!session) return [];
	const base = { ...session, event, previousStatus: null, previousStatusSeenAt: null };
	if (event !== 'recipientStatusChanged') return [base];
	const recipients = Array.isArray(session.recipients) ? (session.recipients as IDataObject[]) : [];
	const recipient =
		recipients.find((r) => settings.recipientStatuses?.has(String(r.status))) ?? recipients[0];
	return recipient
		? [{ ...base, recipient: { ...recipient, previousStatus: null, status: recipient.status } }]
		: [base];
}
