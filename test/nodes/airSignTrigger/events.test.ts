import '../../harness';

import { describe, expect, it } from 'vitest';

import {
	ALL_EVENTS,
	HOUR,
	linesOf,
	listRequests,
	newTrigger,
	pollOk,
	readyTrigger,
	useTriggerSandbox,
	step,
	withTwo,
} from './helpers';

const sandbox = useTriggerSandbox();

describe('AirSign Trigger events: one transition at a time', () => {
	it('draft → pending → one signs → the other signs: Sent, one Recipient Status Changed per signer, Completed', async () => {
		const s = withTwo(sandbox, 'Deal');
		const t = await readyTrigger(sandbox);

		step(sandbox, () => sandbox.updateSession(s.sessionId, { status: 'pending' }));
		// Sending changes the recipients' statuses too (in the sandbox: notSent → sent).
		expect(await t.poll()).toEqual([
			'sessionSent Deal (was draft)',
			'recipientStatusChanged Deal ann@example.com notSent>sent (was draft)',
			'recipientStatusChanged Deal bob@example.com notSent>sent (was draft)',
			'anyChange Deal (was draft)',
		]);

		step(sandbox, () => sandbox.signRecipient(s.sessionId, { email: 'ann@example.com' }));
		expect(await t.poll()).toEqual([
			'recipientStatusChanged Deal ann@example.com sent>completed (was pending)',
			'anyChange Deal (was pending)',
		]);

		step(sandbox, () => sandbox.signRecipient(s.sessionId, { email: 'bob@example.com' }));
		expect(await t.poll()).toEqual([
			'recipientStatusChanged Deal bob@example.com sent>completed (was inProgress)',
			'sessionCompleted Deal (was inProgress)',
			'anyChange Deal (was inProgress)',
		]);
		const before = listRequests(sandbox).length;
		expect(await t.poll()).toEqual([]);
		expect(listRequests(sandbox).length - before).toBe(1);
	});

	it('collapsed between two polls: draft → pending → inProgress → completed gives each event once', async () => {
		const s = withTwo(sandbox, 'Fast');
		const t = await readyTrigger(sandbox);

		step(sandbox, () => sandbox.updateSession(s.sessionId, { status: 'pending' }));
		step(sandbox, () => sandbox.signRecipient(s.sessionId));
		step(sandbox, () => sandbox.signRecipient(s.sessionId));
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
		const a = withTwo(sandbox, 'A');
		const b = withTwo(sandbox, 'B', 'pending');
		const t = await readyTrigger(sandbox);

		step(sandbox, () => sandbox.updateSession(a.sessionId, { status: 'cancelled' }));
		sandbox.setRecipientStatus(b.sessionId, { email: 'bob@example.com', status: 'declined' });
		sandbox.clock.advance(1_000);
		expect(await t.poll()).toEqual([
			'sessionCancelled A (was draft)',
			'anyChange A (was draft)',
			'recipientStatusChanged B bob@example.com sent>declined (was pending)',
			'anyChange B (was pending)',
		]);
		step(sandbox, () => sandbox.updateSession(b.sessionId, { status: 'expired' }));
		expect(await t.poll()).toEqual(['sessionExpired B (was pending)', 'anyChange B (was pending)']);
	});

	it('a completed session changed again later gives no second Completed, within the day and long after', async () => {
		const s = withTwo(sandbox, 'Once', 'inProgress');
		const t = await readyTrigger(sandbox);
		step(sandbox, () => sandbox.updateSession(s.sessionId, { status: 'completed' }));
		expect(await t.poll()).toEqual([
			'sessionCompleted Once (was inProgress)',
			'anyChange Once (was inProgress)',
		]);
		step(sandbox, () => sandbox.updateSession(s.sessionId, { name: 'Once renamed' }));
		expect(await t.poll()).toEqual(['anyChange Once renamed (was completed)']);
		// Two days later (the memory forgot it after 25 h): still only Any Change, previous unknown.
		for (let i = 0; i < 48; i++) {
			sandbox.clock.advance(HOUR);
			expect(await t.poll()).toEqual([]);
		}
		expect(t.trigger.nodeStaticData.known).toEqual({});
		step(sandbox, () => sandbox.updateSession(s.sessionId, { name: 'Once again' }));
		expect(await t.poll()).toEqual(['anyChange Once again (was null)']);
	});

	it('a session created after the start: Created (and Sent when created sent), previous null', async () => {
		const t = await readyTrigger(sandbox);
		step(sandbox, () => withTwo(sandbox, 'Draft'));
		withTwo(sandbox, 'Sent', 'pending');
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
		const oldDone = withTwo(sandbox, 'Old done', 'completed');
		const inFlight = withTwo(sandbox, 'In flight', 'pending');
		const cancelled = withTwo(sandbox, 'Cancel me', 'pending');
		sandbox.clock.advance(HOUR);
		const trigger = newTrigger(sandbox, { events: [...ALL_EVENTS] });
		await pollOk(trigger);
		sandbox.clock.advance(1_000);
		// Changed in the first interval after the start.
		sandbox.updateSession(oldDone.sessionId, { name: 'Old done, renamed' });
		sandbox.signRecipient(inFlight.sessionId);
		sandbox.signRecipient(inFlight.sessionId);
		sandbox.updateSession(cancelled.sessionId, { status: 'cancelled' });
		sandbox.clock.advance(5_000);
		// (All three changed at one instant: their order is the service's.)
		expect(linesOf(await pollOk(trigger)).sort()).toEqual([
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
		const s = withTwo(sandbox, 'F', 'pending');
		const t = await readyTrigger(sandbox, {
			events: ['recipientStatusChanged'],
			filters: { recipientStatus: 'completed, declined' },
		});
		sandbox.setRecipientStatus(s.sessionId, { email: 'ann@example.com', status: 'viewed' });
		sandbox.clock.advance(1_000);
		expect(await t.poll()).toEqual([]);
		step(sandbox, () => sandbox.signRecipient(s.sessionId, { email: 'ann@example.com' }));
		expect(await t.poll()).toEqual([
			'recipientStatusChanged F ann@example.com viewed>completed (was pending)',
		]);

		const u = withTwo(sandbox, 'G');
		const onlyCancelled = await readyTrigger(sandbox, {
			events: ['anyChange'],
			filters: { status: ['cancelled'] },
		});
		step(sandbox, () => sandbox.updateSession(u.sessionId, { status: 'pending' }));
		step(sandbox, () => sandbox.updateSession(u.sessionId, { status: 'cancelled' }));
		expect(await onlyCancelled.poll()).toEqual(['anyChange G (was draft)']);
		// The list request has no status filter: every state is diffed.
		expect(listRequests(sandbox).at(-1)?.query.status).toBeUndefined();
	});

	it('an item carries the session as listed, event, previousStatus, previousStatusSeenAt; a recipient item the recipient with both statuses', async () => {
		const s = withTwo(sandbox, 'Shape', 'pending');
		const t = await readyTrigger(sandbox, { events: ['recipientStatusChanged'] });
		const seen = new Date(sandbox.clock.now()).toISOString().slice(0, 16);
		step(sandbox, () => sandbox.signRecipient(s.sessionId, { email: 'bob@example.com' }));
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
		sandbox.config.rateLimitPerHour = 1_000;
		const createdAt = (i: number) => sandbox.clock.now() - 10 * HOUR + Math.floor(i / 3) * 1_000;
		const ids = Array.from(
			{ length: 250 },
			(_, i) => withTwo(sandbox, `p${i}`, 'pending', { createdAt: createdAt(i) }).sessionId,
		);
		for (let i = 0; i < 20; i++) sandbox.createSession({ name: `done${i}`, status: 'completed' });
		sandbox.clock.advance(HOUR);
		const trigger = newTrigger(sandbox, { events: [...ALL_EVENTS] });
		// Sessions change while the activation reads the picture, before it reaches them.
		let changes = 0;
		const stop = sandbox.onRequest(({ query }) => {
			if (query.sortBy !== 'createdAt' || changes >= 3) return;
			sandbox.signRecipient(ids[[50, 150, 220][changes]]);
			changes++;
			sandbox.clock.advance(10);
		});
		await pollOk(trigger);
		stop();
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
		const lines = linesOf(await trigger.poll());
		const recipientLines = lines.filter((l) => l.startsWith('recipientStatusChanged'));
		expect(changes).toBe(3);
		// One per signer of the 22 taken as they were at the start. The 3 changed while the
		// activation read are first seen now: no signer invented, their completion proven.
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
		const createdAt = sandbox.clock.now() - HOUR;
		for (let i = 0; i < 6_000; i++)
			sandbox.createSession({ name: `p${i}`, status: 'draft', createdAt: createdAt + i });
		sandbox.clock.advance(HOUR);
		const trigger = newTrigger(sandbox, {
			events: [...ALL_EVENTS],
			options: { reserveRequests: 10 },
		});
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
		// The updates first (p5999, beyond what the activation read: previous unknown), then the
		// picture takes the rest. (Both changed at one instant: their order is the service's.)
		expect(linesOf(await trigger.poll()).sort()).toEqual([
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

it.each(['id', 'random'] as const)(
	'AirSign Trigger events: a starting picture with more sessions created at one instant than a page holds: reads them all by offsets within the instant, then moves past it (tie order %s)',
	async (tieOrder) => {
		sandbox.config.timestampPrecision = 's';
		sandbox.config.tieOrder = tieOrder;
		sandbox.config.rateLimitPerHour = 1_000;
		const createdAt = sandbox.clock.now() - HOUR;
		const ids = Array.from(
			{ length: 230 },
			(_, i) =>
				withTwo(sandbox, `tie${i}`, 'pending', { createdAt, updatedAt: createdAt }).sessionId,
		);
		for (let i = 0; i < 30; i++)
			withTwo(sandbox, `later${i}`, 'pending', { createdAt: createdAt + 1_000 });
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
