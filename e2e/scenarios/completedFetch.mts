// Check j of e2e/scenarios.mts (live track, after check d): the completed → fetch example switched
// on in the running n8n; a session signed to completion must bring exactly one execution, whose
// Get output is the session with each recipient signed.
import assert from 'node:assert/strict';
import { PACKAGE_NAME, activateWorkflowAsEditor, deactivateWorkflowAsEditor } from '../lib/n8n.mts';
import { sleep } from '../lib/proc.mts';
import type { RequestLogEntry } from '../../sandbox/index.ts';
import {
	SESSIONS,
	assertDeliveredOnce,
	assertNoRepeatOnNextPoll,
	type N8nInstance,
	type Sandbox,
	type ScenarioContext,
} from './common.mts';

/** A session as Get outputs it (the fields check j reads; a type literal: read from plain JSON). */
type FetchedSession = {
	sessionId: string;
	status: string;
	completedDate?: string;
	recipients: { name: string; email: string; status: string }[];
};

/** Check j's bound from its start: activation, up to two minute polls, one more poll, a busy machine. */
const FETCH_CHECK_TIMEOUT_MS = 300_000;

/**
 * j. The completed → fetch example, activated after check d's trigger is switched off (so every List
 * Sessions request is this trigger's): a session signed by both recipients after its activation
 * poll brings exactly one execution, whose Fetch the session outputs it with each recipient's
 * status; the next poll brings nothing more.
 */
export async function checkCompletedFetchSession(
	{ examples }: ScenarioContext,
	{ sandbox, instance, cookie }: { sandbox: Sandbox; instance: N8nInstance; cookie: string },
): Promise<string> {
	const deadline = Date.now() + FETCH_CHECK_TIMEOUT_MS;
	const wf = examples['completed-fetch-session'];
	const triggerName = wf.nodes.find((n) => n.type === `${PACKAGE_NAME}.airSignTrigger`)!.name;
	const listRequests = async () =>
		(await sandbox.requests()).filter(
			(r: RequestLogEntry) => r.method === 'GET' && r.path === SESSIONS,
		);
	// This trigger's activation poll is the one query by creation time (d's trigger, perhaps not yet
	// off in n8n 2.41, sends none any more): a poll of d's must not count as this one's activation.
	const pictureRequests = async () =>
		(await listRequests()).filter((r) => r.query?.sortBy === 'createdAt' && r.query?.status);
	await deactivateWorkflowAsEditor(instance.url, cookie, examples['notify-on-completed'].id);
	const picturesBefore = (await pictureRequests()).length;
	await activateWorkflowAsEditor(instance.url, cookie, wf.id);
	// n8n 2.41 answers the switch at once and activates a moment later (2.39: after the activation
	// poll): the session must come after that poll, which sets the trigger's start.
	while ((await pictureRequests()).length <= picturesBefore) {
		assert.ok(Date.now() < deadline, 'the activation poll reached the sandbox');
		await sleep(250);
	}
	const session = await sandbox.createSession({
		name: 'e2e fetch – signed by two',
		status: 'pending',
		recipients: [
			{ name: 'Lee Signer', email: 'lee@example.com' },
			{ name: 'Max Witness', email: 'max@example.com' },
		],
	});
	assert.equal((await sandbox.signSession(session.sessionId)).status, 'inProgress');
	assert.equal((await sandbox.signSession(session.sessionId)).status, 'completed');
	const completedAt = Date.now();

	const watched = { listRequests, instance, cookie, workflowId: wf.id, deadline };
	const { exec, runData } = await assertDeliveredOnce({
		...watched,
		triggerName,
		sessionId: session.sessionId,
	});
	const arrivedS = (Date.now() - completedAt) / 1000;
	// Get's output, simplified by default: each recipient with their status
	const fetched = runData['Fetch the session'][0].data!.main![0]!.map(
		(i) => i.json as FetchedSession,
	);
	assert.equal(fetched.length, 1, `one fetched session: ${JSON.stringify(fetched)}`);
	assert.equal(fetched[0].sessionId, session.sessionId);
	assert.equal(fetched[0].status, 'completed');
	assert.ok(fetched[0].completedDate, `completedDate in ${JSON.stringify(fetched[0])}`);
	assert.deepEqual(
		fetched[0].recipients.map((r) => `${r.name} <${r.email}> ${r.status}`),
		['Lee Signer <lee@example.com> completed', 'Max Witness <max@example.com> completed'],
		'each recipient with their status',
	);

	// Through one more poll of this trigger (the only one active): no repeat.
	await assertNoRepeatOnNextPoll({ ...watched, exec });
	return `execution ${exec.id} (trigger, success) ${arrivedS.toFixed(0)} s after the second signature; Get: ${fetched[0].recipients.map((r) => `${r.name} ${r.status}`).join(', ')}; still 1 execution after the next poll`;
}
