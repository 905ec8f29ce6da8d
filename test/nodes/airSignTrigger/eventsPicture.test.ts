import '../../harness';

import { describe, expect, it } from 'vitest';

import {
	ALL_EVENTS,
	HOUR,
	line,
	listRequests,
	newTrigger,
	readyTrigger,
	two,
	useTriggerSandbox,
} from './helpers';

const getSandbox = useTriggerSandbox();

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
		const trigger = newTrigger(sandbox, { events: [...ALL_EVENTS] });
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
