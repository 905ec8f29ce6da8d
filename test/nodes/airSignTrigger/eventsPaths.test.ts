import '../../harness';

import { describe, expect, it } from 'vitest';

import { drive } from '../../harness/drive';

import {
	ALL_EVENTS,
	HOUR,
	line,
	linesOf,
	listRequests,
	newTrigger,
	pollOk,
	readyTrigger,
	SESSIONS,
	useTriggerSandbox,
	step,
	withTwo,
	schedulerTrigger,
} from './helpers';

const sandbox = useTriggerSandbox();

describe.each([
	{ precision: 's' as const, inclusive: false },
	{ precision: 's' as const, inclusive: true },
	{ precision: 'ms' as const, inclusive: true },
])(
	'AirSign Trigger events with timestamps to the $precision, updatedAfter inclusive: $inclusive',
	({ precision, inclusive }) => {
		it('ties larger than a page, two states in one second, a 5xx and a 429 mid-poll, a restart: each event once', async () => {
			sandbox.config.timestampPrecision = precision;
			sandbox.config.updatedAfterInclusive = inclusive;
			sandbox.config.rateLimitPerHour = 1_000;
			const drafts = Array.from({ length: 150 }, (_, i) => withTwo(sandbox, `d${i}`));
			const t = await readyTrigger(sandbox, {
				events: ['sessionSent', 'sessionCompleted', 'recipientStatusChanged'],
				filters: { recipientStatus: 'completed' },
			});
			// 150 sent at one instant (a tie group larger than a page), a third signed in that second.
			for (const d of drafts) sandbox.updateSession(d.sessionId, { status: 'pending' });
			for (const d of drafts.slice(0, 50)) {
				sandbox.signRecipient(d.sessionId);
				sandbox.signRecipient(d.sessionId);
			}
			sandbox.clock.advance(1_000);
			sandbox.injectFault({ kind: 'status', status: 503, path: SESSIONS, skip: 1, count: 2 });
			sandbox.injectFault({ kind: 'rateLimit', retryAfter: 60, path: SESSIONS, skip: 3 });
			const lines: string[] = [];
			await drive(sandbox, {
				while: (poll) => poll < 12,
				poll: () => t.trigger.poll(),
				after: (result, poll) => {
					sandbox.clearFaults();
					lines.push(...linesOf(result));
					if (poll === 2) t.trigger.restart();
				},
			});
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
			const a = withTwo(sandbox, 'A', 'pending');
			const b = withTwo(sandbox, 'B', 'inProgress');
			sandbox.clock.advance(HOUR);
			const engine = schedulerTrigger(sandbox, {
				durableCursors,
				events: ['sessionCompleted', 'recipientStatusChanged'],
			});
			const lines: string[] = [];
			const poll = async () => {
				lines.push(...linesOf(await pollOk(engine)));
				sandbox.clock.advance(30_000);
			};
			await poll(); // activation
			step(sandbox, () => sandbox.signRecipient(a.sessionId, { email: 'ann@example.com' }));
			await poll();
			await poll();
			step(sandbox, () => sandbox.updateSession(b.sessionId, { status: 'completed' }));
			await poll();
			sandbox.updateSession(b.sessionId, { name: 'B renamed' });
			step(sandbox, () => sandbox.signRecipient(a.sessionId, { email: 'bob@example.com' }));
			await poll();
			await poll();
			step(sandbox, () => sandbox.updateSession(a.sessionId, { touch: true }));
			await poll();
			await poll();
			// Both in flight at activation: each change diffs with a known state, although the
			// scheduler kept nothing the activation poll wrote to the node.
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
	/** What the List Sessions request of one event's sample asks (one page of one session). */
	const sampleQuery = (status: string | undefined, sortBy = 'updatedAt') => ({
		...(status && { status }),
		sortBy,
		sortOrder: 'desc',
		limit: '1',
		offset: '0',
	});
	const sessions = () => {
		for (const [name, status] of [
			['older done', 'completed'],
			['newest done', 'completed'],
			['signing', 'inProgress'],
		] as const)
			step(sandbox, () => withTwo(sandbox, name, status));
		return sandbox;
	};

	it('gives one sample per chosen event, in the order chosen, each shaped as that event; one request each, and moves nothing', async () => {
		const sandbox = sessions();
		const trigger = newTrigger(sandbox, {
			mode: 'manual',
			events: ['recipientStatusChanged', 'sessionCompleted'],
		});
		const result = await pollOk(trigger);
		expect(result.items.map((i) => i.json)).toEqual([
			expect.objectContaining({
				name: 'signing',
				event: 'recipientStatusChanged',
				previousStatus: null,
				previousStatusSeenAt: null,
				recipient: expect.objectContaining({
					email: 'ann@example.com',
					previousStatus: null,
					status: 'sent',
				}),
			}),
			expect.objectContaining({
				name: 'newest done',
				event: 'sessionCompleted',
				previousStatus: null,
				previousStatusSeenAt: null,
			}),
		]);
		expect(result.items[1].json).not.toHaveProperty('recipient');
		expect(listRequests(sandbox).map((r) => r.query)).toEqual([
			sampleQuery('inProgress,completed'),
			sampleQuery('completed', 'completedDate'),
		]);
		expect(trigger.nodeStaticData).toEqual({});
	});

	it('every event chosen: a request for each, a sample for each that has a session', async () => {
		const sandbox = sessions();
		const trigger = newTrigger(sandbox, { mode: 'manual', events: [...ALL_EVENTS] });
		// In the order chosen (the panel's); no session was cancelled or expired: those give none.
		expect(linesOf(await pollOk(trigger))).toEqual([
			'anyChange signing (was null)',
			'recipientStatusChanged signing ann@example.com null>sent (was null)',
			'sessionCompleted newest done (was null)',
			'sessionCreated signing (was null)',
			'sessionSent signing (was null)',
		]);
		expect(listRequests(sandbox)).toHaveLength(ALL_EVENTS.length);
		expect(trigger.nodeStaticData).toEqual({});
	});

	it('Recipient Status Changed gives no sample of a session without recipients', async () => {
		const sandbox = sessions();
		sandbox.createSession({ name: 'nobody', status: 'inProgress', recipients: [] });
		const trigger = newTrigger(sandbox, {
			mode: 'manual',
			events: ['sessionCompleted', 'recipientStatusChanged'],
		});
		expect(linesOf(await pollOk(trigger))).toEqual(['sessionCompleted newest done (was null)']);
		expect(listRequests(sandbox)).toHaveLength(2);
	});
});

describe('AirSign Trigger events: Start From and more transition paths', () => {
	it('Start From a past date: the picture takes the sessions as they were then; changes since are proven by timestamps or diffed', async () => {
		const startFrom = sandbox.clock.now();
		sandbox.clock.advance(-HOUR);
		const before = withTwo(sandbox, 'before', 'pending');
		sandbox.clock.advance(2 * HOUR);
		const created = withTwo(sandbox, 'since');
		sandbox.clock.advance(1_000);
		step(sandbox, () => sandbox.signRecipient(before.sessionId));
		const trigger = newTrigger(sandbox, {
			events: [...ALL_EVENTS],
			options: { startFrom: new Date(startFrom).toISOString() },
		});
		// "before" changed after the date, before any picture: unknown previous, no signer invented.
		expect(linesOf(await pollOk(trigger))).toEqual([
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
		const a = withTwo(sandbox, 'A', 'pending');
		const b = withTwo(sandbox, 'B', 'inProgress');
		const t = await readyTrigger(sandbox, {
			events: ['sessionCancelled', 'sessionExpired', 'sessionCompleted', 'sessionSent'],
		});
		step(sandbox, () => sandbox.updateSession(a.sessionId, { status: 'cancelled' }));
		step(sandbox, () => sandbox.updateSession(b.sessionId, { status: 'expired' }));
		expect(await t.poll()).toEqual([
			'sessionCancelled A (was pending)',
			'sessionExpired B (was inProgress)',
		]);
		step(sandbox, () => sandbox.updateSession(a.sessionId, { status: 'pending' }));
		expect(await t.poll()).toEqual([]);
		step(sandbox, () => sandbox.updateSession(a.sessionId, { status: 'completed' }));
		expect(await t.poll()).toEqual(['sessionCompleted A (was pending)']);
	});
});

it('AirSign Trigger events: a burst costs every event exactly what it costs Any Change alone (the events come from the same pages)', async () => {
	sandbox.config.rateLimitPerHour = 1_000;
	const sessions = Array.from({ length: 250 }, (_, i) => withTwo(sandbox, `b${i}`, 'pending'));
	const every = await readyTrigger(sandbox);
	const anyChange = await readyTrigger(sandbox, { events: ['anyChange'] });
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
	const anyChangeCost = await cost(() => anyChange.trigger.poll());
	const everyCost = await cost(() => every.trigger.poll());
	expect(anyChangeCost).toBe(3);
	expect(everyCost).toBe(anyChangeCost);
});
