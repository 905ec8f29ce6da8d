// The events track's scenario (e2e/scenarios/events.mts): three active trigger workflows through
// three phases of signatures, completions and renames, each waited for in n8n's executions; then
// checks k, l and q on what the three ledgers recorded, per event, per signer and per session.
import assert from 'node:assert/strict';
import { activateWorkflowAsEditor, waitForSavedStart } from './n8n.mts';
import type { ExampleWorkflow, SandboxClient } from './examples.mts';
import {
	executionLedger,
	triggerOf,
	waitFor,
	type ExecutionLedger,
	type RecipientEventItem,
	type SessionEventItem,
} from './eventLedger.mts';
import type { SessionStatus } from '../../sandbox/index.ts';

/** What runEventScenario needs: the sandbox, the running n8n (owner cookie), eventWorkflows. */
interface EventScenarioInput {
	sandbox: SandboxClient;
	userFolder: string;
	instance: { url: string };
	cookie: string;
	workflows: ExampleWorkflow[];
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

export const SIGNED_EXAMPLE = 'tell-sales-owner-on-signature';

/** The track's credential, beside the live track's in one n8n: it names the track's sandbox. */
export const EVENTS_CREDENTIAL = { id: 'AirSignSandbox02', name: 'AirSign (events sandbox)' };

/**
 * The track's three workflows on its credential: the completed example (its own ID: the live
 * track runs the example), the signed example, and the completed example listening to Session
 * Sent, Session Cancelled and Session Expired instead (its own workflow and node IDs).
 */
export function eventWorkflows(examples: Record<string, ExampleWorkflow>): ExampleWorkflow[] {
	const copy = (name: string, id = examples[name].id, nodeId = (nid: string) => nid) => {
		const workflow = structuredClone({ ...examples[name], id });
		for (const node of workflow.nodes) {
			node.id = nodeId(node.id!);
			if (node.credentials) node.credentials.airSignApi = EVENTS_CREDENTIAL;
		}
		return workflow;
	};
	const lifecycle = copy('notify-on-completed', 'AirSignE2eLifecy', (id) =>
		id.replace(/3(\d)$/, '9$1'),
	);
	lifecycle.name = 'e2e: sent, cancelled, expired';
	triggerOf(lifecycle).parameters!.events = ['sessionSent', 'sessionCancelled', 'sessionExpired'];
	return [copy('notify-on-completed', 'AirSignE2eEvents'), copy(SIGNED_EXAMPLE), lifecycle];
}

/** A hang detector from n8n's readiness: three phases of one or two polls, a busy machine. */
export const EVENTS_TIMEOUT_MS = 540_000;

/** Runs the scenario (the workflows imported, inactive); throws if a phase never completes. */
export async function runEventScenario({
	sandbox,
	userFolder,
	instance,
	cookie,
	workflows: [completedWf, signedWf, lifecycleWf],
	log,
	deadline,
}: EventScenarioInput): Promise<EventOutcome> {
	const ledger = <T extends SessionEventItem>(workflow: ExampleWorkflow) =>
		executionLedger<T>({ instance, cookie, workflow });
	const completed = ledger<SessionEventItem>(completedWf);
	const signed = ledger<RecipientEventItem>(signedWf);
	const lifecycle = ledger<SessionEventItem>(lifecycleWf);
	const ledgers = [completed, signed, lifecycle];
	const hasSession = (ledger: ExecutionLedger<SessionEventItem>, id: string) =>
		ledger.items().some((s) => s.sessionId === id);
	const hasSigner = (id: string, email: string) =>
		signed.items().some((s) => s.sessionId === id && s.recipient?.email === email);
	const phase = async (what: string, arrived: () => boolean) => {
		await waitFor(ledgers, arrived, () => `phase ${what} did not arrive`, deadline);
		log(`events: phase ${what} arrived`);
	};

	// In flight since an hour before the activation, so in the triggers' starting pictures (not
	// "now": a trigger's start is a whole second, and a session created in it counts as after it).
	const anHourAgo = Date.parse((await sandbox.state()).now) - 3_600_000;
	const inFlight = (name: string, status: SessionStatus, signers: string[]) =>
		sandbox.createSession({
			name: `e2e events – ${name}`,
			status,
			recipients: signers.map((n) => ({
				name: `${n} Signer`,
				email: `${n.toLowerCase()}@example.com`,
			})),
			createdAt: anHourAgo,
			updatedAt: anHourAgo,
		});
	const contract = await inFlight('three signers', 'pending', ['Ann', 'Ben', 'Cat']);
	const direct = await inFlight('completed directly', 'inProgress', ['Eve']);
	const witness = await inFlight('signed after the renames', 'pending', ['Dan']);
	const toSend = await inFlight('draft sent', 'draft', ['Fay']);
	const toCancel = await inFlight('cancelled', 'pending', ['Gus']);
	const toExpire = await inFlight('expired', 'inProgress', ['Hal']);
	// The editor's switch. n8n up to 2.39 answers after the activation poll; 2.41 answers at once and
	// activates a moment later, so the wait for each trigger's saved start says both ran.
	for (const ledger of ledgers)
		await activateWorkflowAsEditor(instance.url, cookie, ledger.workflow.id);
	log('events: the three workflows switched on');
	for (const { workflow } of ledgers)
		await waitForSavedStart(userFolder, workflow.id, triggerOf(workflow).name, {
			timeoutMs: deadline - Date.now(),
		});
	log('events: the three triggers read the sessions in flight at their start');

	// Phase 1, in the first interval after activation: one signature; one session completed
	// directly (PATCH); a draft sent, a session cancelled, one expired (no expiryDate shown).
	await sandbox.signSession(contract.sessionId, { email: 'ann@example.com' });
	await sandbox.patchSession(direct.sessionId, { status: 'completed' });
	await sandbox.patchSession(toSend.sessionId, { status: 'pending' });
	await sandbox.patchSession(toCancel.sessionId, { status: 'cancelled' });
	await sandbox.patchSession(toExpire.sessionId, { status: 'expired', expiryDate: null });
	await phase(
		'1 (Ann signed; a session completed directly)',
		() =>
			hasSigner(contract.sessionId, 'ann@example.com') &&
			hasSession(completed, direct.sessionId) &&
			[toSend, toCancel, toExpire].every((s) => hasSession(lifecycle, s.sessionId)),
	);

	// Phase 2: the two other signers back to back: the session goes inProgress → completed.
	await sandbox.signSession(contract.sessionId, { email: 'ben@example.com' });
	const done = await sandbox.signSession(contract.sessionId, { email: 'cat@example.com' });
	assert.equal(done.status, 'completed', 'the third signature completes the session');
	await phase(
		'2 (Ben and Cat signed; the session completed)',
		() =>
			hasSigner(contract.sessionId, 'ben@example.com') &&
			hasSigner(contract.sessionId, 'cat@example.com') &&
			hasSession(completed, contract.sessionId),
	);

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
	await phase(
		'3 (renames, then the third session signed)',
		() =>
			hasSigner(witness.sessionId, 'dan@example.com') && hasSession(completed, witness.sessionId),
	);
	return {
		sessions: { contract, direct, witness, toSend, toCancel, toExpire },
		completed,
		signed,
		lifecycle,
	};
}

const count = (values: string[]) => {
	const counts = new Map<string, number>();
	for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
	return Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b)));
};

function assertTriggerExecutions(ledger: ExecutionLedger<SessionEventItem>) {
	for (const e of ledger.executions()) {
		assert.equal(e.mode, 'trigger', `execution ${e.id} mode`);
		assert.equal(e.status, 'success', `execution ${e.id} status`);
		assert.equal(e.composed.length, e.items.length, `execution ${e.id}: one message per item`);
	}
}

/** k. Session Completed: exactly one item per completion, whatever happened to the session after. */
export function checkSessionCompleted({ sessions, completed }: EventOutcome): string {
	const { contract, direct, witness } = sessions;
	assertTriggerExecutions(completed);
	const items = completed.items();
	assert.deepEqual(
		count(items.map((s) => s.sessionId)),
		count([contract.sessionId, direct.sessionId, witness.sessionId]),
		`each completed session exactly once, nothing else: ${JSON.stringify(items.map((s) => [s.name, s.event, s.status]))}`,
	);
	const byId = Object.fromEntries(items.map((s) => [s.sessionId, s]));
	for (const item of items) {
		assert.equal(item.event, 'sessionCompleted', `event of ${item.name}`);
		assert.equal(item.status, 'completed', `status of ${item.name}`);
	}
	// The state each trigger last saw: the contract inProgress (phase 1's poll read Ann's signature
	// before the completion it delivered), the others as in its starting picture.
	for (const [session, before] of [
		[contract, 'inProgress'],
		[direct, 'inProgress'],
		[witness, 'pending'],
	] as const) {
		const item = byId[session.sessionId];
		assert.equal(item.previousStatus, before, `previousStatus of ${session.name}`);
		assert.ok(item.previousStatusSeenAt, `previousStatusSeenAt of ${session.name}`);
	}
	const messages = completed.executions().flatMap((e) => e.composed);
	for (const [session, signers] of [
		[contract, 'Ann Signer, Ben Signer, Cat Signer'],
		[direct, 'Eve Signer'],
		[witness, 'Dan Signer'],
	] as const) {
		const note = messages.find((m) => m.sessionId === session.sessionId);
		assert.match(
			note?.message ?? '',
			new RegExp(`^Signed: "${session.name}" was completed on .+ by ${signers}\\.$`),
			`Compose notification for ${session.name}`,
		);
	}
	return `${completed.executions().length} executions, ${items.length} items: each completion once (previous: ${items.map((s) => s.previousStatus).join(', ')}); the renames and the touch brought none`;
}

/** l. Recipient Status Changed (filtered to signatures): exactly one item per signer. */
export function checkRecipientSigned({ sessions, signed }: EventOutcome): string {
	const { contract, witness } = sessions;
	assertTriggerExecutions(signed);
	const items = signed.items();
	const key = (s: RecipientEventItem) => `${s.sessionId}/${s.recipient?.email}`;
	assert.deepEqual(
		count(items.map(key)),
		count([
			`${contract.sessionId}/ann@example.com`,
			`${contract.sessionId}/ben@example.com`,
			`${contract.sessionId}/cat@example.com`,
			`${witness.sessionId}/dan@example.com`,
		]),
		`each signer exactly once, nothing else: ${JSON.stringify(items.map((s) => [s.name, s.recipient?.email, s.recipient?.previousStatus, s.recipient?.status]))}`,
	);
	for (const item of items) {
		const who = item.recipient.email;
		assert.equal(item.event, 'recipientStatusChanged', `event of ${who}`);
		assert.equal(item.recipient.status, 'completed', `new status of ${who}`);
		// as in the starting picture (Ann, Dan) or the listing that brought Ann's signature (Ben, Cat)
		assert.equal(item.recipient.previousStatus, 'sent', `previous status of ${who}`);
	}
	const [annRun] = signed
		.executions()
		.filter((e) => e.items.some((s) => s.recipient.email === 'ann@example.com'));
	assert.equal(annRun.items.length, 1, "Ann's signature came alone (phase 1)");
	for (const message of signed.executions().flatMap((e) => e.composed)) {
		assert.equal(message.to, 'sales.owner@example.com');
		const signer = items.find((s) => s.recipient.email === message.signerEmail);
		assert.ok(signer, `a message for an unknown signer: ${JSON.stringify(message)}`);
		assert.equal(message.subject, `${signer.recipient.name} signed "${signer.name}"`);
	}
	const perRun = signed.executions().map((e) => e.items.length);
	return `${perRun.length} executions (items per execution: ${perRun.join(', ')}), one item and one message per signer: ${items.map((s) => `${s.recipient.name.split(' ')[0]} ${s.recipient.previousStatus} → ${s.recipient.status}`).join(', ')}`;
}

/** q. The first interval after activation: each lifecycle event of a session in flight once. */
export function checkLifecycle({ sessions, lifecycle }: EventOutcome): string {
	const { toSend, toCancel, toExpire } = sessions;
	assertTriggerExecutions(lifecycle);
	const items = lifecycle.items();
	const line = (s: SessionEventItem) => `${s.name}: ${s.event} (was ${s.previousStatus})`;
	assert.deepEqual(
		items.map(line).sort(),
		[
			`${toCancel.name}: sessionCancelled (was pending)`,
			`${toExpire.name}: sessionExpired (was inProgress)`,
			`${toSend.name}: sessionSent (was draft)`,
		].sort(),
		`each event once, nothing else: ${JSON.stringify(items.map(line))}`,
	);
	return `${lifecycle.executions().length} executions: ${items.map(line).join('; ')}`;
}
