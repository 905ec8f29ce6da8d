import {
	createPollingHarness,
	createTestEnvironment,
	type PollHooks,
	type PollingHarness,
	type PollResult,
} from '../../harness';

import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { expect, vi } from 'vitest';

import { AirSignApi } from '../../../credentials/AirSignApi.credentials';
import { AirSignTrigger } from '../../../nodes/AirSign/AirSignTrigger.node';
import { TRIGGER_EVENTS } from '../../../nodes/AirSign/trigger/eventOptions';
import { seededRandom, type Sandbox, type Session } from '../../../sandbox';

/** A fixed, whole-second instant far from real time, so "server clock" mistakes show. */
export const T0 = Date.parse('2030-03-04T05:06:07.000Z');

export interface TriggerOptions {
	filters?: IDataObject;
	options?: IDataObject;
	mode?: 'trigger' | 'manual';
	/** Credential data; default: the demo organisation's never-expiring token. */
	credential?: IDataObject;
	staticData?: IDataObject;
	/**
	 * Default: Any Change alone, one item per state read (what the tests written before the
	 * other events check); `readyTrigger` defaults to every event.
	 */
	events?: string[];
	/** How n8n's poll engine builds each poll's context (default: the legacy engine's). */
	pollHooks?: Parameters<typeof createPollingHarness>[0]['pollHooks'];
	/** The node type (default: this package's AirSignTrigger as first loaded). */
	nodeType?: AirSignTrigger;
}

/** Every event of the trigger, from the node's own list. */
export const ALL_EVENTS = TRIGGER_EVENTS;

let workflows = 0;

/**
 * One active workflow whose only node is the AirSign Trigger, against the sandbox. Each gets its
 * own workflow id, as in n8n: the trigger remembers failure streaks per workflow and node.
 */
export function newTrigger(sandbox: Sandbox, options: TriggerOptions = {}): PollingHarness {
	const env = createTestEnvironment({ credentialTypes: [new AirSignApi()] });
	return createPollingHarness({
		env,
		nodeType: options.nodeType ?? new AirSignTrigger(),
		mode: options.mode,
		parameters: {
			events: options.events ?? ['anyChange'],
			filters: (options.filters ?? {}) as INodeParameters,
			options: (options.options ?? {}) as INodeParameters,
		},
		credentials: {
			airSignApi: (options.credential ?? {
				authentication: 'accessToken',
				accessToken: sandbox.demo.accessToken,
				baseUrl: sandbox.baseUrl,
			}) as never,
		},
		staticData: options.staticData,
		pollHooks: options.pollHooks,
		workflowId: `airsign-test-wf-${++workflows}`,
	});
}

export type { PollHooks };

/** List Sessions requests the sandbox received (fault answers included). */
export const listRequests = (sandbox: Sandbox) =>
	sandbox.requests.filter((r) => r.path === '/api/v1/Sessions');

export const key = (sessionId: unknown, updatedAt: unknown) =>
	`${String(sessionId)}@${Date.parse(String(updatedAt))}`;

/**
 * Everything a trigger delivered, across polls: which (session, updatedAt) pairs, how
 * many times, and in what order.
 */
export class Ledger {
	readonly counts = new Map<string, number>();
	readonly items: IDataObject[] = [];
	polls = 0;
	errors: Error[] = [];

	record(result: PollResult): IDataObject[] {
		this.polls++;
		if (result.error) this.errors.push(result.error);
		const json = result.items.map((item) => item.json);
		for (const session of json) {
			const k = key(session.sessionId, session.updatedAt);
			this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
			this.items.push(session);
		}
		return json;
	}

	/** Pairs delivered more than once. */
	repeated(): string[] {
		return [...this.counts].filter(([, n]) => n > 1).map(([k]) => k);
	}

	/** Sessions whose current (sessionId, updatedAt) was never delivered. */
	lost(sessions: Session[]): Session[] {
		return sessions.filter((s) => !this.counts.has(key(s.sessionId, s.updatedAt)));
	}

	get delivered(): number {
		return this.items.length;
	}
}

/** Polls, records, and advances the sandbox clock past the trigger's settle window. */
export async function pollAndRecord(
	sandbox: Sandbox,
	trigger: PollingHarness,
	ledger: Ledger,
	advanceMs = 5_000,
): Promise<IDataObject[]> {
	const result = await trigger.poll();
	const items = ledger.record(result);
	sandbox.clock.advance(advanceMs);
	return items;
}

/**
 * Polls until a poll is quiet: delivers nothing, ends without error and costs exactly
 * one request (at most `max` polls).
 */
export async function drain(
	sandbox: Sandbox,
	trigger: PollingHarness,
	ledger: Ledger,
	max = 50,
): Promise<number> {
	for (let i = 1; i <= max; i++) {
		const before = listRequests(sandbox).length;
		const result = await trigger.poll();
		ledger.record(result);
		sandbox.clock.advance(5_000);
		const cost = listRequests(sandbox).length - before;
		if (!result.error && result.items.length === 0 && cost === 1) return i;
	}
	throw new Error(`still delivering after ${max} polls`);
}

/** Sessions of the demo organisation as the sandbox holds them now. */
export const demoSessions = (sandbox: Sandbox) =>
	sandbox.listAllSessions().filter((s) => s.orgId === sandbox.demo.orgId);

/** Creates `n` sessions with the given times (default: now), returns them in creation order. */
export function createMany(
	sandbox: Sandbox,
	n: number,
	input: Parameters<Sandbox['createSession']>[0] = {},
): Session[] {
	const created: Session[] = [];
	for (let i = 0; i < n; i++) {
		created.push(sandbox.createSession({ name: `Session ${i}`, ...input }));
	}
	return created;
}

/**
 * A trigger in n8n's default poll engine as n8n saves it: the workflow's static data is written
 * after the activation poll and after each poll that emits, never after a quiet or failed one.
 * `restart()` is an n8n restart: a new Workflow from what was saved, and the package loaded
 * afresh (no module state of an earlier load survives).
 */
export function savedTrigger(sandbox: Sandbox, options: TriggerOptions = {}) {
	let trigger = newTrigger(sandbox, options);
	let saved: IDataObject | undefined;
	return {
		get trigger() {
			return trigger;
		},
		get saved() {
			return saved;
		},
		async poll(): Promise<PollResult> {
			const result = await trigger.poll();
			if (saved === undefined || result.emitted)
				saved = JSON.parse(JSON.stringify(trigger.staticData)) as IDataObject;
			return result;
		},
		async restart(): Promise<void> {
			vi.resetModules();
			const fresh = await import('../../../nodes/AirSign/AirSignTrigger.node');
			trigger = newTrigger(sandbox, {
				...options,
				staticData: saved,
				nodeType: new fresh.AirSignTrigger(),
			});
		},
	};
}

/** An event item as a short line: event, session name, and for recipients who and from what to what. */
export function line(item: IDataObject): string {
	const recipient = item.recipient as IDataObject | undefined;
	const who = recipient
		? ` ${String(recipient.email)} ${String(recipient.previousStatus)}>${String(recipient.status)}`
		: '';
	return `${String(item.event)} ${String(item.name)}${who} (was ${String(item.previousStatus)})`;
}

/** A trigger (every event by default), activated, with its starting picture read: ready to see changes. */
export async function readyTrigger(sandbox: Sandbox, options: TriggerOptions = {}) {
	const trigger = newTrigger(sandbox, { events: [...ALL_EVENTS], ...options });
	const activation = await trigger.poll();
	expect(activation.error).toBeUndefined();
	expect(activation.items).toEqual([]);
	sandbox.clock.advance(5_000);
	const picture = await trigger.poll();
	expect(picture.error).toBeUndefined();
	expect(picture.items).toEqual([]);
	sandbox.clock.advance(5_000);
	return {
		trigger,
		/** One poll, then the clocks move past the settling window; the items as lines. */
		async poll(): Promise<string[]> {
			const result = await trigger.poll();
			expect(result.error).toBeUndefined();
			sandbox.clock.advance(5_000);
			return result.items.map((item) => line(item.json));
		},
		async items(): Promise<IDataObject[]> {
			const result = await trigger.poll();
			expect(result.error).toBeUndefined();
			sandbox.clock.advance(5_000);
			return result.items.map((item) => item.json);
		},
	};
}

export const two = [
	{ name: 'Ann', email: 'ann@example.com' },
	{ name: 'Bob', email: 'bob@example.com' },
];

/** Seeded data (the sandbox's generator), so a failing soak can be replayed. */
export function prng(seed: number) {
	const next = seededRandom(seed);
	return {
		next,
		int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
		chance: (p: number) => next() < p,
		pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)],
	};
}

/** A hang detector, not a speed test: on a busy machine the soak may take minutes. */
/** The soaks' seed: a failing soak replays with it. */
export const SEED = 20300304;

export const SOAK_TIMEOUT_MS = 15 * 60_000;
