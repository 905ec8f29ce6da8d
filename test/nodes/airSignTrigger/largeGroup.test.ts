import '../../harness';

import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { drive } from '../../harness/drive';

import type { Sandbox, Session } from '../../../sandbox';
import {
	ALL_EVENTS,
	listRequests,
	MINUTE,
	pollOk,
	savedTrigger,
	useTriggerSandbox,
	withTwo,
} from './helpers';

const sandbox = useTriggerSandbox();

const GROUP = 2_500;
const RESERVE = 10;

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
