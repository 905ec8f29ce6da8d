// The live track of e2e/scenarios.mts: `n8n start` with the trigger example activated from the
// CLI. Checks e (loaded types and icons) and e2 (the output schemas served as the editor asks), d
// (exactly one execution per completed session, none repeated by the next poll; with --scheduler d
// alone, on the database-backed poll scheduler), then j (the completed → fetch example).
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { triggerOf } from '../lib/eventLedger.mts';
import type { ExampleWorkflow } from '../lib/examples.mts';
import { sandboxCredential } from '../lib/fixtures.mts';
import {
	PACKAGE_NAME,
	activateWorkflowAsEditor,
	deactivateWorkflowAsEditor,
	getExecution,
	installedPackageDir,
	listExecutions,
	n8nFetch,
	nodeOutput,
	queryDb,
	readTypeFile,
	type ExecutionSummary,
	waitForExecutions,
	waitForSavedStart,
	waitForTypes,
} from '../lib/n8n.mts';
import { outputSchemas } from '../lib/outputSchemas.mts';
import { SESSIONS, type ServedRun, type Sandbox, type ScenarioTrack } from './common.mts';

const SCHEMA_DIR = new URL('../../nodes/AirSign/__schema__/', import.meta.url);

// Check d's bound from n8n's readiness, a hang detector: at the slowest ~2 polls for each of its
// two sessions (the settle window may defer a change by one), with room for a busy machine (and
// for the scheduler's outbox, which activates published workflows within 15 s).
const liveTimeoutMs = (scheduler: boolean) => (scheduler ? 420_000 : 390_000);
/** Check j's bound from its start: activation, up to two minute polls per session, a busy machine. */
const FETCH_CHECK_TIMEOUT_MS = 390_000;

/** What checks d and j read of the Set node's message and of Get's session. */
type Note = { sessionId: string; message: string };
type FetchedSession = {
	sessionId: string;
	status: string;
	completedDate?: string;
	recipients: { name: string; email: string; status: string }[];
};
/** An entry of n8n's type files (types/nodes.json, types/credentials.json): the fields e reads. */
type TypeEntry = { name: string; icon?: string; iconUrl?: { light: string; dark: string } };

/** The trigger's List Sessions requests the sandbox saw. */
const listRequests = async (sandbox: Sandbox) =>
	(await sandbox.requests()).filter((r) => r.method === 'GET' && r.path === SESSIONS);

/**
 * Checks d and j on an active workflow's AirSign Trigger. Once n8n has saved its start (the
 * activation poll delivered nothing), a session `complete()` completes must bring exactly one
 * execution, delivering it alone. No repeat on the next poll: a second session completed then
 * gives that poll (or, if it came first, the one after) an execution to wait for, which must
 * deliver that session alone. Resolves the first execution, with its run, and the next one.
 */
async function deliveredOnce(
	{ sandbox, instance, cookie, userFolder }: ServedRun,
	workflow: ExampleWorkflow,
	deadline: number,
	complete: () => Promise<string>,
) {
	const trigger = triggerOf(workflow).name;
	await waitForSavedStart(userFolder, workflow.id, trigger, { timeoutMs: deadline - Date.now() });
	const executions = () => listExecutions(instance.url, cookie, { workflowId: workflow.id });
	assert.equal((await executions()).length, 0, 'the activation poll must deliver nothing');
	/** Waits for one execution more than `before`, all ended; asserts it delivered `sessionId` alone. */
	const delivered = async (sessionId: string, before: ExecutionSummary[]) => {
		const execs = await waitForExecutions(instance.url, cookie, (l) => l.length > before.length, {
			workflowId: workflow.id,
			timeoutMs: deadline - Date.now(),
			intervalMs: 1_000,
		}).catch(async (error: Error) => {
			throw new Error(
				`${error.message}; the sandbox saw ${(await listRequests(sandbox)).length} List Sessions requests of the trigger`,
			);
		});
		const [exec, ...earlier] = execs; // newest first
		assert.deepEqual(
			earlier.map((e) => e.id),
			before.map((e) => e.id),
			`exactly one execution more: ${JSON.stringify(execs.map((e) => e.id))}`,
		);
		assert.equal(exec.mode, 'trigger');
		assert.equal(exec.status, 'success');
		const run = await getExecution(instance.url, cookie, exec.id);
		assert.deepEqual(
			nodeOutput(run, trigger).map((i) => i.sessionId),
			[sessionId],
			'the trigger delivered exactly that session',
		);
		return { exec, run };
	};
	const sessionId = await complete();
	const completedAt = Date.now();
	const pollsBefore = (await listRequests(sandbox)).length;
	const first = await delivered(sessionId, []);
	const arrivedS = (Date.now() - completedAt) / 1000;
	const next = await delivered(await complete(), [first.exec]);
	return { ...first, sessionId, pollsBefore, arrivedS, next: next.exec };
}

/** The live track (checks e, e2, d, j; d alone with --scheduler). */
export const liveTrack: ScenarioTrack = {
	name: 'live',
	label: 'live track setup (d, e, j)',
	examples: ['notify-on-completed', 'completed-fetch-session'],
	imports: ({ examples, scheduler }, sandbox) => {
		const wf = examples['notify-on-completed'];
		return {
			credentials: [sandboxCredential(sandbox.url)],
			// check j's workflow too, activated only after check d (in the running n8n)
			workflows: scheduler ? [wf] : [wf, examples['completed-fetch-session']],
			activate: [wf.id],
		};
	},
	async run({ examples, log, check, scheduler }, live) {
		const { sandbox, userFolder, instance, cookie } = live;
		const deadline = Date.now() + liveTimeoutMs(scheduler);
		const wf = examples['notify-on-completed'];
		const triggerName = triggerOf(wf).name;

		if (!scheduler)
			await check('e. n8n loaded both nodes and the credential, icons served', async () => {
				const nodes = await waitForTypes(userFolder, 'nodes', (l: TypeEntry[]) =>
					l.some((n) => n.name === `${PACKAGE_NAME}.airSignTrigger`),
				);
				const headers = { cookie, 'browser-id': 'e2e' };
				const res = await n8nFetch(`${instance.url}/types/nodes.json`, { headers });
				const viaHttp = (await res.json()) as TypeEntry[];
				const creds: TypeEntry[] = readTypeFile(userFolder, 'credentials');
				const ours = viaHttp.filter((n) => n.name.startsWith(`${PACKAGE_NAME}.`));
				assert.equal(nodes.length, viaHttp.length);
				for (const name of ['airSign', 'airSignTrigger'])
					assert.ok(
						ours.some((n) => n.name === `${PACKAGE_NAME}.${name}`),
						`${name} not loaded: ${ours.map((n) => n.name)}`,
					);
				const cred = creds.find((c) => c.name === 'airSignApi');
				assert.ok(cred, 'credential type airSignApi not loaded');
				const served: string[] = [];
				for (const entry of [...ours, cred]) {
					assert.ok(
						entry.iconUrl?.light && entry.iconUrl?.dark,
						`${entry.name} has no light/dark iconUrl: ${JSON.stringify(entry.iconUrl ?? entry.icon)}`,
					);
					for (const icon of [entry.iconUrl.light, entry.iconUrl.dark]) {
						const res = await n8nFetch(`${instance.url}/${icon}`);
						const body = await res.text();
						assert.equal(res.status, 200, `GET /${icon}`);
						assert.match(String(res.headers.get('content-type')), /^image\/svg\+xml/, icon);
						assert.match(body, /<svg[\s>]/, `/${icon} is not an SVG`);
						served.push(icon);
					}
				}
				return `${ours.map((n) => n.name.split('.')[1]).join(', ')} + credential airSignApi; ${new Set(served).size} icon URLs → 200 image/svg+xml`;
			});

		if (!scheduler)
			await check('e2. output schemas served as the editor asks for them', async () => {
				const schemas = outputSchemas(installedPackageDir(userFolder));
				// Every schema the repository holds (one per operation, one for the trigger) ships.
				const held = readdirSync(SCHEMA_DIR, { recursive: true }).filter((f) =>
					String(f).endsWith('.json'),
				);
				assert.equal(
					schemas.length,
					held.length,
					`schemas in the package (repository: ${held.length})`,
				);
				for (const { url, schema } of schemas) {
					const res = await n8nFetch(`${instance.url}${url}`);
					assert.equal(res.status, 200, `GET ${url}`);
					assert.deepEqual(await res.json(), schema, `GET ${url}`);
				}
				const trigger = schemas.find((s) => s.file === 'v1.0.0.json');
				assert.ok(trigger?.schema.properties!.recipient.properties!.status, 'recipient.status');
				return `${schemas.length} schemas → 200, as in the package (e.g. ${trigger.url})`;
			});

		await check(
			`d. active trigger${scheduler ? ' on the database-backed poll scheduler (durable cursors)' : ''}: one completed session → exactly one execution, no repeat on the next poll`,
			async () => {
				// The first completion lies between the activation poll and the first scheduled one, the
				// window the scheduler's dropped activation state would lose (see the trigger's origin).
				const { exec, run, arrivedS, pollsBefore, next, sessionId } = await deliveredOnce(
					live,
					wf,
					deadline,
					async () => {
						const { sessionId } = await sandbox.createSession({
							name: 'e2e trigger – signed contract',
							status: 'inProgress',
							recipients: [{ name: 'Eve Signer', email: 'eve@example.com' }],
						});
						await sandbox.patchSession(sessionId, { status: 'completed' });
						return sessionId;
					},
				);
				assert.equal(nodeOutput(run, triggerName)[0].status, 'completed');
				// the Set node's message
				const [note] = nodeOutput(run, 'Compose notification') as Note[];
				assert.equal(note.sessionId, sessionId);
				assert.match(
					note.message,
					/^Signed: "e2e trigger – signed contract" was completed on .+ by Eve Signer\.$/,
				);
				log(
					`live: execution ${exec.id} arrived ${arrivedS.toFixed(1)} s after a completion after poll ${pollsBefore}: ${note.message}`,
				);
				const db = (select: string, then = '', column = 'workflowId') =>
					queryDb(userFolder, `${select} where ${column} = ? ${then}`, [wf.id]);
				const dbRows = await db('select id from execution_entity', 'order by id');
				assert.deepEqual(
					dbRows.map((r) => String(r.id)),
					[exec.id, next.id],
					'SQLite execution_entity',
				);
				const [wfRow] = await db('select staticData from workflow_entity', '', 'id');
				log(`live: trigger state in workflow_entity.staticData: ${wfRow.staticData}`);
				let where = 'workflow static data';
				if (scheduler) {
					// Durable cursors: the node's state is in poller_state, committed by the scheduler.
					const rows = await db('select nodeId, cursor from poller_state');
					log(`live: poller_state: ${JSON.stringify(rows)}`);
					assert.equal(rows.length, 1, 'one poller_state row: the scheduler ran the polls');
					assert.match(String(rows[0].cursor), /"cursor":"/, 'the trigger state in poller_state');
					where = 'poller_state';
				}
				const polls = (await listRequests(sandbox)).length;
				return `execution ${exec.id} (trigger, success) ${arrivedS.toFixed(0)} s after completion (completed after poll ${pollsBefore}); the next delivery, execution ${next.id}, only a second session; ${polls} List Sessions requests in all; state in ${where}`;
			},
		);
		if (scheduler) return;

		// j. The completed → fetch example, switched on once d's trigger is off (so every List
		// Sessions request is this trigger's); its Get outputs the session with each recipient.
		await check(
			'j. completed → fetch session: a session signed to completion → exactly one execution, whose Get output is the session with each recipient signed',
			async () => {
				const fetchWf = examples['completed-fetch-session'];
				await deactivateWorkflowAsEditor(instance.url, cookie, wf.id);
				// n8n 2.41 answers the switch at once and activates a moment later (2.39: after the
				// activation poll): deliveredOnce waits for the start that poll sets.
				await activateWorkflowAsEditor(instance.url, cookie, fetchWf.id);
				const { exec, run, arrivedS, next, sessionId } = await deliveredOnce(
					live,
					fetchWf,
					Date.now() + FETCH_CHECK_TIMEOUT_MS,
					async () => {
						const { sessionId } = await sandbox.createSession({
							name: 'e2e fetch – signed by two',
							status: 'pending',
							recipients: [
								{ name: 'Lee Signer', email: 'lee@example.com' },
								{ name: 'Max Witness', email: 'max@example.com' },
							],
						});
						assert.equal((await sandbox.signSession(sessionId)).status, 'inProgress');
						assert.equal((await sandbox.signSession(sessionId)).status, 'completed');
						return sessionId;
					},
				);
				// Get's output, simplified by default: each recipient with their status
				const fetched = nodeOutput(run, 'Fetch the session') as FetchedSession[];
				assert.equal(fetched.length, 1, `one fetched session: ${JSON.stringify(fetched)}`);
				assert.equal(fetched[0].sessionId, sessionId);
				assert.equal(fetched[0].status, 'completed');
				assert.ok(fetched[0].completedDate, `completedDate in ${JSON.stringify(fetched[0])}`);
				assert.deepEqual(
					fetched[0].recipients.map((r) => `${r.name} <${r.email}> ${r.status}`),
					['Lee Signer <lee@example.com> completed', 'Max Witness <max@example.com> completed'],
					'each recipient with their status',
				);
				return `execution ${exec.id} (trigger, success) ${arrivedS.toFixed(0)} s after the second signature; Get: ${fetched[0].recipients.map((r) => `${r.name} ${r.status}`).join(', ')}; the next delivery, execution ${next.id}, only a second session`;
			},
		);
	},
};
