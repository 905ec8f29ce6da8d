import '../../harness';

import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { Sandbox } from '../../../sandbox';
import { line, listRequests, newTrigger, type TriggerOptions, useSandbox } from './helpers';
import { schedulerTrigger } from './scheduler';

const getSandbox = useSandbox();
const HOUR = 3_600_000;

/** A version 2 trigger, activated, with its starting picture read: ready to see changes. */
async function readyTrigger(sandbox: Sandbox, options: TriggerOptions = {}) {
	const trigger = newTrigger(sandbox, { version: 2, ...options });
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

const two = [
	{ name: 'Ann', email: 'ann@example.com' },
	{ name: 'Bob', email: 'bob@example.com' },
];

describe('AirSign Trigger events (version 2): one transition at a time', () => {
	it('draft → pending → one signs → the other signs: Sent, one Recipient Status Changed per signer, Completed', async () => {
		const sandbox = getSandbox();
		const s = sandbox.createSession({ name: 'Deal', recipients: two });
		sandbox.clock.advance(HOUR);
		const t = await readyTrigger(sandbox);

		sandbox.updateSession(s.sessionId, { status: 'pending' });
		sandbox.clock.advance(1_000);
		// Sending changes the recipients' statuses too (in the sandbox: notSent → sent).
		expect(await t.poll()).toEqual([
			'sessionSent Deal (was draft)',
			'recipientStatusChanged Deal ann@example.com notSent>sent (was draft)',
			'recipientStatusChanged Deal bob@example.com notSent>sent (was draft)',
			'anyChange Deal (was draft)',
		]);

		sandbox.signRecipient(s.sessionId, { email: 'ann@example.com' });
		sandbox.clock.advance(1_000);
		expect(await t.poll()).toEqual([
			'recipientStatusChanged Deal ann@example.com sent>completed (was pending)',
			'anyChange Deal (was pending)',
		]);

		sandbox.signRecipient(s.sessionId, { email: 'bob@example.com' });
		sandbox.clock.advance(1_000);
		expect(await t.poll()).toEqual([
			'recipientStatusChanged Deal bob@example.com sent>completed (was inProgress)',
			'sessionCompleted Deal (was inProgress)',
			'anyChange Deal (was inProgress)',
		]);
		// Quiet: one request, nothing.
		const before = listRequests(sandbox).length;
		expect(await t.poll()).toEqual([]);
		expect(listRequests(sandbox).length - before).toBe(1);
	});

	it('collapsed between two polls: draft → pending → inProgress → completed gives each event once', async () => {
		const sandbox = getSandbox();
		const s = sandbox.createSession({ name: 'Fast', recipients: two });
		sandbox.clock.advance(HOUR);
		const t = await readyTrigger(sandbox);

		sandbox.updateSession(s.sessionId, { status: 'pending' });
		sandbox.clock.advance(1_000);
		sandbox.signRecipient(s.sessionId);
		sandbox.clock.advance(1_000);
		sandbox.signRecipient(s.sessionId);
		sandbox.clock.advance(1_000);
		// The recipients' statuses are compared with the draft's (notSent), the last state seen.
		expect(await t.poll()).toEqual([
			'sessionSent Fast (was draft)',
			'recipientStatusChanged Fast ann@example.com notSent>completed (was draft)',
			'recipientStatusChanged Fast bob@example.com notSent>completed (was draft)',
			'sessionCompleted Fast (was draft)',
			'anyChange Fast (was draft)',
		]);
	});

	it('draft → cancelled gives only Cancelled; pending → expired gives Expired; a recipient status of any text passes through', async () => {
		const sandbox = getSandbox();
		const a = sandbox.createSession({ name: 'A', recipients: two });
		const b = sandbox.createSession({ name: 'B', recipients: two, status: 'pending' });
		sandbox.clock.advance(HOUR);
		const t = await readyTrigger(sandbox);

		sandbox.updateSession(a.sessionId, { status: 'cancelled' });
		sandbox.clock.advance(1_000);
		sandbox.setRecipientStatus(b.sessionId, { email: 'bob@example.com', status: 'declined' });
		sandbox.clock.advance(1_000);
		expect(await t.poll()).toEqual([
			'sessionCancelled A (was draft)',
			'anyChange A (was draft)',
			'recipientStatusChanged B bob@example.com sent>declined (was pending)',
			'anyChange B (was pending)',
		]);
		sandbox.updateSession(b.sessionId, { status: 'expired' });
		sandbox.clock.advance(1_000);
		expect(await t.poll()).toEqual(['sessionExpired B (was pending)', 'anyChange B (was pending)']);
	});

	it('a completed session changed again later gives no second Completed, within the day and long after', async () => {
		const sandbox = getSandbox();
		const s = sandbox.createSession({ name: 'Once', recipients: two, status: 'inProgress' });
		sandbox.clock.advance(HOUR);
		const t = await readyTrigger(sandbox);
		sandbox.updateSession(s.sessionId, { status: 'completed' });
		sandbox.clock.advance(1_000);
		expect(await t.poll()).toEqual([
			'sessionCompleted Once (was inProgress)',
			'anyChange Once (was inProgress)',
		]);
		sandbox.updateSession(s.sessionId, { name: 'Once renamed' });
		sandbox.clock.advance(1_000);
		expect(await t.poll()).toEqual(['anyChange Once renamed (was completed)']);
		// Two days later (the memory forgot it after 25 h): still only Any Change, previous unknown.
		for (let i = 0; i < 48; i++) {
			sandbox.clock.advance(HOUR);
			expect(await t.poll()).toEqual([]);
		}
		expect(t.trigger.nodeStaticData.known).toEqual({});
		sandbox.updateSession(s.sessionId, { name: 'Once again' });
		sandbox.clock.advance(1_000);
		expect(await t.poll()).toEqual(['anyChange Once again (was null)']);
	});

	it('a session created after the start: Created (and Sent when created sent), previous null', async () => {
		const sandbox = getSandbox();
		const t = await readyTrigger(sandbox);
		sandbox.createSession({ name: 'Draft', recipients: two });
		sandbox.clock.advance(1_000);
		sandbox.createSession({ name: 'Sent', recipients: two, status: 'pending' });
		sandbox.clock.advance(1_000);
		expect(await t.poll()).toEqual([
			'sessionCreated Draft (was null)',
			'anyChange Draft (was null)',
			'sessionCreated Sent (was null)',
			'sessionSent Sent (was null)',
			'anyChange Sent (was null)',
		]);
	});

	it('sessions from before the start: those in flight are known from the activation, a finished one gives only what its timestamps prove', async () => {
		const sandbox = getSandbox();
		const oldDone = sandbox.createSession({
			name: 'Old done',
			recipients: two,
			status: 'completed',
		});
		const inFlight = sandbox.createSession({
			name: 'In flight',
			recipients: two,
			status: 'pending',
		});
		const cancelled = sandbox.createSession({
			name: 'Cancel me',
			recipients: two,
			status: 'pending',
		});
		sandbox.clock.advance(HOUR);
		const trigger = newTrigger(sandbox, { version: 2 });
		expect((await trigger.poll()).error).toBeUndefined();
		sandbox.clock.advance(1_000);
		// Changed in the first interval after the start.
		sandbox.updateSession(oldDone.sessionId, { name: 'Old done, renamed' });
		sandbox.signRecipient(inFlight.sessionId);
		sandbox.signRecipient(inFlight.sessionId);
		sandbox.updateSession(cancelled.sessionId, { status: 'cancelled' });
		sandbox.clock.advance(5_000);
		const result = await trigger.poll();
		expect(result.error).toBeUndefined();
		// (All three changed at one instant: their order is the service's.)
		expect(result.items.map((i) => line(i.json)).sort()).toEqual([
			'anyChange Cancel me (was pending)',
			'anyChange In flight (was pending)',
			'anyChange Old done, renamed (was null)',
			'recipientStatusChanged In flight ann@example.com sent>completed (was pending)',
			'recipientStatusChanged In flight bob@example.com sent>completed (was pending)',
			'sessionCancelled Cancel me (was pending)',
			'sessionCompleted In flight (was pending)',
		]);
	});

	it('filters: the session status and the recipient status (any text) select items; the memory still follows every state', async () => {
		const sandbox = getSandbox();
		const s = sandbox.createSession({ name: 'F', recipients: two, status: 'pending' });
		sandbox.clock.advance(HOUR);
		const t = await readyTrigger(sandbox, {
			events: ['recipientStatusChanged'],
			filters: { recipientStatus: 'completed, declined' },
		});
		sandbox.setRecipientStatus(s.sessionId, { email: 'ann@example.com', status: 'viewed' });
		sandbox.clock.advance(1_000);
		expect(await t.poll()).toEqual([]);
		sandbox.signRecipient(s.sessionId, { email: 'ann@example.com' });
		sandbox.clock.advance(1_000);
		expect(await t.poll()).toEqual([
			'recipientStatusChanged F ann@example.com viewed>completed (was pending)',
		]);

		const u = sandbox.createSession({ name: 'G', recipients: two });
		sandbox.clock.advance(HOUR);
		const onlyCancelled = await readyTrigger(sandbox, {
			events: ['anyChange'],
			filters: { status: ['cancelled'] },
		});
		sandbox.updateSession(u.sessionId, { status: 'pending' });
		sandbox.clock.advance(1_000);
		sandbox.updateSession(u.sessionId, { status: 'cancelled' });
		sandbox.clock.advance(1_000);
		expect(await onlyCancelled.poll()).toEqual(['anyChange G (was draft)']);
		// The list request has no status filter: every state is diffed.
		expect(listRequests(sandbox).at(-1)?.query.status).toBeUndefined();
	});

	it('an item carries the session as listed, event, previousStatus, previousStatusSeenAt; a recipient item the recipient with both statuses', async () => {
		const sandbox = getSandbox();
		const s = sandbox.createSession({ name: 'Shape', recipients: two, status: 'pending' });
		sandbox.clock.advance(HOUR);
		const t = await readyTrigger(sandbox, { events: ['recipientStatusChanged'] });
		const seen = new Date(sandbox.clock.now()).toISOString().slice(0, 16);
		sandbox.signRecipient(s.sessionId, { email: 'bob@example.com' });
		sandbox.clock.advance(1_000);
		const [item] = await t.items();
		const listed = sandbox.getSession(s.sessionId)!;
		const bob = listed.recipients.find((r) => r.email === 'bob@example.com')!;
		expect(item).toMatchObject({
			sessionId: s.sessionId,
			name: 'Shape',
			status: 'inProgress',
			updatedAt: listed.updatedAt,
			event: 'recipientStatusChanged',
			previousStatus: 'pending',
			recipient: {
				recipientId: bob.recipientId,
				email: 'bob@example.com',
				previousStatus: 'sent',
				status: 'completed',
			},
		});
		// Seen when the trigger read its state: the minute of the poll that read the picture.
		expect(String(item.previousStatusSeenAt).slice(0, 14)).toBe(seen.slice(0, 14));
		expect(Date.parse(String(item.previousStatusSeenAt))).toBeLessThanOrEqual(sandbox.clock.now());
	});
});

describe('AirSign Trigger events: the starting picture', () => {
	it('reads the sessions in flight at the start by creation time over several pages, skipping those changed since', async () => {
		const sandbox = getSandbox();
		sandbox.config.rateLimitPerHour = 1_000;
		const ids: string[] = [];
		for (let i = 0; i < 250; i++) {
			ids.push(
				sandbox.createSession({
					name: `p${i}`,
					status: 'pending',
					recipients: two,
					createdAt: sandbox.clock.now() - 10 * HOUR + Math.floor(i / 3) * 1_000,
				}).sessionId,
			);
		}
		for (let i = 0; i < 20; i++) sandbox.createSession({ name: `done${i}`, status: 'completed' });
		sandbox.clock.advance(HOUR);
		const trigger = newTrigger(sandbox, { version: 2 });
		// While the activation reads the picture, sessions change (after the start, before it
		// reaches them).
		let changes = 0;
		const stop = sandbox.onRequest(({ query }) => {
			if (query.sortBy !== 'createdAt' || changes >= 3) return;
			sandbox.signRecipient(ids[[50, 150, 220][changes]]);
			changes++;
			sandbox.clock.advance(10);
		});
		const result = await trigger.poll();
		stop();
		expect(result.error).toBeUndefined();
		const pictureRequests = listRequests(sandbox).filter((r) => r.query.sortBy === 'createdAt');
		expect(pictureRequests.length).toBeGreaterThanOrEqual(3);
		expect(pictureRequests[0].query).toMatchObject({
			status: 'draft,pending,inProgress',
			sortOrder: 'asc',
		});
		expect(trigger.nodeStaticData).not.toHaveProperty('picture');
		sandbox.clock.advance(5_000);
		// Everything in flight is known now: each change is a diff with a known previous state.
		for (let i = 0; i < 250; i += 10) sandbox.signRecipient(ids[i], { email: 'bob@example.com' });
		sandbox.clock.advance(5_000);
		const after = await trigger.poll();
		const lines = after.items.map((i) => line(i.json));
		const recipientLines = lines.filter((l) => l.startsWith('recipientStatusChanged'));
		expect(changes).toBe(3);
		// One per signer of the 22 sessions the picture took as they were at the start. The 3
		// that changed while the activation read (after the start, before the picture reached
		// them) were not taken: they are first seen now, previous unknown: no signer is invented for them, and their completion
		// (completedDate after the start) is proven.
		expect(recipientLines).toHaveLength(22);
		for (const l of recipientLines)
			expect(l).toMatch(/bob@example.com sent>completed \(was pending\)$/);
		expect(lines.filter((l) => l.endsWith('(was null)')).sort()).toEqual(
			['anyChange', 'sessionCompleted'].flatMap((event) =>
				['p150', 'p220', 'p50'].map((name) => `${event} ${name} (was null)`),
			),
		);
	});

	it('a picture larger than the hour allows spreads over polls, keeps the reserve, and does not hold the update stream back', async () => {
		const sandbox = getSandbox();
		for (let i = 0; i < 6_000; i++)
			sandbox.createSession({
				name: `p${i}`,
				status: 'draft',
				createdAt: sandbox.clock.now() - HOUR + i,
			});
		sandbox.clock.advance(HOUR);
		const trigger = newTrigger(sandbox, { version: 2, options: { reserveRequests: 10 } });
		await trigger.poll();
		// The hour's 60 less the reserve: 50 pages (4,951 sessions) at activation.
		expect(listRequests(sandbox)).toHaveLength(50);
		expect(trigger.nodeStaticData).toHaveProperty('picture');
		sandbox.clock.advance(5_000);
		const fresh = sandbox.createSession({ name: 'brand new' });
		const late = sandbox.listAllSessions().find((s) => s.name === 'p5999')!;
		sandbox.updateSession(late.sessionId, { status: 'pending' });
		sandbox.clock.advance(5_000);
		// Waiting for the reset: no request.
		expect((await trigger.poll()).items).toEqual([]);
		expect(listRequests(sandbox)).toHaveLength(50);
		sandbox.clock.advance(HOUR);
		const after = await trigger.poll();
		// The updates come first (p5999, beyond what the activation read, is first seen changed:
		// previous unknown); the picture then takes what was not changed since the start.
		// (Both changed at one instant: their order is the service's.)
		expect(after.items.map((i) => line(i.json)).sort()).toEqual([
			'anyChange brand new (was null)',
			'anyChange p5999 (was null)',
			'sessionCreated brand new (was null)',
		]);
		expect(listRequests(sandbox)).toHaveLength(50 + 1 + 11);
		expect(trigger.nodeStaticData).not.toHaveProperty('picture');
		expect(Object.keys(trigger.nodeStaticData.known as object)).toHaveLength(6_001);
		expect(fresh.sessionId).toBeTruthy();
	});
});

describe.each([
	{ precision: 's' as const, inclusive: false },
	{ precision: 's' as const, inclusive: true },
	{ precision: 'ms' as const, inclusive: true },
])(
	'AirSign Trigger events with timestamps to the $precision, updatedAfter inclusive: $inclusive',
	({ precision, inclusive }) => {
		it('ties larger than a page, two states in one second, a 5xx and a 429 mid-poll, a restart: each event once', async () => {
			const sandbox = getSandbox();
			sandbox.config.timestampPrecision = precision;
			sandbox.config.updatedAfterInclusive = inclusive;
			sandbox.config.rateLimitPerHour = 1_000;
			const drafts = Array.from({ length: 150 }, (_, i) =>
				sandbox.createSession({ name: `d${i}`, recipients: two }),
			);
			sandbox.clock.advance(HOUR);
			const t = await readyTrigger(sandbox, {
				events: ['sessionSent', 'sessionCompleted', 'recipientStatusChanged'],
				filters: { recipientStatus: 'completed' },
			});
			// 150 sessions sent at one instant (a tie group larger than a page), then each signed
			// twice in the same second as its sending for a third of them.
			for (const d of drafts) sandbox.updateSession(d.sessionId, { status: 'pending' });
			for (const d of drafts.slice(0, 50)) {
				sandbox.signRecipient(d.sessionId);
				sandbox.signRecipient(d.sessionId);
			}
			sandbox.clock.advance(1_000);
			sandbox.injectFault({
				kind: 'status',
				status: 503,
				path: '/api/v1/Sessions',
				skip: 1,
				count: 2,
			});
			sandbox.injectFault({ kind: 'rateLimit', retryAfter: 60, path: '/api/v1/Sessions', skip: 3 });
			const lines: string[] = [];
			for (let poll = 0; poll < 12; poll++) {
				const result = await t.trigger.poll();
				sandbox.clearFaults();
				lines.push(...result.items.map((i) => line(i.json)));
				if (poll === 2) t.trigger.restart();
				sandbox.clock.advance(5_000);
			}
			const count = (prefix: string) => lines.filter((l) => l.startsWith(prefix)).length;
			expect(count('sessionSent')).toBe(150);
			expect(count('sessionCompleted')).toBe(50);
			expect(count('recipientStatusChanged')).toBe(100);
			expect(new Set(lines).size).toBe(lines.length);
			expect(lines.filter((l) => l.includes('(was null)'))).toEqual([]);
		});
	},
);

describe.each([true, false])(
	"AirSign Trigger events under n8n 2.x's database-backed poll scheduler (durable cursors: %s)",
	(durableCursors) => {
		it('the activation poll, the picture, then each completion once, also when the session changes again', async () => {
			const sandbox = getSandbox();
			const a = sandbox.createSession({ name: 'A', recipients: two, status: 'pending' });
			const b = sandbox.createSession({ name: 'B', recipients: two, status: 'inProgress' });
			sandbox.clock.advance(HOUR);
			const engine = schedulerTrigger(sandbox, {
				durableCursors,
				version: 2,
				events: ['sessionCompleted', 'recipientStatusChanged'],
			});
			const lines: string[] = [];
			const poll = async () => {
				const result = await engine.poll();
				expect(result.error).toBeUndefined();
				lines.push(...result.items.map((i) => line(i.json)));
				sandbox.clock.advance(30_000);
			};
			await poll(); // activation
			sandbox.signRecipient(a.sessionId, { email: 'ann@example.com' });
			sandbox.clock.advance(1_000);
			await poll();
			await poll();
			sandbox.updateSession(b.sessionId, { status: 'completed' });
			sandbox.clock.advance(1_000);
			await poll();
			sandbox.updateSession(b.sessionId, { name: 'B renamed' });
			sandbox.signRecipient(a.sessionId, { email: 'bob@example.com' });
			sandbox.clock.advance(1_000);
			await poll();
			await poll();
			sandbox.updateSession(a.sessionId, { touch: true });
			sandbox.clock.advance(1_000);
			await poll();
			await poll();
			// Both were in flight at activation: each change is a diff with a known state, although
			// the scheduler kept nothing the activation poll wrote to the node.
			expect(lines).toEqual([
				'recipientStatusChanged A ann@example.com sent>completed (was pending)',
				'sessionCompleted B (was inProgress)',
				'recipientStatusChanged A bob@example.com sent>completed (was inProgress)',
				'sessionCompleted A (was inProgress)',
			]);
		});
	},
);

describe('AirSign Trigger events: Fetch Test Event', () => {
	it('gives a sample of the first chosen event and moves nothing', async () => {
		const sandbox = getSandbox();
		sandbox.createSession({ name: 'older done', status: 'completed', recipients: two });
		sandbox.clock.advance(1_000);
		sandbox.createSession({ name: 'newest done', status: 'completed', recipients: two });
		sandbox.clock.advance(1_000);
		sandbox.createSession({ name: 'signing', status: 'inProgress', recipients: two });
		sandbox.clock.advance(1_000);
		const completed = newTrigger(sandbox, {
			version: 2,
			mode: 'manual',
			events: ['sessionCompleted'],
		});
		const result = await completed.poll();
		expect(result.items.map((i) => i.json)).toEqual([
			expect.objectContaining({
				name: 'newest done',
				event: 'sessionCompleted',
				previousStatus: null,
				previousStatusSeenAt: null,
			}),
		]);
		expect(completed.nodeStaticData).toEqual({});
		const recipient = newTrigger(sandbox, {
			version: 2,
			mode: 'manual',
			events: ['recipientStatusChanged'],
		});
		const [item] = (await recipient.poll()).items.map((i) => i.json);
		expect(item).toMatchObject({
			name: 'signing',
			event: 'recipientStatusChanged',
			recipient: { email: 'ann@example.com', previousStatus: null, status: 'sent' },
		});
		expect(listRequests(sandbox)).toHaveLength(2);
	});
});

describe('AirSign Trigger events: Start From and more transition paths', () => {
	it('Start From a past date: the picture takes the sessions as they were then; changes since are proven by timestamps or diffed', async () => {
		const sandbox = getSandbox();
		const startFrom = sandbox.clock.now();
		sandbox.clock.advance(-HOUR);
		const before = sandbox.createSession({ name: 'before', recipients: two, status: 'pending' });
		sandbox.clock.advance(2 * HOUR);
		const created = sandbox.createSession({ name: 'since', recipients: two });
		sandbox.clock.advance(1_000);
		sandbox.signRecipient(before.sessionId);
		sandbox.clock.advance(1_000);
		const trigger = newTrigger(sandbox, {
			version: 2,
			options: { startFrom: new Date(startFrom).toISOString() },
		});
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		// "before" changed after the date, before any picture: unknown previous, no signer invented.
		expect(first.items.map((i) => line(i.json))).toEqual([
			'sessionCreated since (was null)',
			'anyChange since (was null)',
			'anyChange before (was null)',
		]);
		expect(trigger.nodeStaticData).not.toHaveProperty('picture');
		sandbox.clock.advance(5_000);
		sandbox.signRecipient(before.sessionId);
		sandbox.updateSession(created.sessionId, { status: 'pending' });
		sandbox.clock.advance(5_000);
		const second = await trigger.poll();
		// (Both changed at one instant: the order of the two sessions is the service's.)
		const bySession = (name: string) => second.items.filter((i) => i.json.name === name);
		expect([...bySession('before'), ...bySession('since')].map((i) => line(i.json))).toEqual([
			'recipientStatusChanged before bob@example.com sent>completed (was inProgress)',
			'sessionCompleted before (was inProgress)',
			'anyChange before (was inProgress)',
			'sessionSent since (was draft)',
			'recipientStatusChanged since ann@example.com notSent>sent (was draft)',
			'recipientStatusChanged since bob@example.com notSent>sent (was draft)',
			'anyChange since (was draft)',
		]);
	});

	it('pending → cancelled, inProgress → expired, and a final state left again (completed → pending → completed)', async () => {
		const sandbox = getSandbox();
		const a = sandbox.createSession({ name: 'A', recipients: two, status: 'pending' });
		const b = sandbox.createSession({ name: 'B', recipients: two, status: 'inProgress' });
		sandbox.clock.advance(HOUR);
		const t = await readyTrigger(sandbox, {
			events: ['sessionCancelled', 'sessionExpired', 'sessionCompleted', 'sessionSent'],
		});
		sandbox.updateSession(a.sessionId, { status: 'cancelled' });
		sandbox.clock.advance(1_000);
		sandbox.updateSession(b.sessionId, { status: 'expired' });
		sandbox.clock.advance(1_000);
		expect(await t.poll()).toEqual([
			'sessionCancelled A (was pending)',
			'sessionExpired B (was inProgress)',
		]);
		sandbox.updateSession(a.sessionId, { status: 'pending' });
		sandbox.clock.advance(1_000);
		expect(await t.poll()).toEqual([]);
		sandbox.updateSession(a.sessionId, { status: 'completed' });
		sandbox.clock.advance(1_000);
		expect(await t.poll()).toEqual(['sessionCompleted A (was pending)']);
	});
});

describe('AirSign Trigger events: a starting picture with more sessions created at one instant than a page holds', () => {
	it.each(['id', 'random'] as const)(
		'reads them all by offsets within the instant, then moves past it (tie order %s)',
		async (tieOrder) => {
			const sandbox = getSandbox();
			sandbox.config.timestampPrecision = 's';
			sandbox.config.tieOrder = tieOrder;
			sandbox.config.rateLimitPerHour = 1_000;
			const createdAt = sandbox.clock.now() - HOUR;
			const ids = Array.from(
				{ length: 230 },
				(_, i) =>
					sandbox.createSession({
						name: `tie${i}`,
						status: 'pending',
						recipients: two,
						createdAt,
						updatedAt: createdAt,
					}).sessionId,
			);
			for (let i = 0; i < 30; i++)
				sandbox.createSession({
					name: `later${i}`,
					status: 'pending',
					recipients: two,
					createdAt: createdAt + 1_000,
				});
			sandbox.clock.advance(HOUR);
			const t = await readyTrigger(sandbox, {
				events: ['recipientStatusChanged'],
				filters: { recipientStatus: 'completed' },
			});
			expect(t.trigger.nodeStaticData).not.toHaveProperty('picture');
			for (const id of ids) sandbox.signRecipient(id);
			sandbox.clock.advance(1_000);
			const lines: string[] = [];
			for (let i = 0; i < 3; i++) lines.push(...(await t.poll()));
			// Every one of the 230 was known: one signer each, none unknown.
			expect(lines).toHaveLength(230);
			expect(lines.every((l) => l.endsWith('(was pending)'))).toBe(true);
		},
	);
});

describe('AirSign Trigger events: requests', () => {
	it('a burst costs version 2 exactly what it costs version 1 (the events come from the same pages)', async () => {
		const sandbox = getSandbox();
		sandbox.config.rateLimitPerHour = 1_000;
		const sessions = Array.from({ length: 250 }, (_, i) =>
			sandbox.createSession({ name: `b${i}`, status: 'pending', recipients: two }),
		);
		sandbox.clock.advance(HOUR);
		const v2 = await readyTrigger(sandbox);
		const v1 = newTrigger(sandbox, { version: 1 });
		await v1.poll();
		sandbox.clock.advance(5_000);
		for (const s of sessions) {
			sandbox.signRecipient(s.sessionId);
			sandbox.clock.advance(1);
		}
		sandbox.clock.advance(5_000);
		const cost = async (poll: () => Promise<unknown>) => {
			const before = listRequests(sandbox).length;
			await poll();
			return listRequests(sandbox).length - before;
		};
		const v1Cost = await cost(() => v1.poll());
		const v2Cost = await cost(() => v2.trigger.poll());
		expect(v1Cost).toBe(3);
		expect(v2Cost).toBe(v1Cost);
	});
});
