// @ts-nocheck (typed file by file: issue 34)
// The example workflows in a real n8n against the sandbox (see e2e/README.md, "Scenarios").
//
//   [AIRSIGN_E2E_N8N=1|2] npx tsx e2e/scenarios.mts [--keep] [--tarball <file.tgz>]
//        [--tracks headless,live,events] [--scheduler]
//
// AIRSIGN_E2E_N8N picks the n8n (e2e/n8n-profiles.mts; default 2 = 2.41.3). Three tracks run side
// by side, each with its own sandbox process and n8n user folder:
//   headless  `n8n execute` of the examples: (a) upload, (b) list + send drafts, (c) continue on fail,
//             (g) contract from a template, (h) upload + cover document, (i) remind pending signers,
//             (f) a client-credentials token that expired between two runs is renewed
//   live      `n8n start` with the published trigger example: (e) loaded types + icons, (e2) the
//             output schemas served as the editor asks,
//             (d) exactly one execution per completed session, none repeated by the next poll;
//             then the completed → fetch example activated in the running n8n: (j) a session
//             signed to completion → exactly one execution, which fetched it
//   events    `n8n start` with the two v2 trigger examples activated in the running n8n (e2e/lib/
//             events.mts): (k) Session Completed once per completion, also after the completed
//             session is renamed and touched; (l) Recipient Status Changed once per signer
// --scheduler: the live track only, check d only, on n8n 2.x's database-backed poll scheduler with
// durable cursors (SCHEDULER_ENV below).
// Every check asserts on what n8n produced (execution JSON / execution records) and on the
// sandbox's state (files, outbox, request log). Exit 1 on any failure.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PROFILE, installN8n } from './install-n8n.mts';
import { createChecks } from './lib/checks.mts';
import {
	PACKAGE_NAME,
	activateWorkflow,
	activateWorkflowAsEditor,
	deactivateWorkflowAsEditor,
	executeWorkflow,
	getExecution,
	getFreePort,
	importCredential,
	importWorkflow,
	installPackageIntoN8n,
	installedPackageDir,
	listExecutions,
	makeUserFolder,
	n8nFetch,
	nodeOutput,
	packPackage,
	queryDb,
	readTypeFile,
	removeUserFolder,
	setupOwner,
	startN8n,
	waitForTypes,
} from './lib/n8n.mts';
import { describeExit, sleep } from './lib/proc.mts';
import { outputSchemas } from './lib/outputSchemas.mts';
import { startSandboxProcess } from './lib/sandbox.mts';
import {
	EXAMPLE_CHECK_NAMES,
	checkContractFromTemplateExample,
	checkErrorPathExample,
	checkRemindExample,
	checkSendDraftsExample,
	checkUploadExample,
	checkUploadWithCoverExample,
} from './lib/examples.mts';
import {
	COMPLETED_EXAMPLE,
	EVENTS_TIMEOUT_MS,
	EVENT_CHECK_NAMES,
	SIGNED_EXAMPLE,
	checkLifecycle,
	checkRecipientSigned,
	checkSessionCompleted,
	lifecycleWorkflow,
	runEventScenario,
} from './lib/events.mts';
import {
	SANDBOX_CREDENTIAL_ID,
	SANDBOX_CREDENTIAL_NAME,
	loadExamples,
	samplePdf,
	sandboxCredential,
	withPdfPath,
} from './lib/fixtures.mts';

const keep = process.argv.includes('--keep');
const argValue = (name) =>
	process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const tarballArg = argValue('--tarball');
const scheduler = process.argv.includes('--scheduler');
const tracks = (argValue('--tracks') ?? (scheduler ? 'live' : 'headless,live,events')).split(',');
for (const track of tracks)
	if (!['headless', 'live', 'events'].includes(track))
		throw new Error(`--tracks: unknown ${track}`);
if (scheduler && tracks.some((t) => t !== 'live'))
	throw new Error('--scheduler runs the live track only (check d)');
/**
 * n8n 2.x's database-backed poll scheduler, opt-in (n8n 2.41.3, first read in 2.39.10: @n8n/config
 * scheduler.config.js and workflows.config.js). Polls are then leased from the `scheduled_job` /
 * `scheduled_task` tables and run on a workflow rebuilt from the database; with durable cursors a
 * poll node's static data lives in `poller_state` and is committed with the execution or after a
 * quiet poll, never after the activation poll. (The first three flags together switch the
 * scheduler on for poll triggers; the fourth adds durable cursors.)
 */
export const SCHEDULER_ENV = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};
if (scheduler && !PROFILE.n8n.startsWith('2.'))
	throw new Error(`--scheduler needs n8n 2.x (this is ${PROFILE.label})`);
const liveEnv = scheduler ? SCHEDULER_ENV : {};
// The trigger check (d) fails 5 minutes after n8n is ready, whatever happens. The slowest correct
// run: the change lands < 2 s before a poll (the trigger's settle window defers it by one poll),
// so it arrives ~2 polls (120 s) later, plus one more poll (60 s) to show no repeat; usually ~100 s.
// The rest is room for a busy machine (every command and start of n8n then takes many times
// longer), and on the scheduler for its outbox, which activates published workflows within 15 s.
const LIVE_TIMEOUT_MS = scheduler ? 330_000 : 300_000;
const t00 = Date.now();

function log(msg) {
	process.stdout.write(
		`[e2e ${PROFILE.label}${scheduler ? ' scheduler' : ''} +${((Date.now() - t00) / 1000).toFixed(1)}s] ${msg}\n`,
	);
}

/** Checks record PASS/FAIL with their time and never throw; setup steps are timed and throw. */
const { results, check, step } = createChecks(log);

const SESSIONS = '/api/v1/Sessions';

/** Manual Trigger → AirSign Get Many (Limit 5): one List Sessions request per run. */
const TOKEN_WORKFLOW = {
	id: 'e2eTokenRenewal1',
	name: 'e2e: list sessions (token renewal)',
	active: false,
	settings: { executionOrder: 'v1' },
	connections: { Start: { main: [[{ node: 'List sessions', type: 'main', index: 0 }]] } },
	nodes: [
		{
			id: '6d0c1f2a-0000-4000-8000-000000000001',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: '6d0c1f2a-0000-4000-8000-000000000002',
			name: 'List sessions',
			type: `${PACKAGE_NAME}.airSign`,
			typeVersion: 1,
			position: [220, 0],
			parameters: {
				resource: 'session',
				operation: 'getMany',
				returnAll: false,
				limit: 5,
				filters: {},
				options: {},
			},
			credentials: { airSignApi: { id: SANDBOX_CREDENTIAL_ID, name: SANDBOX_CREDENTIAL_NAME } },
		},
	],
};

const examples = loadExamples();
for (const name of [
	'upload-pdf',
	'send-drafts',
	'send-with-continue-on-fail',
	'notify-on-completed',
	'contract-from-template',
	'upload-and-send-with-cover',
	'remind-pending-signers',
	'completed-fetch-session',
	SIGNED_EXAMPLE,
])
	if (!examples[name]) throw new Error(`examples/${name}.json missing`);

// ---------------------------------------------------------------- headless track: a, b, c, g, h, i, f
async function headlessTrack(tarball) {
	const userFolder = makeUserFolder('airsign-e2e-headless-');
	const filesDir = path.join(userFolder, 'n8n-files');
	// n8n 2.x: Read/Write Files from Disk may only touch N8N_RESTRICT_FILE_ACCESS_TO (default ~/.n8n-files).
	const env = { N8N_RESTRICT_FILE_ACCESS_TO: filesDir };
	let sandbox;
	try {
		sandbox = await step('headless: sandbox started', async () =>
			startSandboxProcess({ port: await getFreePort() }),
		);
		await step('headless: package installed', () => installPackageIntoN8n(userFolder, tarball));
		mkdirSync(filesDir, { recursive: true });
		const pdfPath = path.join(filesDir, 'contract.pdf');
		writeFileSync(pdfPath, samplePdf('AirSign e2e contract'));
		await step('headless: credential imported (client credentials → sandbox)', () =>
			importCredential(userFolder, sandboxCredential(sandbox.url), { env }),
		);
		// the examples run headless, the two that read the PDF pointed at this track's copy
		const headless = [
			withPdfPath(examples['upload-pdf'], pdfPath),
			examples['send-drafts'],
			examples['send-with-continue-on-fail'],
			examples['contract-from-template'],
			withPdfPath(examples['upload-and-send-with-cover'], pdfPath),
			examples['remind-pending-signers'],
		];
		await step(`headless: ${headless.length} example workflows + a list workflow imported`, () =>
			importWorkflow(userFolder, [...headless, TOKEN_WORKFLOW], { env }),
		);

		const runExample = (name) => executeWorkflow(userFolder, examples[name].id, { env });
		await check(EXAMPLE_CHECK_NAMES.upload, () =>
			checkUploadExample({ sandbox, runExample, pdfPath }),
		);
		await check(EXAMPLE_CHECK_NAMES.send, () => checkSendDraftsExample({ sandbox, runExample }));
		await check(EXAMPLE_CHECK_NAMES.errorPath, () =>
			checkErrorPathExample({ sandbox, runExample }),
		);
		await check(EXAMPLE_CHECK_NAMES.contractFromTemplate, () =>
			checkContractFromTemplateExample({ sandbox, runExample }),
		);
		await check(EXAMPLE_CHECK_NAMES.uploadWithCover, () =>
			checkUploadWithCoverExample({ sandbox, runExample, pdfPath }),
		);
		// before f: f moves the sandbox clock on
		await check(EXAMPLE_CHECK_NAMES.remind, () => checkRemindExample({ sandbox, runExample }));

		await check(
			'f. token renewal: the stored client-credentials token expired between two runs; n8n fetched a new one and the call succeeded',
			async () => {
				const tokenFetches = (reqs) =>
					reqs.filter((r) => r.method === 'POST' && r.path === '/oidc/token');
				// a–c and g–i ran in six processes on one token: n8n keeps it with the credential.
				assert.equal(tokenFetches(await sandbox.requests()).length, 1, 'one token for a–c, g–i');
				// The sandbox's tokens live one hour on its clock: move that clock past it.
				await sandbox.clock({ advanceMs: 61 * 60_000 });
				await sandbox.clearRequests();
				const expired = await executeWorkflow(userFolder, TOKEN_WORKFLOW.id, { env });
				assert.ok(expired.ok, `the run after the expiry failed: ${expired.failure}`);
				assert.ok(nodeOutput(expired.run, 'List sessions').length > 0, 'sessions listed');
				const reqs = await sandbox.requests();
				const line = reqs.map((r) => `${r.method} ${r.path} ${r.status}`);
				const fetches = tokenFetches(reqs);
				assert.equal(fetches.length, 1, `one new token: ${line.join(', ')}`);
				assert.equal(fetches[0].status, 200);
				const first401 = reqs.findIndex((r) => r.path === SESSIONS && r.status === 401);
				assert.ok(first401 >= 0, `the old token was refused first: ${line.join(', ')}`);
				assert.ok(reqs.indexOf(fetches[0]) > first401, `token fetched after the 401: ${line}`);
				assert.deepEqual(line.at(-1), `GET ${SESSIONS} 200`, `then listed: ${line.join(', ')}`);
				// The new token was stored with the credential: the next run needs none.
				await sandbox.clearRequests();
				const again = await executeWorkflow(userFolder, TOKEN_WORKFLOW.id, { env });
				assert.ok(again.ok, `the next run failed: ${again.failure}`);
				const next = (await sandbox.requests()).map((r) => `${r.method} ${r.path} ${r.status}`);
				assert.deepEqual(next, [`GET ${SESSIONS} 200`], 'the renewed token was kept');
				return `after the expiry: ${line.join(' → ')}; next run: ${next.join(', ')}`;
			},
		);
	} finally {
		if (sandbox) await sandbox.stop();
		if (keep) log(`kept ${userFolder}`);
		else removeUserFolder(userFolder);
	}
}

// ---------------------------------------------------------------- live track: e, d, j
/**
 * Waits for one more List Sessions request (the trigger's next poll; `listRequests` lists them),
 * then asserts that `exec` is still the workflow's only execution: that poll delivered nothing again.
 */
async function assertNoRepeatOnNextPoll({
	listRequests,
	instance,
	cookie,
	workflowId,
	exec,
	deadline,
}) {
	const pollsSoFar = (await listRequests()).length;
	for (;;) {
		if ((await listRequests()).length > pollsSoFar) break;
		if (Date.now() > deadline) throw new Error('no further poll within the time limit');
		await sleep(1_000);
	}
	await sleep(4_000); // an execution from that poll would be recorded within milliseconds
	const after = await listExecutions(instance.url, cookie, { workflowId });
	assert.deepEqual(
		after.map((e) => e.id),
		[exec.id],
		'the next poll must not deliver it again',
	);
}

/** Check j's bound from its start: activation, up to two minute polls, one more poll, a busy machine. */
const FETCH_CHECK_TIMEOUT_MS = 300_000;

/**
 * j. The completed → fetch example, activated in the running n8n after check d (with the trigger of
 * d deactivated first, so that every List Sessions request in the sandbox log is this trigger's):
 * its activation poll sets its start, then a pending session is signed by both recipients through
 * the control plane (inProgress, then completed), and exactly one execution must bring it, with
 * Fetch the session's output the session as Get returns it; a poll after it brings nothing more.
 */
async function checkCompletedFetchSession({ sandbox, instance, cookie }) {
	const deadline = Date.now() + FETCH_CHECK_TIMEOUT_MS;
	const wf = examples['completed-fetch-session'];
	const triggerName = wf.nodes.find((n) => n.type === `${PACKAGE_NAME}.airSignTrigger`).name;
	// This trigger's own polls: its Status filter (Completed) goes to List Sessions, which d's
	// trigger (version 2: it reads every state) never sends. n8n 2.41 may still be applying d's
	// deactivation when this one is switched on, so a poll of d's must not count as this one's.
	const listRequests = async () =>
		(await sandbox.requests()).filter(
			(r) => r.method === 'GET' && r.path === SESSIONS && r.query?.status === 'completed',
		);
	await deactivateWorkflowAsEditor(instance.url, cookie, examples['notify-on-completed'].id);
	const beforeActivation = (await listRequests()).length;
	await activateWorkflowAsEditor(instance.url, cookie, wf.id);
	// n8n up to 2.39 answers once the trigger is active, its activation poll included; n8n 2.41
	// answers at once and activates through its workflow-publication outbox a moment later (seen:
	// the answer in 67 ms, the poll within 3 s). Either way the activation poll must come before the
	// session exists: it sets the trigger's start.
	while ((await listRequests()).length <= beforeActivation) {
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

	const ended = (e) => e.finished || ['success', 'error', 'crashed'].includes(e.status);
	let execs;
	for (;;) {
		execs = await listExecutions(instance.url, cookie, { workflowId: wf.id });
		if (execs.some(ended)) break;
		if (Date.now() > deadline)
			throw new Error(
				`no execution within ${FETCH_CHECK_TIMEOUT_MS / 1000} s; the sandbox saw ${(await listRequests()).length - beforeActivation} List Sessions requests of this trigger after the activation`,
			);
		await sleep(1_000);
	}
	const arrivedS = (Date.now() - completedAt) / 1000;
	assert.equal(execs.length, 1, `exactly one execution: ${JSON.stringify(execs.map((e) => e.id))}`);
	const [exec] = execs;
	assert.equal(exec.mode, 'trigger');
	assert.equal(exec.status, 'success');
	const full = await getExecution(instance.url, cookie, exec.id);
	const delivered = full.data.resultData.runData[triggerName][0].data.main[0].map((i) => i.json);
	assert.deepEqual(
		delivered.map((s) => s.sessionId),
		[session.sessionId],
		'the trigger delivered exactly that session',
	);
	const fetched = full.data.resultData.runData['Fetch the session'][0].data.main[0].map(
		(i) => i.json,
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
	await assertNoRepeatOnNextPoll({
		listRequests,
		instance,
		cookie,
		workflowId: wf.id,
		exec,
		deadline,
	});
	return `execution ${exec.id} (trigger, success) ${arrivedS.toFixed(0)} s after the second signature; Get: ${fetched[0].recipients.map((r) => `${r.name} ${r.status}`).join(', ')}; still 1 execution after the next poll`;
}

async function liveTrack(tarball) {
	const userFolder = makeUserFolder('airsign-e2e-live-');
	const wf = examples['notify-on-completed'];
	const triggerName = wf.nodes.find((n) => n.type === `${PACKAGE_NAME}.airSignTrigger`)?.name;
	let sandbox;
	let instance;
	let deadline;
	try {
		sandbox = await step('live: sandbox started', async () =>
			startSandboxProcess({ port: await getFreePort() }),
		);
		await step('live: package installed', () => installPackageIntoN8n(userFolder, tarball));
		await step('live: credential + trigger workflow(s) imported, workflow activated', async () => {
			await importCredential(userFolder, sandboxCredential(sandbox.url), { env: liveEnv });
			// check j's workflow too, activated only after check d (in the running n8n)
			await importWorkflow(
				userFolder,
				scheduler ? [wf] : [wf, examples['completed-fetch-session']],
				{ env: liveEnv },
			);
			await activateWorkflow(userFolder, wf.id, { env: liveEnv });
		});
		instance = await step('live: n8n start until /healthz/readiness', () =>
			startN8n({ userFolder, env: liveEnv }),
		);
		deadline = Date.now() + LIVE_TIMEOUT_MS;
		const { cookie } = await setupOwner(instance.url);

		if (!scheduler)
			await check('e. n8n loaded both nodes and the credential, icons served', async () => {
				const nodes = await waitForTypes(userFolder, 'nodes', (l) =>
					l.some((n) => n.name === `${PACKAGE_NAME}.airSignTrigger`),
				);
				const viaHttp = await (
					await n8nFetch(`${instance.url}/types/nodes.json`, {
						headers: { cookie, 'browser-id': 'e2e' },
					})
				).json();
				const creds = readTypeFile(userFolder, 'credentials');
				const ours = viaHttp.filter((n) => n.name.startsWith(`${PACKAGE_NAME}.`));
				assert.equal(nodes.length, viaHttp.length);
				for (const name of ['airSign', 'airSignTrigger'])
					assert.ok(
						ours.some((n) => n.name === `${PACKAGE_NAME}.${name}`),
						`${name} not loaded: ${ours.map((n) => n.name)}`,
					);
				const cred = creds.find((c) => c.name === 'airSignApi');
				assert.ok(cred, 'credential type airSignApi not loaded');
				const served = [];
				for (const entry of [...ours, cred]) {
					assert.ok(
						entry.iconUrl?.light && entry.iconUrl?.dark,
						`${entry.name} has no light/dark iconUrl: ${JSON.stringify(entry.iconUrl ?? entry.icon)}`,
					);
					for (const icon of [entry.iconUrl.light, entry.iconUrl.dark]) {
						const res = await n8nFetch(`${instance.url}/${icon}`);
						const body = await res.text();
						assert.equal(res.status, 200, `GET /${icon}`);
						assert.match(
							res.headers.get('content-type') ?? '',
							/^image\/svg\+xml/,
							`content type of /${icon}`,
						);
						assert.match(body, /<svg[\s>]/, `/${icon} is not an SVG`);
						served.push(icon);
					}
				}
				return `${ours.map((n) => n.name.split('.')[1]).join(', ')} + credential airSignApi; ${new Set(served).size} icon URLs → 200 image/svg+xml`;
			});

		if (!scheduler)
			await check('e2. output schemas served as the editor asks for them', async () => {
				const installed = installedPackageDir(userFolder);
				const schemas = outputSchemas(installed);
				assert.ok(schemas.length >= 12, `only ${schemas.length} output schemas in the package`);
				for (const { url, schema } of schemas) {
					const res = await n8nFetch(`${instance.url}${url}`);
					assert.equal(res.status, 200, `GET ${url}`);
					assert.deepEqual(await res.json(), schema, `GET ${url}`);
				}
				const trigger = schemas.find((s) => s.file === 'v2.0.0.json');
				assert.ok(trigger?.schema.properties.recipient.properties.status, 'recipient.status');
				return `${schemas.length} schemas → 200, as in the package (e.g. ${trigger.url})`;
			});

		await check(
			`d. active trigger${scheduler ? ' on the database-backed poll scheduler (durable cursors)' : ''}: one completed session → exactly one execution, no repeat on the next poll`,
			async () => {
				const listRequests = async () =>
					(await sandbox.requests()).filter(
						(r) => r.method === 'GET' && r.path === '/api/v1/Sessions',
					);
				// 1. The activation poll (n8n polls once when it activates the workflow) set the cursor.
				const t0 = Date.now();
				for (;;) {
					if ((await listRequests()).length > 0) break;
					if (Date.now() > deadline)
						throw new Error('the trigger never polled the sandbox after activation');
					await sleep(250);
				}
				log(`live: activation poll seen ${((Date.now() - t0) / 1000).toFixed(1)} s after ready`);
				await sleep(1_500); // let the poll's cursor be saved
				assert.equal(
					(await listExecutions(instance.url, cookie, { workflowId: wf.id })).length,
					0,
					'the activation poll must deliver nothing',
				);

				// 2. A session gets completed in AirSign.
				const session = await sandbox.createSession({
					name: 'e2e trigger – signed contract',
					status: 'inProgress',
					recipients: [{ name: 'Eve Signer', email: 'eve@example.com' }],
				});
				await sandbox.patchSession(session.sessionId, { status: 'completed' });
				const completedAt = Date.now();
				// 1: the completion lies between the activation poll and the first scheduled one, the
				// window the scheduler's dropped activation state would lose (see the trigger's origin).
				const pollsBefore = (await listRequests()).length;
				log(
					`live: session ${session.sessionId} completed after ${pollsBefore} poll(s); waiting for the next minute poll`,
				);

				// 3. Exactly one execution carrying it.
				let execs;
				for (;;) {
					execs = await listExecutions(instance.url, cookie, { workflowId: wf.id });
					if (execs.some((e) => e.finished || ['success', 'error', 'crashed'].includes(e.status)))
						break;
					if (Date.now() > deadline)
						throw new Error(
							`no execution within ${LIVE_TIMEOUT_MS / 1000} s of n8n being ready; sandbox saw ${(await listRequests()).length} List Sessions requests`,
						);
					await sleep(1_000);
				}
				const arrivedS = (Date.now() - completedAt) / 1000;
				assert.equal(
					execs.length,
					1,
					`exactly one execution: ${JSON.stringify(execs.map((e) => e.id))}`,
				);
				const [exec] = execs;
				assert.equal(exec.mode, 'trigger');
				assert.equal(exec.status, 'success');
				const full = await getExecution(instance.url, cookie, exec.id);
				const delivered = full.data.resultData.runData[triggerName][0].data.main[0].map(
					(i) => i.json,
				);
				assert.deepEqual(
					delivered.map((s) => s.sessionId),
					[session.sessionId],
					'the trigger delivered exactly that session',
				);
				assert.equal(delivered[0].status, 'completed');
				const [note] = full.data.resultData.runData['Compose notification'][0].data.main[0].map(
					(i) => i.json,
				);
				assert.equal(note.sessionId, session.sessionId);
				assert.match(
					note.message,
					/^Signed: "e2e trigger – signed contract" was completed on .+ by Eve Signer\.$/,
				);
				log(
					`live: execution ${exec.id} arrived ${arrivedS.toFixed(1)} s after completion: ${note.message}`,
				);

				// 4. Through one more poll: no repeat.
				await assertNoRepeatOnNextPoll({
					listRequests,
					instance,
					cookie,
					workflowId: wf.id,
					exec,
					deadline,
				});
				const dbRows = await queryDb(
					userFolder,
					'select id, mode, status from execution_entity where workflowId = ?',
					[wf.id],
				);
				assert.equal(dbRows.length, 1, `SQLite execution_entity: ${JSON.stringify(dbRows)}`);
				const [wfRow] = await queryDb(
					userFolder,
					'select staticData from workflow_entity where id = ?',
					[wf.id],
				);
				log(`live: trigger state in workflow_entity.staticData: ${wfRow.staticData}`);
				let where = 'workflow static data';
				if (scheduler) {
					// Durable cursors: the node's state is in poller_state, committed by the scheduler.
					const rows = await queryDb(
						userFolder,
						'select nodeId, cursor from poller_state where workflowId = ?',
						[wf.id],
					);
					log(`live: poller_state: ${JSON.stringify(rows)}`);
					assert.equal(rows.length, 1, 'one poller_state row: the scheduler ran the polls');
					assert.match(
						String(rows[0].cursor),
						/"cursor":"/,
						'the trigger state is in poller_state',
					);
					where = 'poller_state';
				}
				const polls = (await listRequests()).length;
				return `execution ${exec.id} (trigger, success) ${arrivedS.toFixed(0)} s after completion (completed after poll ${pollsBefore}); ${polls} List Sessions requests in all, still 1 execution after the next poll; state in ${where}`;
			},
		);

		if (!scheduler)
			await check(
				'j. completed → fetch session: a session signed to completion → exactly one execution, whose Get output is the session with each recipient signed',
				() => checkCompletedFetchSession({ sandbox, instance, cookie }),
			);
	} finally {
		if (instance) {
			const res = await instance.stop();
			log(`live: n8n stopped (${describeExit(res)})`);
		}
		if (sandbox) await sandbox.stop();
		if (keep) log(`kept ${userFolder}`);
		else removeUserFolder(userFolder);
	}
}

// ---------------------------------------------------------------- events track: k, l, q
async function eventsTrack(tarball) {
	const userFolder = makeUserFolder('airsign-e2e-events-');
	let sandbox;
	let instance;
	try {
		sandbox = await step('events: sandbox started', async () =>
			startSandboxProcess({ port: await getFreePort() }),
		);
		await step('events: package installed', () => installPackageIntoN8n(userFolder, tarball));
		await step('events: credential + the two v2 trigger examples imported (inactive)', async () => {
			await importCredential(userFolder, sandboxCredential(sandbox.url));
			await importWorkflow(userFolder, [
				examples[COMPLETED_EXAMPLE],
				examples[SIGNED_EXAMPLE],
				lifecycleWorkflow(examples[COMPLETED_EXAMPLE]),
			]);
		});
		instance = await step('events: n8n start until /healthz/readiness', () =>
			startN8n({ userFolder }),
		);
		const { cookie } = await setupOwner(instance.url);
		let outcome;
		try {
			outcome = await runEventScenario({
				sandbox,
				instance,
				cookie,
				examples,
				log,
				deadline: Date.now() + EVENTS_TIMEOUT_MS,
			});
		} catch (error) {
			outcome = { error };
		}
		const judged = (fn) => () => {
			if (outcome.error) throw outcome.error;
			return fn(outcome);
		};
		await check(EVENT_CHECK_NAMES.completed, judged(checkSessionCompleted));
		await check(EVENT_CHECK_NAMES.signed, judged(checkRecipientSigned));
		await check(EVENT_CHECK_NAMES.lifecycle, judged(checkLifecycle));
	} finally {
		if (instance) {
			const res = await instance.stop();
			log(`events: n8n stopped (${describeExit(res)})`);
		}
		if (sandbox) await sandbox.stop();
		if (keep) log(`kept ${userFolder}`);
		else removeUserFolder(userFolder);
	}
}

async function main() {
	await installN8n();
	log(`n8n ${PROFILE.n8n}${scheduler ? ` with ${Object.keys(SCHEDULER_ENV).join(', ')}` : ''}`);
	let tarball = tarballArg;
	let packDir;
	if (!tarball) {
		const packed = await step('npm run build + npm pack', () => packPackage());
		tarball = packed.tarball;
		packDir = path.dirname(tarball);
		const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
		const missing = [...pkg.n8n.credentials, ...pkg.n8n.nodes].filter(
			(f) => !packed.files.includes(f),
		);
		if (missing.length)
			throw new Error(`tarball lacks files declared in package.json "n8n": ${missing.join(', ')}`);
	}
	try {
		const runs = [
			tracks.includes('live') && ['live track setup (d, e, j)', liveTrack],
			tracks.includes('headless') && ['headless track setup (a, b, c, f, g, h, i)', headlessTrack],
			tracks.includes('events') && ['events track setup (k, l, q)', eventsTrack],
		].filter(Boolean);
		const settled = await Promise.allSettled(runs.map(([, track]) => track(tarball)));
		settled.forEach((t, i) => {
			if (t.status === 'rejected') {
				const name = runs[i][0];
				results.push({ name, ok: false, s: 0, detail: String(t.reason?.message).split('\n')[0] });
				log(`FAIL ${name}: ${t.reason?.stack ?? t.reason}`);
			}
		});
	} finally {
		if (packDir) rmSync(packDir, { recursive: true, force: true });
	}
}

let fatal;
try {
	await main();
} catch (err) {
	fatal = err;
	log(`FAIL setup: ${err.stack ?? err}`);
}
const order = (r) => r.name[0];
console.log(`\n[e2e] scenarios summary (${PROFILE.label}${scheduler ? ', poll scheduler' : ''})`);
for (const r of [...results].sort((x, y) => order(x).localeCompare(order(y))))
	console.log(
		`  ${r.ok ? 'PASS' : 'FAIL'}  ${r.s.toFixed(1).padStart(5)} s  ${r.name}\n                 ${r.detail}`,
	);
console.log(`  total ${((Date.now() - t00) / 1000).toFixed(1)} s`);
// every check of the tracks run: a, b, c, f, g, h, i (headless); d, and e and j unless --scheduler
// (live); k, l (events)
const expected =
	(tracks.includes('headless') ? 7 : 0) +
	(tracks.includes('live') ? (scheduler ? 1 : 3) : 0) +
	(tracks.includes('events') ? 2 : 0);
const failed = fatal || results.some((r) => !r.ok) || results.filter((r) => r.ok).length < expected;
process.exit(failed ? 1 : 0);
