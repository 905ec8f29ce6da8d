// The trigger's soaks, both on drive.ts: updates alone, then transitions over every event.
import '../../harness';

import type { IDataObject } from 'n8n-workflow';
import { expect, it } from 'vitest';

import { SESSION_STATUSES, type Session } from '../../../sandbox';
import { prng, SEED, soak, SOAK_TIMEOUT_MS } from '../../harness/drive';
import {
	ALL_EVENTS as ALL,
	demoSessions,
	key,
	Ledger,
	listRequests,
	newTrigger,
	pollOk,
	savedTrigger,
	SESSIONS,
	useTriggerSandbox,
} from './helpers';

const sandbox = useTriggerSandbox();

const TOTAL_UPDATES = 10_000;
const MAX_5XX = 10; // each costs the trigger's 500 ms retry pause

it(
	'AirSign Trigger soak: 10,000 updates over a few hundred polls: ties, changes while paging, faults, switches: nothing lost, nothing repeated',
	async () => {
		sandbox.config.rateLimitPerHour = 1_000_000;
		sandbox.config.timestampPrecision = 's'; // whole seconds for the first part, then ms (never back: see README)
		const rand = prng(SEED);
		const ids: string[] = [];
		let updates = 0;
		let faults5xx = 0;
		let faults429 = 0;
		let maxDelivered = 0;

		const trigger = newTrigger(sandbox);
		const ledger = new Ledger();
		for (let i = 0; i < 50; i++)
			ids.push(sandbox.createSession({ name: `history ${i}` }).sessionId);
		sandbox.clock.advance(3_000);
		const activatedAt = sandbox.clock.now();
		await pollOk(trigger);
		sandbox.clock.advance(3_000);

		// A burst (create): new sessions at one instant, more than a page.
		const change = (create: boolean) => {
			if (updates >= TOTAL_UPDATES) return;
			updates++;
			if (create || ids.length < 30 || rand.chance(0.3)) {
				ids.push(
					sandbox.createSession({ name: `s${ids.length}`, status: rand.pick(SESSION_STATUSES) })
						.sessionId,
				);
			} else if (rand.chance(0.8)) {
				sandbox.updateSession(rand.pick(ids), { status: rand.pick(SESSION_STATUSES) });
			} else {
				sandbox.updateSession(rand.pick(ids), { name: `renamed ${updates}` });
			}
		};
		const { polls, restarts, seconds } = await soak(sandbox, {
			rand,
			change,
			done: () => updates >= TOTAL_UPDATES,
			poll: () => trigger.poll(),
			record: (result) => {
				ledger.record(result);
				maxDelivered = Math.max(
					maxDelivered,
					((trigger.nodeStaticData.delivered as unknown[]) ?? []).length,
				);
			},
			restart: () => trigger.restart(),
			msFrom: 180,
			burst: [120, 260],
			fault: () => {
				if (faults5xx < MAX_5XX && rand.chance(0.04)) {
					faults5xx++;
					const [status, skip, count] = [
						rand.pick([500, 502, 503]),
						rand.int(0, 3),
						rand.int(1, 2),
					];
					sandbox.injectFault({ kind: 'status', status, path: SESSIONS, skip, count });
				} else if (rand.chance(0.1)) {
					faults429++;
					const skip = rand.int(0, 4);
					sandbox.injectFault({ kind: 'rateLimit', retryAfter: 60, path: SESSIONS, skip });
				}
			},
			concurrency: [0.35, 0.6, 4],
		});

		// Every session's latest state was delivered, in that state; no pair twice.
		const latest = new Map<string, IDataObject>();
		for (const item of ledger.items) latest.set(key(item.sessionId, item.updatedAt), item);
		const sessions = demoSessions(sandbox);
		// History that never changed after activation is not an update.
		const lost = sessions
			.filter((s) => Date.parse(s.updatedAt) > activatedAt)
			.filter((s) => {
				const item = latest.get(key(s.sessionId, s.updatedAt));
				return !item || item.status !== s.status || item.name !== s.name;
			});
		const repeated = ledger.repeated();
		const transientReports = ledger.errors.filter((e) =>
			/could not be read for 5 polls in a row/.test(e.message),
		);
		console.log(
			`soak: seed=${SEED} updates=${updates} sessions=${sessions.length} polls=${polls} delivered=${ledger.delivered} ` +
				`lost=${lost.length} repeated=${repeated.length} requests=${listRequests(sandbox).length} ` +
				`faults5xx=${faults5xx} faults429=${faults429} restarts=${restarts} errorsShown=${ledger.errors.length} ` +
				`maxDeliveredKept=${maxDelivered} time=${seconds}s`,
		);

		expect(lost.map((s) => s.sessionId)).toEqual([]);
		expect(repeated).toEqual([]);
		expect(ledger.errors.length).toBe(transientReports.length);
		expect(updates).toBe(TOTAL_UPDATES);
		expect(polls).toBeGreaterThan(200);
		// Bounded state: at most a burst plus what the settle window holds.
		expect(maxDelivered).toBeLessThan(600);
		// At rest it remembers only the sessions at the cursor's instant (the last tie group).
		const cursor = Date.parse(String(trigger.nodeStaticData.cursor));
		const atCursor = sessions.filter((s) => Date.parse(s.updatedAt) >= cursor - 1).length;
		expect((trigger.nodeStaticData.delivered as unknown[]).length).toBeLessThanOrEqual(atCursor);
	},
	SOAK_TIMEOUT_MS,
);

const EVENT_TRANSITIONS = 10_000;
const LIFECYCLE = [
	'sessionCreated',
	'sessionSent',
	'sessionCompleted',
	'sessionCancelled',
	'sessionExpired',
];

/** What the soak did to one session, as the oracle of its events. */
interface Truth {
	createdAfterStart: boolean;
	/** The session's status now. */
	status: string;
	/** Lifecycle events its changes after the start must give, each once. */
	expected: Set<string>;
	/** Every status each recipient had, in order, from the start (or its creation). */
	recipients: Map<string, string[]>;
}

it(
	'AirSign Trigger events soak: 10,000 transitions over every event, ties, changes while paging, faults, restarts: per event 0 lost, 0 repeated, 0 invented',
	async () => {
		sandbox.config.rateLimitPerHour = 1_000_000;
		sandbox.config.timestampPrecision = 's';
		const rand = prng(SEED + 21);
		const truth = new Map<string, Truth>();
		const people = (n: number) =>
			Array.from({ length: n }, (_, i) => ({ name: `R${i}`, email: `r${i}@example.com` }));
		/** Notes the session's state now, and the lifecycle events its change must give. */
		const record = (sessionId: string, createdAfterStart: boolean, ...events: string[]) => {
			const session = sandbox.getSession(sessionId)!;
			const t: Truth = truth.get(sessionId) ?? {
				createdAfterStart,
				status: '',
				expected: new Set(),
				recipients: new Map(),
			};
			truth.set(sessionId, t);
			t.status = session.status;
			for (const event of events) t.expected.add(event);
			for (const r of session.recipients) {
				const history = t.recipients.get(r.recipientId) ?? [];
				if (history.at(-1) !== r.status) history.push(r.status);
				t.recipients.set(r.recipientId, history);
			}
		};

		// At the start: sessions in every state, the ones in flight known through the picture.
		for (let i = 0; i < 240; i++) {
			const s = sandbox.createSession({
				name: `start ${i}`,
				status: SESSION_STATUSES[i % SESSION_STATUSES.length],
				recipients: people(1 + (i % 3)),
			});
			record(s.sessionId, false);
		}
		sandbox.clock.advance(3_000);
		const activatedAt = sandbox.clock.now();
		// Saved as n8n saves it (savedTrigger); the first restart comes right after activation,
		// the first changes in the very first interval, to sessions in flight at the start.
		const n8n = savedTrigger(sandbox, { events: [...ALL] });
		expect((await n8n.poll()).error).toBeUndefined();
		expect(n8n.trigger.nodeStaticData).not.toHaveProperty('picture');
		await n8n.restart();

		let transitions = 0;
		const ids = () => [...truth.keys()];
		const inState = (...statuses: string[]) =>
			[...truth].filter(([, t]) => statuses.includes(t.status)).map(([id]) => id);
		const mutate = () => {
			if (transitions >= EVENT_TRANSITIONS) return;
			transitions++;
			const roll = rand.next();
			const drafts = roll < 0.5 ? inState('draft') : [];
			const live = roll >= 0.25 && roll < 0.85 ? inState('pending', 'inProgress') : [];
			if (roll < 0.12 || ids().length < 50) {
				const s = sandbox.createSession({
					name: `new ${transitions}`,
					status: rand.chance(0.2) ? 'pending' : 'draft',
					recipients: people(rand.int(1, 3)),
				});
				const sent = s.status === 'pending' ? ['sessionSent'] : [];
				record(s.sessionId, true, 'sessionCreated', ...sent);
			} else if (roll < 0.25 && drafts.length) {
				const id = rand.pick(drafts);
				sandbox.updateSession(id, { status: 'pending' });
				record(id, false, 'sessionSent');
			} else if (roll < 0.3 && drafts.length) {
				const id = rand.pick(drafts);
				sandbox.updateSession(id, { status: 'cancelled' });
				record(id, false, 'sessionCancelled');
			} else if (roll < 0.45 && live.length) {
				const id = rand.pick(live);
				const session = sandbox.getSession(id)!;
				const target = session.recipients.find((r) => r.status === 'sent');
				if (target)
					sandbox.setRecipientStatus(id, { recipientId: target.recipientId, status: 'viewed' });
				else sandbox.updateSession(id, { touch: true });
				record(id, false);
			} else if (roll < 0.8 && live.length) {
				const id = rand.pick(live);
				const completed = sandbox.signRecipient(id).status === 'completed';
				record(id, false, ...(completed ? ['sessionCompleted'] : []));
			} else if (roll < 0.85 && live.length) {
				const id = rand.pick(live);
				sandbox.updateSession(id, { status: 'expired' });
				record(id, false, 'sessionExpired');
			} else {
				const id = rand.pick(ids());
				sandbox.updateSession(id, { name: `renamed ${transitions}` });
				record(id, false);
			}
		};
		const items: IDataObject[] = [];
		let faults = 0;
		const { polls, restarts, seconds } = await soak(sandbox, {
			rand,
			change: mutate,
			done: () => transitions >= EVENT_TRANSITIONS,
			poll: () => n8n.poll(),
			record: (result) => items.push(...result.items.map((i) => i.json)),
			restart: () => n8n.restart(),
			msFrom: 100,
			burst: [120, 200],
			fault: () => {
				if (!rand.chance(0.05)) return;
				faults++;
				sandbox.injectFault(
					rand.chance(0.5)
						? { kind: 'status', status: 503, path: SESSIONS, skip: rand.int(0, 3), count: 1 }
						: { kind: 'rateLimit', retryAfter: 60, path: SESSIONS, skip: rand.int(0, 3) },
				);
			},
			concurrency: [0.3, 0.5, 3],
			dayChance: 0.01,
		});

		// The oracle, per event: lost (expected, never given), repeated, invented (not expected).
		const report = Object.fromEntries(
			ALL.map((event) => [event, { given: 0, lost: 0, repeated: 0, invented: 0 }]),
		);
		const lifecycle = new Map<string, number>();
		const recipientItems = new Map<string, IDataObject[]>();
		const anyChange = new Map<string, string[]>();
		const append = <T>(map: Map<string, T[]>, k: string, v: T) =>
			map.set(k, [...(map.get(k) ?? []), v]);
		/** A session's state as Any Change tells it (its recipients added to tell them apart). */
		const stateOf = (s: IDataObject | Session) =>
			`${Date.parse(String(s.updatedAt))}|${String(s.status)}|${String(s.name)}|`;
		for (const item of items) {
			const event = String(item.event);
			report[event].given++;
			const id = String(item.sessionId);
			if (event === 'recipientStatusChanged') {
				const r = item.recipient as IDataObject;
				append(recipientItems, `${id}:${String(r.recipientId)}`, r);
			} else if (event === 'anyChange') {
				append(anyChange, id, stateOf(item) + JSON.stringify(item.recipients));
			} else {
				const k = `${event}:${id}`;
				lifecycle.set(k, (lifecycle.get(k) ?? 0) + 1);
			}
		}
		for (const [id, t] of truth) {
			for (const event of LIFECYCLE) {
				const n = lifecycle.get(`${event}:${id}`) ?? 0;
				if (t.expected.has(event)) {
					if (n === 0) report[event].lost++;
					if (n > 1) report[event].repeated++;
				} else if (n > 0) report[event].invented++;
			}
			// Recipients: the items of each form a chain through its real history, to its end.
			for (const [recipientId, history] of t.recipients) {
				const chain = recipientItems.get(`${id}:${recipientId}`) ?? [];
				const seen = new Set<string>();
				let position = 0;
				for (const r of chain) {
					const pair = `${String(r.previousStatus)}>${String(r.status)}`;
					if (seen.has(pair)) report.recipientStatusChanged.repeated++;
					seen.add(pair);
					const from = history.indexOf(String(r.previousStatus), position);
					const to = history.indexOf(String(r.status), from + 1);
					if (from === -1 || to === -1) report.recipientStatusChanged.invented++;
					else position = to;
				}
				const last = chain.at(-1);
				// Sessions created after the start: their recipients start where first seen.
				const changedSinceKnown = t.createdAfterStart ? chain.length > 0 : history.length > 1;
				if (changedSinceKnown && String(last?.status) !== history.at(-1))
					report.recipientStatusChanged.lost++;
			}
			// Any Change: the session's final state, each state once.
			const states = anyChange.get(id) ?? [];
			if (new Set(states).size !== states.length) report.anyChange.repeated++;
			const final = sandbox.getSession(id)!;
			const changed = t.createdAfterStart || Date.parse(final.updatedAt) > activatedAt;
			if (changed && !states.at(-1)?.startsWith(stateOf(final))) report.anyChange.lost++;
		}
		const expectedCounts = Object.fromEntries(
			LIFECYCLE.map((event) => [
				event,
				[...truth.values()].filter((t) => t.expected.has(event)).length,
			]),
		);
		console.log(
			`events soak: seed=${SEED + 21} transitions=${transitions} sessions=${truth.size} polls=${polls} items=${items.length} ` +
				`faults=${faults} restarts=${restarts} requests=${listRequests(sandbox).length} time=${seconds}s\n` +
				`expected ${JSON.stringify(expectedCounts)}\n` +
				Object.entries(report)
					.map(
						([event, r]) =>
							`  ${event}: given=${r.given} lost=${r.lost} repeated=${r.repeated} invented=${r.invented}`,
					)
					.join('\n') +
				`\n  memory: ${JSON.stringify(n8n.trigger.nodeStaticData.known).length} bytes`,
		);

		expect(transitions).toBe(EVENT_TRANSITIONS);
		for (const [event, { given, ...wrong }] of Object.entries(report)) {
			expect({ event, ...wrong }).toEqual({ event, lost: 0, repeated: 0, invented: 0 });
			expect(given, event).toBeGreaterThan(50);
		}
	},
	SOAK_TIMEOUT_MS,
);
