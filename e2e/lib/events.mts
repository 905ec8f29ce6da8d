// The events track's scenario (e2e/scenarios/events.mts; issue 21): the two v2 trigger examples
// (Session Completed; Recipient Status Changed, filtered to signatures) and a third workflow on
// Session Sent, Cancelled and Expired, active side by side against one sandbox, through three
// phases of signatures, completions and renames; each phase waits until n8n has recorded what it
// must cause. The ledgers are in eventLedger.mts, checks k, l and q in eventChecks.mts.
import assert from 'node:assert/strict';
import { activateWorkflowAsEditor } from './n8n.mts';
import { pollUntil } from './checks.mts';
import type { ExampleWorkflow, SandboxClient } from './examples.mts';
import {
	executionLedger,
	triggerOf,
	waitFor,
	type ExecutionLedger,
	type RecipientEventItem,
	type SessionEventItem,
} from './eventLedger.mts';
import type { RequestLogEntry, SessionStatus } from '../../sandbox/index.ts';

export { checkLifecycle, checkRecipientSigned, checkSessionCompleted } from './eventChecks.mts';

/** What runEventScenario needs: the sandbox, the running n8n (owner cookie) and the examples. */
interface EventScenarioInput {
	sandbox: SandboxClient;
	instance: { url: string };
	cookie: string;
	examples: Record<string, ExampleWorkflow>;
	log: (msg: string) => void;
	deadline: number;
}

/** Sessions created in flight, as the sandbox's control plane answered their creation. */
type CreatedSession = { sessionId: string; name: string };

/** What the scenario resolves and the checks assert on. */
export interface EventOutcome {
	sessions: Record<
		'contract' | 'direct' | 'witness' | 'toSend' | 'toCancel' | 'toExpire',
		CreatedSession
	>;
	completed: ExecutionLedger<SessionEventItem>;
	signed: ExecutionLedger<RecipientEventItem>;
	lifecycle: ExecutionLedger<SessionEventItem>;
}

export const EVENT_CHECK_NAMES = {
	completed:
		'k. Session Completed (v2 trigger): one execution per completion (three sessions), none when a completed session is renamed and touched afterwards',
	signed:
		'l. Recipient Status Changed (v2 trigger): one item per signer (one alone, two between polls, one after the renames), each with its previous and new status; none for renames or completions',
	lifecycle:
		'q. Sessions in flight at activation, sent, cancelled and expired in the first interval (v2 trigger): Session Sent, Session Cancelled and Session Expired once each, with the real previous status',
};

/**
 * The third trigger of the track: the completed example listening to Session Sent, Session
 * Cancelled and Session Expired instead (its own workflow and node IDs).
 */
export function lifecycleWorkflow(completedExample: ExampleWorkflow): ExampleWorkflow {
	const workflow: ExampleWorkflow = JSON.parse(JSON.stringify(completedExample));
	workflow.id = 'AirSignE2eLifecy';
	workflow.name = 'e2e: sent, cancelled, expired';
	for (const node of workflow.nodes) node.id = node.id!.replace(/3(\d)$/, '9$1');
	triggerOf(workflow).parameters!.events = ['sessionSent', 'sessionCancelled', 'sessionExpired'];
	return workflow;
}

export const COMPLETED_EXAMPLE = 'notify-on-completed';
export const SIGNED_EXAMPLE = 'tell-sales-owner-on-signature';

/** A hang detector from n8n's readiness: three phases of one or two polls, a busy machine. */
export const EVENTS_TIMEOUT_MS = 540_000;

/**
 * A v2 trigger reads the sessions in flight at its start (its starting picture, docs/trigger.md)
 * in its activation poll, with List Sessions sorted by createdAt. n8n 2.41 answers the switch
 * before it activates, so the changes start once `triggers` such readings were answered (one
 * request each: a page holds every session in flight here).
 */
async function waitForStartingPictures(
	sandbox: SandboxClient,
	triggers: number,
	deadline: number,
): Promise<void> {
	let read: RequestLogEntry[] = [];
	await pollUntil(
		async () => {
			read = (await sandbox.requests()).filter(
				(r: RequestLogEntry) =>
					r.method === 'GET' &&
					r.path === '/api/v1/Sessions' &&
					r.query.sortBy === 'createdAt' &&
					r.status === 200,
			);
			return read.length >= triggers;
		},
		() =>
			`within the time limit, ${read.length} of ${triggers} triggers read the sessions in flight at their start`,
		{ timeoutMs: deadline - Date.now(), everyMs: 1_000 },
	);
}

const person = (name: string) => ({
	name,
	email: `${name.split(' ')[0].toLowerCase()}@example.com`,
});

/**
 * Runs the scenario in a running n8n with the three workflows imported, inactive; resolves what the
 * checks assert on, or throws if a phase never completes (the checks then fail with that error).
 */
export async function runEventScenario({
	sandbox,
	instance,
	cookie,
	examples,
	log,
	deadline,
}: EventScenarioInput): Promise<EventOutcome> {
	const ledger = <T extends SessionEventItem>(workflow: ExampleWorkflow) =>
		executionLedger<T>({ instance, cookie, workflow });
	const completed = ledger<SessionEventItem>(examples[COMPLETED_EXAMPLE]);
	const signed = ledger<RecipientEventItem>(examples[SIGNED_EXAMPLE]);
	const lifecycle = ledger<SessionEventItem>(lifecycleWorkflow(examples[COMPLETED_EXAMPLE]));
	const ledgers = [completed, signed, lifecycle];
	const hasSession = (ledger: ExecutionLedger<SessionEventItem>, id: string) =>
		ledger.items().some((s) => s.sessionId === id);
	const hasSigner = (id: string, email: string) =>
		signed.items().some((s) => s.sessionId === id && s.recipient?.email === email);

	// In flight since an hour before the activation, so in the triggers' starting pictures (not
	// "now": a trigger's start is a whole second, and a session created in it counts as after it).
	const anHourAgo = Date.parse((await sandbox.state()).now) - 3_600_000;
	const inFlight = (
		name: string,
		status: SessionStatus,
		recipients: { name: string; email: string }[],
	): Promise<CreatedSession> =>
		sandbox.createSession({ name, status, recipients, createdAt: anHourAgo, updatedAt: anHourAgo });
	const contract = await inFlight('e2e events – three signers', 'pending', [
		person('Ann Signer'),
		person('Ben Signer'),
		person('Cat Signer'),
	]);
	const direct = await inFlight('e2e events – completed directly', 'inProgress', [
		person('Eve Signer'),
	]);
	const witness = await inFlight('e2e events – signed after the renames', 'pending', [
		person('Dan Signer'),
	]);
	const toSend = await inFlight('e2e events – draft sent', 'draft', [person('Fay Signer')]);
	const toCancel = await inFlight('e2e events – cancelled', 'pending', [person('Gus Signer')]);
	const toExpire = await inFlight('e2e events – expired', 'inProgress', [person('Hal Signer')]);
	// The editor's switch. n8n up to 2.39 answers after the activation poll; 2.41 answers at once and
	// activates a moment later, so the wait for the starting pictures below is what says both ran.
	for (const ledger of ledgers)
		await activateWorkflowAsEditor(instance.url, cookie, ledger.workflow.id);
	log('events: the three workflows switched on');
	await waitForStartingPictures(sandbox, ledgers.length, deadline);
	log('events: the three triggers read the sessions in flight at their start');

	// Phase 1, in the first interval after activation: one signature; one session completed
	// directly (PATCH); a draft sent, a session cancelled, one expired (no expiryDate shown).
	await sandbox.signSession(contract.sessionId, { email: 'ann@example.com' });
	await sandbox.patchSession(direct.sessionId, { status: 'completed' });
	await sandbox.patchSession(toSend.sessionId, { status: 'pending' });
	await sandbox.patchSession(toCancel.sessionId, { status: 'cancelled' });
	await sandbox.patchSession(toExpire.sessionId, { status: 'expired', expiryDate: null });
	await waitFor(
		ledgers,
		() =>
			hasSigner(contract.sessionId, 'ann@example.com') &&
			hasSession(completed, direct.sessionId) &&
			[toSend, toCancel, toExpire].every((s) => hasSession(lifecycle, s.sessionId)),
		() => 'phase 1 (Ann signed, a session completed) did not arrive in both workflows',
		deadline,
	);
	log('events: phase 1 arrived (Ann signed; a session completed directly)');

	// Phase 2: the two other signers back to back: the session goes inProgress → completed.
	await sandbox.signSession(contract.sessionId, { email: 'ben@example.com' });
	const done = await sandbox.signSession(contract.sessionId, { email: 'cat@example.com' });
	assert.equal(done.status, 'completed', 'the third signature completes the session');
	await waitFor(
		ledgers,
		() =>
			hasSigner(contract.sessionId, 'ben@example.com') &&
			hasSigner(contract.sessionId, 'cat@example.com') &&
			hasSession(completed, contract.sessionId),
		() => 'phase 2 (Ben and Cat signed, the session completed) did not arrive in both workflows',
		deadline,
	);
	log('events: phase 2 arrived (Ben and Cat signed; the session completed)');

	// Phase 3: both completed sessions are renamed and touched, then the third session signed: a
	// trigger that delivered that has read past the changes (it reads in updatedAt order).
	await sandbox.patchSession(contract.sessionId, { name: 'e2e events – three signers (renamed)' });
	await sandbox.patchSession(contract.sessionId, { touch: true });
	await sandbox.patchSession(direct.sessionId, {
		name: 'e2e events – completed directly (renamed)',
	});
	assert.equal(
		(await sandbox.signSession(witness.sessionId)).status,
		'completed',
		'one signature completes the third session',
	);
	await waitFor(
		ledgers,
		() =>
			hasSigner(witness.sessionId, 'dan@example.com') && hasSession(completed, witness.sessionId),
		() => 'phase 3 (the renames, then a signature) did not arrive in both workflows',
		deadline,
	);
	log('events: phase 3 arrived (renames, then the third session signed)');
	return {
		sessions: { contract, direct, witness, toSend, toCancel, toExpire },
		completed,
		signed,
		lifecycle,
	};
}
