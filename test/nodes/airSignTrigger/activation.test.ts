import '../../harness';

import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { Sandbox } from '../../../sandbox';
import {
	ALL_EVENTS,
	HOUR,
	line,
	listRequests,
	newTrigger,
	savedTrigger,
	useTriggerSandbox,
	withTwo,
} from './helpers';

const getSandbox = useTriggerSandbox();

/** Sessions out for signature and a draft, all from before the trigger is activated. */
function sessionsAtActivation(sandbox: Sandbox) {
	const sessions = {
		draft: withTwo(sandbox, 'Draft'),
		signing: withTwo(sandbox, 'Signing', 'pending'),
		cancel: withTwo(sandbox, 'Cancel', 'pending'),
		expire: withTwo(sandbox, 'Expire', 'inProgress'),
	};
	for (let i = 0; i < 36; i++) withTwo(sandbox, `other ${i}`, 'pending');
	sandbox.clock.advance(HOUR);
	return sessions;
}

/** In the first interval after activation: sent, signed, cancelled, expired (no expiryDate). */
function changeInFirstInterval(sandbox: Sandbox, s: ReturnType<typeof sessionsAtActivation>) {
	sandbox.clock.advance(1_000);
	sandbox.updateSession(s.draft.sessionId, { status: 'pending' });
	sandbox.signRecipient(s.signing.sessionId, { email: 'ann@example.com' });
	sandbox.updateSession(s.cancel.sessionId, { status: 'cancelled' });
	sandbox.updateSession(s.expire.sessionId, { status: 'expired', expiryDate: null });
	sandbox.clock.advance(5_000);
}

const EXPECTED = [
	'recipientStatusChanged Signing ann@example.com sent>completed (was pending)',
	'sessionCancelled Cancel (was pending)',
	'sessionExpired Expire (was inProgress)',
	'sessionSent Draft (was draft)',
];
const EVENTS = ['sessionSent', 'recipientStatusChanged', 'sessionCancelled', 'sessionExpired'];
const FILTERS = { recipientStatus: 'completed' };

describe('AirSign Trigger: sessions in flight at activation change in the first interval', () => {
	it('sent, signed, cancelled and expired before the next poll: each event once, with the real previous status', async () => {
		const sandbox = getSandbox();
		const s = sessionsAtActivation(sandbox);
		const trigger = newTrigger(sandbox, { events: EVENTS, filters: FILTERS });
		const activation = await trigger.poll();
		expect(activation.error).toBeUndefined();
		expect(activation.items).toEqual([]);
		changeInFirstInterval(sandbox, s);
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(first.items.map((i) => line(i.json)).sort()).toEqual(EXPECTED);
		sandbox.clock.advance(5_000);
		expect((await trigger.poll()).items).toEqual([]);
	});

	it('n8n restarts after activation and a quiet poll (only the activation was saved): nothing lost', async () => {
		const sandbox = getSandbox();
		const s = sessionsAtActivation(sandbox);
		const n8n = savedTrigger(sandbox, { events: EVENTS, filters: FILTERS });
		expect((await n8n.poll()).error).toBeUndefined();
		sandbox.clock.advance(60_000);
		const quiet = await n8n.poll();
		expect(quiet.items).toEqual([]);
		await n8n.restart();
		changeInFirstInterval(sandbox, s);
		const after = await n8n.poll();
		expect(after.error).toBeUndefined();
		expect(after.items.map((i) => line(i.json)).sort()).toEqual(EXPECTED);
	});

	it('n8n restarts right after activation: nothing lost', async () => {
		const sandbox = getSandbox();
		const s = sessionsAtActivation(sandbox);
		const n8n = savedTrigger(sandbox, { events: EVENTS, filters: FILTERS });
		expect((await n8n.poll()).error).toBeUndefined();
		changeInFirstInterval(sandbox, s);
		await n8n.restart();
		const after = await n8n.poll();
		expect(after.items.map((i) => line(i.json)).sort()).toEqual(EXPECTED);
	});

	it('the activation reads the sessions in flight in one write with the cursor; every idle poll after it costs one request', async () => {
		const sandbox = getSandbox();
		sessionsAtActivation(sandbox);
		const trigger = newTrigger(sandbox, { events: [...ALL_EVENTS] });
		await trigger.poll();
		for (let i = 0; i < 3; i++) {
			sandbox.clock.advance(60_000);
			const before = listRequests(sandbox).length;
			const quiet = await trigger.poll();
			expect(quiet.items).toEqual([]);
			expect(listRequests(sandbox).length - before).toBe(1);
		}
		// Kept plainly in the node's static data: by the full session ID, readable.
		const known = trigger.nodeStaticData.known as Record<string, IDataObject>;
		expect(Object.keys(known)).toHaveLength(40);
		for (const id of Object.keys(known)) expect(id).toMatch(/^[0-9a-f-]{36}$/);
		expect(trigger.nodeStaticData).not.toHaveProperty('picture');
	});
});
