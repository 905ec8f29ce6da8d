import {
	createPollingHarness,
	createTestEnvironment,
	type PollingHarness,
	type PollingHarnessOptions,
	type PollResult,
} from '../../harness';
import { drive, isQuiet, listRequests } from '../../harness/drive';
import { clientCredential, tokenCredential, useSandbox } from '../../harness/sandbox';

import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { expect, vi } from 'vitest';

import { AirSignApi } from '../../../credentials/AirSignApi.credentials';
import { AirSignTrigger } from '../../../nodes/AirSign/AirSignTrigger.node';
import { TRIGGER_EVENTS } from '../../../nodes/AirSign/trigger/eventOptions';
import type { CreateSessionInput, Sandbox, Session, SessionStatus } from '../../../sandbox';

/** The trigger's cursor, in ms. */
export const cursorOf = (trigger: Pick<PollingHarness, 'nodeStaticData'>) =>
	Date.parse(String(trigger.nodeStaticData.cursor));

/** A fixed, whole-second instant far from real time, so "server clock" mistakes show. */
export const T0 = Date.parse('2030-03-04T05:06:07.000Z');
export const SESSIONS = '/api/v1/Sessions';
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** A test file's sandbox at T0, reset before each test, n8n's clock following its clock. */
export function useTriggerSandbox(): Sandbox {
	const get = useSandbox({ now: T0, followClock: true });
	return new Proxy({} as Sandbox, { get: (_, key) => Reflect.get(get(), key) as unknown });
}

export interface TriggerOptions
	extends Pick<PollingHarnessOptions, 'mode' | 'staticData' | 'pollHooks' | 'timezone'> {
	filters?: IDataObject;
	options?: IDataObject;
	/** Credential data; default: the demo organisation's never-expiring token. */
	credential?: IDataObject;
	/** Default: Any Change alone (one item per state read); `readyTrigger`'s: every event. */
	events?: string[];
	/** The node type (default: this package's AirSignTrigger as first loaded). */
	nodeType?: AirSignTrigger;
}

export const ALL_EVENTS = TRIGGER_EVENTS;

let workflows = 0;

/** One active workflow of the AirSign Trigger alone, with its own id as in n8n. */
export function newTrigger(sandbox: Sandbox, options: TriggerOptions = {}): PollingHarness {
	const { events = ['anyChange'], filters = {}, options: opts = {}, credential, ...rest } = options;
	return createPollingHarness({
		...rest,
		env: createTestEnvironment({ credentialTypes: [new AirSignApi()] }),
		nodeType: rest.nodeType ?? new AirSignTrigger(),
		parameters: { events, filters, options: opts } as INodeParameters,
		credentials: { airSignApi: (credential ?? tokenCredential(sandbox)) as never },
		workflowId: `airsign-test-wf-${++workflows}`,
	});
}

export { clientCredential, listRequests, tokenCredential };

/** One poll that must not fail. */
export async function pollOk(trigger: Pick<PollingHarness, 'poll'>): Promise<PollResult> {
	const result = await trigger.poll();
	expect(result.error).toBeUndefined();
	return result;
}

/** A trigger whose activation poll passed without error, the clocks past the settle window. */
export async function activated(sandbox: Sandbox, options: TriggerOptions = {}) {
	const trigger = newTrigger(sandbox, options);
	await pollOk(trigger);
	sandbox.clock.advance(5_000);
	return trigger;
}

/** `n` sessions updated 1 ms apart, starting now (distinct instants, several pages). */
export function backlog(sandbox: Sandbox, n: number, name = 'b') {
	const start = sandbox.clock.now();
	for (let i = 0; i < n; i++)
		sandbox.createSession({ name: `${name}${i}`, updatedAt: start + i, createdAt: start - 1e6 });
	sandbox.clock.advance(n + 5_000);
}

/** `b0`…`b{n-1}`, the names `backlog` gives. */
export const backlogNames = (n: number, name = 'b') =>
	Array.from({ length: n }, (_, i) => `${name}${i}`);

export const key = (sessionId: unknown, updatedAt: unknown) =>
	`${String(sessionId)}@${Date.parse(String(updatedAt))}`;

/** Everything a trigger delivered across polls: which (session, updatedAt) pairs, how often, in order. */
export class Ledger {
	readonly counts = new Map<string, number>();
	readonly items: IDataObject[] = [];
	errors: Error[] = [];

	record(result: PollResult): IDataObject[] {
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

	/** No error shown, nothing delivered twice. */
	expectSound(): void {
		expect(this.errors).toEqual([]);
		expect(this.repeated()).toEqual([]);
	}
}

/** Polls, records, and advances the sandbox clock past the trigger's settle window. */
export async function pollAndRecord(
	sandbox: Sandbox,
	trigger: Pick<PollingHarness, 'poll'>,
	ledger: Ledger,
	advanceMs = 5_000,
): Promise<IDataObject[]> {
	const result = await trigger.poll();
	const items = ledger.record(result);
	sandbox.clock.advance(advanceMs);
	return items;
}

/** Polls until one is quiet (nothing, no error, one request), at most `max`; returns the polls. */
export async function drain(sandbox: Sandbox, trigger: PollingHarness, ledger: Ledger, max = 50) {
	let quiet = false;
	let requestsBefore = 0;
	const polls = await drive(sandbox, {
		while: (round) => !quiet && round < max,
		before: () => void (requestsBefore = listRequests(sandbox).length),
		poll: () => trigger.poll(),
		after: (result) => {
			ledger.record(result);
			quiet = isQuiet(sandbox, result, requestsBefore);
		},
	});
	if (!quiet) throw new Error(`still delivering after ${max} polls`);
	return polls;
}

/** Nothing lost, nothing repeated, no error shown. */
export function expectClean(sandbox: Sandbox, ledger: Ledger) {
	ledger.expectSound();
	expect(ledger.lost(demoSessions(sandbox))).toEqual([]);
}

/** Sessions of the demo organisation as the sandbox holds them now. */
export const demoSessions = (sandbox: Sandbox) =>
	sandbox.listAllSessions().filter((s) => s.orgId === sandbox.demo.orgId);

/** Creates `n` sessions with the given times (default: now), returns them in creation order. */
export const createMany = (sandbox: Sandbox, n: number, input: { createdAt?: number } = {}) =>
	Array.from({ length: n }, (_, i) => sandbox.createSession({ name: `Session ${i}`, ...input }));

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? {})) as T;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A trigger in n8n's default engine, its static data saved after activation and emitting polls
 * only; `restart()`: a new Workflow from what was saved, the package loaded afresh. */
export function savedTrigger(sandbox: Sandbox, options: TriggerOptions = {}) {
	let trigger = newTrigger(sandbox, options);
	let saved: IDataObject | undefined;
	return {
		get trigger() {
			return trigger;
		},
		async poll(): Promise<PollResult> {
			const result = await trigger.poll();
			if (saved === undefined || result.emitted) saved = clone(trigger.staticData);
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

export const linesOf = (result: PollResult) => result.items.map((item) => line(item.json));

/** An hour on, a trigger (every event by default) activated and its starting picture read. */
export async function readyTrigger(sandbox: Sandbox, options: TriggerOptions = {}) {
	sandbox.clock.advance(HOUR);
	const trigger = newTrigger(sandbox, { events: [...ALL_EVENTS], ...options });
	// The activation poll, then the one that reads the starting picture: neither gives an item.
	for (let i = 0; i < 2; i++) {
		expect((await pollOk(trigger)).items).toEqual([]);
		sandbox.clock.advance(5_000);
	}
	/** One poll, then the clocks move past the settling window. */
	const items = async (): Promise<IDataObject[]> => {
		const result = await pollOk(trigger);
		sandbox.clock.advance(5_000);
		return result.items.map((item) => item.json);
	};
	return { trigger, items, poll: async () => (await items()).map((item) => line(item)) };
}

/** A change, then a second passes on both clocks. */
export function step(sandbox: Sandbox, change: () => unknown) {
	change();
	sandbox.clock.advance(1_000);
}

const two = [
	{ name: 'Ann', email: 'ann@example.com' },
	{ name: 'Bob', email: 'bob@example.com' },
];

/** A session with Ann and Bob as its recipients. */
export const withTwo = (
	sandbox: Sandbox,
	name: string,
	status?: SessionStatus,
	more: CreateSessionInput = {},
) => sandbox.createSession({ name, recipients: two, status, ...more });

/** Holds the `nth` List Sessions request until `release()`; `arrived` resolves when it is there. */
export function holdListSessions(sandbox: Sandbox, nth = 1) {
	let release!: () => void;
	const released = new Promise<void>((resolve) => (release = resolve));
	let arrive!: () => void;
	const arrived = new Promise<void>((resolve) => (arrive = resolve));
	const hold = { arrived, arrivals: 0, release: () => (release(), off()) };
	const off = sandbox.onRequest(async ({ path }) => {
		if (path !== SESSIONS || ++hold.arrivals !== nth) return;
		arrive();
		await released;
	});
	return hold;
}

/**
 * n8n 2.39's database-backed poll scheduler (N8N_SCHEDULER_POLL_TRIGGERS_ENABLED; durable cursors:
 * N8N_POLLER_DURABLE_CURSORS_ENABLED) as a poll node sees it, from n8n/dist: each poll runs on a
 * new Workflow from the database; static data is saved after the activation poll and when a poll
 * emits; with durable cursors the node's state is its `poller_state` row, committed with an
 * emitting poll, or alone after a quiet scheduled one (never the activation's, nor a thrown one's);
 * scheduled polls get `getPollBudgetMs()` (`budgetMs`, default 36 s), the activation n8n-core's 5 min.
 */
export function schedulerTrigger(
	sandbox: Sandbox,
	options: TriggerOptions & { durableCursors: boolean; budgetMs?: number },
) {
	/** What n8n's database holds: workflow_entity.staticData and the node's poller_state row. */
	const db: { staticData: IDataObject; cursorRow?: IDataObject } = {
		staticData: clone(options.staticData ?? {}),
	};
	let polls = 0;
	let activationPoll = true;
	let staged: { snapshot: IDataObject; seed: IDataObject } | undefined;
	let unsaved: IDataObject | undefined;

	const trigger = newTrigger(sandbox, {
		...options,
		staticData: db.staticData,
		pollHooks: (workflow, node) => {
			staged = undefined;
			const isActivation = activationPoll;
			return {
				runPoll: async (poll) => {
					if (options.durableCursors) {
						db.cursorRow ??= clone(workflow.getStaticData('node', node));
						staged = { snapshot: clone(db.cursorRow), seed: clone(db.cursorRow) };
					}
					return await poll();
				},
				resolveNodeStaticData: () => staged?.snapshot ?? workflow.getStaticData('node', node),
				commitCursor: async () => {
					if (isActivation || !staged || same(staged.snapshot, staged.seed)) return;
					db.cursorRow = clone(staged.snapshot);
				},
				getPollBudgetMs: isActivation ? undefined : () => options.budgetMs ?? 36_000,
			};
		},
	});

	return {
		/** The node's state as n8n would read it at the next poll. */
		nodeState(): IDataObject {
			return options.durableCursors
				? clone(db.cursorRow ?? {})
				: clone((db.staticData['node:Trigger'] as IDataObject | undefined) ?? {});
		},
		/** `activation`: n8n runs it as it activates the workflow (default: the first poll);
		 * `saveAfterActivation`: n8n saves the static data after it (default true). */
		async poll(
			pollOptions: { activation?: boolean; saveAfterActivation?: boolean } = {},
		): Promise<PollResult> {
			const isActivation = pollOptions.activation ?? polls === 0;
			activationPoll = isActivation;
			polls++;
			trigger.restart(db.staticData);
			const result = await trigger.poll();
			if (result.emitted) {
				// __emit: the staged cursor goes with the execution; saveStaticData(workflow)
				if (staged && !same(staged.snapshot, staged.seed)) db.cursorRow = clone(staged.snapshot);
				db.staticData = clone(trigger.staticData);
			}
			if (isActivation) {
				if (pollOptions.saveAfterActivation ?? true) db.staticData = clone(trigger.staticData);
				else unsaved = clone(trigger.staticData);
			}
			return result;
		},
		/** The activator's late `saveStaticData` of a `saveAfterActivation: false` activation. */
		saveActivation(): void {
			if (unsaved) db.staticData = unsaved;
			unsaved = undefined;
		},
	};
}
