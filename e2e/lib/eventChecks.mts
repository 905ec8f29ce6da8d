// Checks k, l and q of the events track: what the three ledgers of runEventScenario
// (e2e/lib/events.mts) recorded, asserted per event, per signer and per session.
import assert from 'node:assert/strict';
import type { EventOutcome } from './events.mts';
import type { ExecutionLedger, RecipientEventItem, SessionEventItem } from './eventLedger.mts';

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
	return `${signed.executions().length} executions (items per execution: ${signed
		.executions()
		.map((e) => e.items.length)
		.join(
			', ',
		)}), one item and one message per signer: ${items.map((s) => `${s.recipient.name.split(' ')[0]} ${s.recipient.previousStatus} → ${s.recipient.status}`).join(', ')}`;
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
