import '../../harness';

import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { SESSION_STATUSES } from '../../../sandbox';
import { prng, SEED, soak, SOAK_TIMEOUT_MS } from '../../harness/drive';
import {
	demoSessions,
	key,
	Ledger,
	listRequests,
	newTrigger,
	pollOk,
	SESSIONS,
	useTriggerSandbox,
} from './helpers';

const sandbox = useTriggerSandbox();

const TOTAL_UPDATES = 10_000;
const MAX_5XX = 10; // each costs the trigger's 500 ms retry pause

describe('AirSign Trigger soak', () => {
	it(
		'10,000 updates over a few hundred polls: ties, changes while paging, faults, switches: nothing lost, nothing repeated',
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
});
