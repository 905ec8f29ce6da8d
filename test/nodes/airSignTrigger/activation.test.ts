import '../../harness';

import type { PollingHarness } from '../../harness';
import { useSandbox } from '../../harness/sandbox';

import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { Sandbox } from '../../../sandbox';
import {
	ALL_EVENTS,
	clientCredential,
	holdListSessions,
	HOUR,
	linesOf,
	listRequests,
	newTrigger,
	pollOk,
	savedTrigger,
	SESSIONS,
	T0,
	useTriggerSandbox,
	withTwo,
} from './helpers';

const sandbox = useTriggerSandbox();

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
		const s = sessionsAtActivation(sandbox);
		const trigger = newTrigger(sandbox, { events: EVENTS, filters: FILTERS });
		expect((await pollOk(trigger)).items).toEqual([]);
		changeInFirstInterval(sandbox, s);
		expect(linesOf(await pollOk(trigger)).sort()).toEqual(EXPECTED);
		sandbox.clock.advance(5_000);
		expect((await trigger.poll()).items).toEqual([]);
	});

	it.each([
		['after activation and a quiet poll (only the activation was saved)', true],
		['right after activation', false],
	])('n8n restarts %s: nothing lost', async (_label, quietPoll) => {
		const s = sessionsAtActivation(sandbox);
		const n8n = savedTrigger(sandbox, { events: EVENTS, filters: FILTERS });
		await pollOk(n8n);
		if (quietPoll) {
			sandbox.clock.advance(60_000);
			expect((await n8n.poll()).items).toEqual([]);
			await n8n.restart();
		}
		changeInFirstInterval(sandbox, s);
		if (!quietPoll) await n8n.restart();
		expect(linesOf(await pollOk(n8n)).sort()).toEqual(EXPECTED);
	});

	it('the activation reads the sessions in flight in one write with the cursor; every idle poll after it costs one request', async () => {
		sessionsAtActivation(sandbox);
		const trigger = newTrigger(sandbox, { events: [...ALL_EVENTS] });
		await trigger.poll();
		for (let i = 0; i < 3; i++) {
			sandbox.clock.advance(60_000);
			const before = listRequests(sandbox).length;
			expect((await trigger.poll()).items).toEqual([]);
			expect(listRequests(sandbox).length - before).toBe(1);
		}
		// Kept plainly in the node's static data: by the full session ID, readable.
		const known = trigger.nodeStaticData.known as Record<string, IDataObject>;
		expect(Object.keys(known)).toHaveLength(40);
		for (const id of Object.keys(known)) expect(id).toMatch(/^[0-9a-f-]{36}$/);
		expect(trigger.nodeStaticData).not.toHaveProperty('picture');
	});
});

const ids = (result: Awaited<ReturnType<PollingHarness['poll']>>) =>
	result.items.map((item) => item.json.sessionId);

describe('AirSign Trigger: n8n starts a poll while the previous one is still running', () => {
	it('the second poll does nothing; the running one delivers each update once', async () => {
		const trigger = newTrigger(sandbox);
		expect((await trigger.poll()).emitted).toBe(false); // activation: the cursor is "now"
		sandbox.clock.advance(5_000);
		const session = sandbox.createSession({ name: 'Signed contract' });
		sandbox.clock.advance(5_000);

		const hold = holdListSessions(sandbox);
		const running = trigger.poll();
		await hold.arrived;
		const overlapping = await trigger.poll();
		expect(overlapping).toMatchObject({ emitted: false, items: [] });
		expect(overlapping.error).toBeUndefined();
		// The overlapping poll sent nothing: only the running poll's request reached AirSign.
		expect(hold.arrivals).toBe(1);

		hold.release();
		expect(ids(await running)).toEqual([session.sessionId]);

		const requestsAfterFirst = listRequests(sandbox).length;
		// Once it has ended, the next tick polls again, and the update does not come back.
		sandbox.clock.advance(60_000);
		expect((await pollOk(trigger)).items).toEqual([]);
		expect(listRequests(sandbox).length).toBeGreaterThan(requestsAfterFirst);
	});

	it('a poll that failed lets the next one run', async () => {
		const trigger = newTrigger(sandbox);
		await trigger.poll();
		sandbox.clock.advance(5_000);
		sandbox.injectFault({ kind: 'status', status: 403, path: SESSIONS, count: 1 });
		expect((await trigger.poll()).error).toBeDefined();

		const session = sandbox.createSession({ name: 'After the failure' });
		sandbox.clock.advance(5_000);
		expect(ids(await pollOk(trigger))).toEqual([session.sessionId]);
	});

	it('two different triggers poll at the same time, each on its own', async () => {
		const triggers = [newTrigger(sandbox), newTrigger(sandbox)];
		for (const trigger of triggers) await trigger.poll();
		sandbox.clock.advance(5_000);
		const session = sandbox.createSession({ name: 'Seen by both' });
		sandbox.clock.advance(5_000);
		for (const result of await Promise.all(triggers.map(async (t) => await t.poll())))
			expect(ids(result)).toEqual([session.sessionId]);
	});
});

// One poll context from activation on, but `getCredentials` reads the credential as saved now: an
// edit applies from the next poll (docs/credentials.md). The real AirSign is a sandbox of its own.
describe('AirSign Trigger: the credential edited while the workflow is active', () => {
	const getReal = useSandbox({ now: T0 });

	/** Both services' clocks move together, past the trigger's settling window. */
	function advance(trial: Sandbox, real: Sandbox, ms = 5_000): void {
		trial.clock.advance(ms);
		real.clock.set(trial.clock.now());
	}

	/** Saves an edit of the trigger's credential, as n8n's credential dialog does. */
	const editCredential = async (trigger: PollingHarness, changes: ICredentialDataDecryptedObject) =>
		await trigger.env.editCredential(trigger.node.credentials!.airSignApi.id!, changes);

	it('access token: the next poll goes to the new Base URL with the new token', async () => {
		const [trial, real] = [sandbox, getReal()];
		const trigger = newTrigger(trial);
		await pollOk(trigger); // activation
		advance(trial, real);
		const tried = trial.createSession({ name: 'Tried out' });
		advance(trial, real);
		expect(ids(await trigger.poll())).toEqual([tried.sessionId]);

		await editCredential(trigger, { baseUrl: real.baseUrl, accessToken: real.other.accessToken });
		const trialRequests = trial.requests.length;
		advance(trial, real);
		const signed = real.createSession({ name: 'Signed for real', orgId: real.other.orgId });
		advance(trial, real);
		expect(ids(await pollOk(trigger))).toEqual([signed.sessionId]);
		expect(trial.requests.length).toBe(trialRequests);
		expect(listRequests(real).map((r) => [r.status, r.orgId])).toEqual([[200, real.other.orgId]]);
	});

	it('client credentials: the token is fetched from the new Base URL and used there', async () => {
		const [trial, real] = [sandbox, getReal()];
		const trigger = newTrigger(trial, { credential: clientCredential(trial) });
		await pollOk(trigger);
		advance(trial, real);

		// The trial's token stays saved with the credential, as n8n keeps an untouched hidden field.
		await editCredential(trigger, {
			baseUrl: real.baseUrl,
			clientId: real.other.clientId,
			clientSecret: real.other.clientSecret,
		});
		const trialRequests = trial.requests.length;
		trial.createSession({ name: 'Still in the trial' });
		const signed = real.createSession({ name: 'Signed for real', orgId: real.other.orgId });
		advance(trial, real);
		expect(ids(await pollOk(trigger))).toEqual([signed.sessionId]);
		expect(trial.requests.length).toBe(trialRequests);
		expect(real.requests.some((r) => r.path.endsWith('/token') && r.status === 200)).toBe(true);
		expect(listRequests(real).filter((r) => r.status === 200)).toMatchObject([
			{ orgId: real.other.orgId },
		]);
	});
});
