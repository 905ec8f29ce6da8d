import { createTestEnvironment, runNode } from '../../harness';

import { Logger } from '@n8n/backend-common';
import type { IDataObject } from 'n8n-workflow';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { drive } from '../../harness/drive';
import { AirSignApi } from '../../../credentials/AirSignApi.credentials';
import { AirSign } from '../../../nodes/AirSign/AirSign.node';
import type { Sandbox, Session } from '../../../sandbox';
import {
	ALL_EVENTS,
	demoSessions,
	expectClean,
	HOUR,
	Ledger,
	listRequests,
	MINUTE,
	newTrigger,
	pollAndRecord,
	pollOk,
	savedTrigger,
	tokenCredential,
	useTriggerSandbox,
	withTwo,
} from './helpers';

const sandbox = useTriggerSandbox();
/** When, in each hour of its budget window, another workflow lists sessions (the last one late). */
const OTHER_WORKFLOW_MINUTES = [5, 20, 40, 58];
const RESERVE = 10;

/** Another workflow of the organisation: Get Many, Limit 10, through n8n's engine. */
async function otherWorkflowCall(sandbox: Sandbox) {
	const { error } = await runNode({
		env: createTestEnvironment({ credentialTypes: [new AirSignApi()] }),
		nodeType: new AirSign(),
		credentials: { airSignApi: tokenCredential(sandbox) as never },
		parameters: {
			resource: 'session',
			operation: 'getMany',
			limit: 10,
			options: { maxRateLimitWait: 0 },
		},
	});
	return error;
}

/** n8n's log lines (level, message) until the test ends. */
function captureLogs() {
	const lines: Array<{ level: string; message: string }> = [];
	vi.spyOn(
		Logger.prototype as unknown as { log: (...args: unknown[]) => void },
		'log',
	).mockImplementation((level: unknown, message: unknown) => {
		lines.push({ level: String(level), message: String(message) });
	});
	return lines;
}

afterEach(() => vi.restoreAllMocks());

describe('AirSign Trigger keeps the reserve for other workflows (60 requests an hour)', () => {
	it('polling every minute for three hours beside another workflow: its calls all succeed, 0 lost, 0 repeated', async () => {
		expect(sandbox.config.rateLimitPerHour).toBe(60);
		const logs = captureLogs();
		const trigger = newTrigger(sandbox, { options: { reserveRequests: RESERVE } });
		const ledger = new Ledger();
		await pollOk(trigger); // the activation opens the sandbox's budget window

		const windowStart = sandbox.clock.now();

		const otherErrors: unknown[] = [];
		let otherCalls = 0;
		let updates = 0;
		const triggerRequestsByHour = [0, 0, 0];
		let before = 0;
		await drive(sandbox, {
			while: (round) => round < 179,
			before: async (round) => {
				const minute = round + 1;
				sandbox.clock.set(windowStart + minute * MINUTE);
				if (minute % 2 === 0) {
					sandbox.createSession({ name: `new ${minute}` });
					updates++;
				}
				if (minute % 3 === 0) {
					const byAge = demoSessions(sandbox).sort((a, b) =>
						a.updatedAt.localeCompare(b.updatedAt),
					);
					sandbox.updateSession(byAge[0].sessionId, { name: `changed ${minute}` });
					updates++;
				}
				if (OTHER_WORKFLOW_MINUTES.includes(minute % 60)) {
					otherCalls++;
					const error = await otherWorkflowCall(sandbox);
					if (error) otherErrors.push(`minute ${minute}: ${error.message}`);
				}
				before = listRequests(sandbox).length;
			},
			poll: () => trigger.poll(),
			after: (result, round) => {
				ledger.record(result);
				triggerRequestsByHour[Math.floor((round + 1) / 60)] +=
					listRequests(sandbox).length - before;
			},
			advanceMs: 0,
		});
		// The third hour's last stretch, held back for the reserve, comes after its reset.
		sandbox.clock.set(windowStart + 3 * HOUR + MINUTE);
		await pollAndRecord(sandbox, trigger, ledger, 0);

		expect(otherCalls).toBe(12);
		expect(otherErrors).toEqual([]);
		expect(listRequests(sandbox).filter((r) => r.status === 429)).toEqual([]);
		for (const requests of triggerRequestsByHour) {
			expect(requests).toBeGreaterThan(0);
			expect(requests).toBeLessThanOrEqual(60 - RESERVE);
		}
		expectClean(sandbox, ledger);
		expect(updates).toBeGreaterThan(100);

		// Visible: a debug line for every skipped poll, one warning per window.
		const waiting = /polls make no request until the budget resets at \d\d:\d\d:\d\d UTC/;
		const warnings = logs.filter((l) => l.level === 'warn' && waiting.test(l.message));
		const skipped = logs.filter((l) => l.level === 'debug' && /\(poll skipped\)$/.test(l.message));
		expect(warnings).toHaveLength(3);
		expect(skipped.length).toBeGreaterThanOrEqual(3 * 8);
		expect(
			skipped.length + triggerRequestsByHour.reduce((a, b) => a + b, 0),
		).toBeGreaterThanOrEqual(179);
	});

	it('a restart forgets the budget: the first poll after it makes one request and learns it again', async () => {
		sandbox.config.rateLimitPerHour = 12;
		const trigger = newTrigger(sandbox, { options: { reserveRequests: RESERVE } });
		const ledger = new Ledger();
		await pollAndRecord(sandbox, trigger, ledger, MINUTE); // activation: 11 left
		await pollAndRecord(sandbox, trigger, ledger, MINUTE); // 10 left: at the reserve
		sandbox.clearRequests();
		await pollAndRecord(sandbox, trigger, ledger, MINUTE);
		expect(listRequests(sandbox)).toHaveLength(0);

		// n8n 2.x saved the static data of the last emitting poll (the activation): no budget.
		const restarted = newTrigger(sandbox, {
			options: { reserveRequests: RESERVE },
			staticData: { 'node:Trigger': { cursor: trigger.nodeStaticData.cursor, delivered: [] } },
		});
		await pollAndRecord(sandbox, restarted, ledger, MINUTE);
		await pollAndRecord(sandbox, restarted, ledger, MINUTE);
		expect(listRequests(sandbox).map((r) => r.status)).toEqual([200]);
		expect(ledger.errors).toEqual([]);
	});
});

const GROUP = 2_500;

/** An item as the key the oracle counts: lifecycle events by session, recipients by change. */
function itemKey(item: IDataObject): string {
	const r = item.recipient as IDataObject | undefined;
	const who = r ? `:${String(r.email)}:${String(r.previousStatus)}>${String(r.status)}` : '';
	return `${String(item.event)}:${String(item.name)}${who}`;
}

const LIFECYCLE: Record<string, string> = {
	pending: 'sessionSent',
	completed: 'sessionCompleted',
	cancelled: 'sessionCancelled',
	expired: 'sessionExpired',
};

/** The items one change of a session the trigger knew (or a new one) must give, each once. */
function expectedOf(before: Session | undefined, after: Session): string[] {
	if (!before) return [`sessionCreated:${after.name}`, `anyChange:${after.name}`];
	const keys = [`anyChange:${after.name}`];
	if (before.status !== after.status && LIFECYCLE[after.status])
		keys.push(`${LIFECYCLE[after.status]}:${after.name}`);
	for (const now of after.recipients) {
		const was = before.recipients.find((r) => r.recipientId === now.recipientId);
		if (was && was.status !== now.status)
			keys.push(`recipientStatusChanged:${after.name}:${now.email}:${was.status}>${now.status}`);
	}
	return keys;
}

/** List Sessions requests per hourly window of AirSign's, from the sandbox's log. */
function requestsPerWindow(sandbox: Sandbox): number[] {
	const counts: number[] = [];
	let windowStart = Number.NEGATIVE_INFINITY;
	for (const request of listRequests(sandbox)) {
		if (request.atMs >= windowStart + 3_600_000) {
			windowStart = request.atMs;
			counts.push(0);
		}
		counts[counts.length - 1]++;
	}
	return counts;
}

// Whole seconds: created by an import, 500 in each second (every key level is used). Milliseconds:
// created one by one, then expired in one pass.
describe.each([
	{ precision: 's' as const, offset: 0, batch: 500 },
	{ precision: 'ms' as const, offset: 123, batch: 1 },
])(
	'AirSign Trigger: 2,500 sessions updated at one instant ($precision)',
	({ precision, offset, batch }) => {
		it.each([{ restarts: false }, { restarts: true }])(
			'each event once, read across polls without starting the group again; changes during and after it follow (restart after each poll that reads the group: $restarts)',
			async ({ restarts }) => {
				sandbox.config.timestampPrecision = precision;
				const base = sandbox.clock.now();
				// In flight at activation: the group, and eight sessions changed during and after it.
				const at = (i: number) => base - 7_200_000 + Math.floor(i / batch) * 1_000 + offset;
				const group = Array.from({ length: GROUP }, (_, i) => {
					const times = { createdAt: at(i), updatedAt: at(i) };
					return withTwo(sandbox, `g${i}`, 'pending', times).sessionId;
				});
				const hourAgo = { createdAt: base - 3_600_000, updatedAt: base - 3_600_000 };
				const others = ['d0', 'd1', 'd2', 'd3', 'p0', 'p1', 'p2', 'p3'].map(
					(name) =>
						withTwo(sandbox, name, name.startsWith('d') ? 'draft' : 'pending', hourAgo).sessionId,
				);
				const byName = new Map(
					[...group, ...others].map((id) => [sandbox.getSession(id)!.name, id]),
				);
				const n8n = savedTrigger(sandbox, {
					events: [...ALL_EVENTS],
					options: { reserveRequests: RESERVE },
				});
				await pollOk(n8n);

				const expected = new Map<string, number>();
				const change = (name: string | undefined, act: (id: string) => void) => {
					const id = name ? byName.get(name)! : undefined;
					const before = id ? sandbox.getSession(id) : undefined;
					const created = id ? undefined : sandbox.createSession({ name: `new ${expected.size}` });
					if (id) act(id);
					for (const k of expectedOf(before, sandbox.getSession(id ?? created!.sessionId)!))
						expected.set(k, (expected.get(k) ?? 0) + 1);
				};
				const changes = (d: [string, string], p: [string, string]) => {
					change(undefined, () => {});
					change(d[0], (id) => sandbox.updateSession(id, { status: 'pending' }));
					change(d[1], (id) => sandbox.updateSession(id, { status: 'cancelled' }));
					change(p[0], (id) => sandbox.signRecipient(id));
					change(p[1], (id) => sandbox.updateSession(id, { status: 'completed' }));
				};

				// Every session of the group expires at one instant, 90 s after activation.
				sandbox.clock.advance(90_000);
				const expiry = Math.floor(sandbox.clock.now() / 1_000) * 1_000 + offset;
				for (const id of group) {
					change(sandbox.getSession(id)!.name, () =>
						sandbox.updateSession(id, { status: 'expired', updatedAt: expiry }),
					);
				}

				const delivered = new Map<string, number>();
				const expiredCount = () =>
					[...delivered.keys()].filter((k) => k.startsWith('sessionExpired:')).length;
				const requestsBefore = listRequests(sandbox).length;
				let groupPolls = 0;
				let groupRequests = 0;
				let afterAt: number | undefined;
				let during = false;
				// Every minute, as n8n's default schedule, for at most three hours: until ten polls after
				// the group was delivered (and the changes after it made).
				let requests = 0;
				await drive(sandbox, {
					while: (round) => round < 180 && !(afterAt && round + 1 > afterAt + 10),
					before: () => {
						sandbox.clock.advance(MINUTE);
						requests = listRequests(sandbox).length;
					},
					poll: () => n8n.poll(),
					after: async (result, round) => {
						const minute = round + 1;
						expect(result.error).toBeUndefined();
						for (const item of result.items) {
							const k = itemKey(item.json);
							delivered.set(k, (delivered.get(k) ?? 0) + 1);
						}
						const readGroup = result.items.some((item) => item.json.event === 'sessionExpired');
						if (afterAt === undefined) {
							groupPolls++;
							groupRequests += listRequests(sandbox).length - requests;
						}
						if (!during && expiredCount() > 0) {
							// The group is larger than a poll reads: these change while it is read.
							during = true;
							expect(expiredCount()).toBeLessThan(GROUP);
							changes(['d0', 'd1'], ['p0', 'p1']);
						}
						if (afterAt === undefined && expiredCount() === GROUP) {
							afterAt = minute;
							changes(['d2', 'd3'], ['p2', 'p3']);
						}
						if (restarts && readGroup) await n8n.restart();
					},
					advanceMs: 0,
				});

				expect(afterAt, 'the whole group was delivered within three hours').toBeDefined();
				const lost = [...expected.keys()].filter((k) => !delivered.has(k));
				const repeated = [...delivered].filter(([k, n]) => n > (expected.get(k) ?? 0));
				expect(lost.slice(0, 10), `${lost.length} lost`).toEqual([]);
				expect(repeated.slice(0, 10), `${repeated.length} repeated or invented`).toEqual([]);
				expect(delivered.size).toBe(expected.size);
				// ⌈N/100⌉ requests for the group, and two for each instant it shares (never a pass over it
				// twice), within AirSign's budget less the reserve, and no request refused.
				const sharedInstants = batch > 1 ? GROUP / batch : 0;
				expect(groupRequests).toBeLessThanOrEqual(Math.ceil(GROUP / 100) + 4 + 2 * sharedInstants);
				expect(Math.max(...requestsPerWindow(sandbox))).toBeLessThanOrEqual(60 - RESERVE);
				expect(listRequests(sandbox).filter((r) => r.status === 429)).toEqual([]);
				console.log(
					`${GROUP} sessions at one instant (${precision}${restarts ? ', restarts' : ''}): ` +
						`${groupRequests} List Sessions requests over ${groupPolls} polls ` +
						`(${listRequests(sandbox).length - requestsBefore} in all)`,
				);
			},
		);
	},
);
