#!/usr/bin/env node
// The example workflows in a real n8n against the sandbox (see e2e/README.md, "Scenarios").
//
//   [AIRSIGN_E2E_N8N=1|2] node e2e/scenarios.mjs [--keep] [--tarball <file.tgz>]
//        [--tracks headless,live] [--scheduler]
//
// AIRSIGN_E2E_N8N picks the n8n (e2e/n8n-profiles.mjs; default 2 = 2.39.10). Two tracks run side
// by side, each with its own sandbox process and n8n user folder:
//   headless  `n8n execute` of the examples: (a) upload, (b) list + send drafts, (c) continue on fail,
//             (f) a client-credentials token that expired between two runs is renewed
//   live      `n8n start` with the published trigger example: (e) loaded types + icons,
//             (d) exactly one execution per completed session, none repeated by the next poll
// --scheduler: the live track only, check d only, on n8n 2.x's database-backed poll scheduler with
// durable cursors (SCHEDULER_ENV below).
// Every check asserts on what n8n produced (execution JSON / execution records) and on the
// sandbox's state (files, outbox, request log). Exit 1 on any failure.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PROFILE, installN8n } from './install-n8n.mjs';
import {
	PACKAGE_NAME,
	activateWorkflow,
	executeWorkflow,
	getExecution,
	getFreePort,
	importCredential,
	importWorkflow,
	installPackageIntoN8n,
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
} from './lib/n8n.mjs';
import { describeExit, sleep } from './lib/proc.mjs';
import { startSandboxProcess } from './lib/sandbox.mjs';
import {
	SANDBOX_CREDENTIAL_ID,
	SANDBOX_CREDENTIAL_NAME,
	loadExamples,
	samplePdf,
	sandboxCredential,
	withPdfPath,
} from './lib/fixtures.mjs';

const keep = process.argv.includes('--keep');
const argValue = (name) =>
	process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const tarballArg = argValue('--tarball');
const scheduler = process.argv.includes('--scheduler');
const tracks = (argValue('--tracks') ?? (scheduler ? 'live' : 'headless,live')).split(',');
/**
 * n8n 2.x's database-backed poll scheduler, opt-in (n8n 2.39.10: @n8n/config scheduler.config.js
 * and workflows.config.js). Polls are then leased from the `scheduled_job` / `scheduled_task`
 * tables and run on a workflow rebuilt from the database; with durable cursors a poll node's static
 * data lives in `poller_state` and is committed with the execution or after a quiet poll, never
 * after the activation poll. (The first three flags together switch the scheduler on for poll
 * triggers; the fourth adds durable cursors.)
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
const results = []; // { name, ok, s, detail }

function log(msg) {
	process.stdout.write(
		`[e2e ${PROFILE.label}${scheduler ? ' scheduler' : ''} +${((Date.now() - t00) / 1000).toFixed(1)}s] ${msg}\n`,
	);
}

/** Runs one check, records PASS/FAIL with its time; never throws (a failed check is reported). */
async function check(name, fn) {
	const t0 = Date.now();
	try {
		const detail = await fn();
		results.push({ name, ok: true, s: (Date.now() - t0) / 1000, detail: detail ?? '' });
		log(`PASS ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s) ${detail ?? ''}`);
		return true;
	} catch (err) {
		results.push({
			name,
			ok: false,
			s: (Date.now() - t0) / 1000,
			detail: String(err.message).split('\n')[0],
		});
		// fetch's "fetch failed" says why only in its cause
		log(
			`FAIL ${name}: ${err.stack ?? err}${err.cause ? `\n  cause: ${err.cause.stack ?? err.cause}` : ''}`,
		);
		return false;
	}
}

/** Setup steps: timed, and a failure fails every check of the track (the error says why). */
async function step(label, fn) {
	const t0 = Date.now();
	const value = await fn();
	log(`${label}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
	return value;
}

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
])
	if (!examples[name]) throw new Error(`examples/${name}.json missing`);

// ---------------------------------------------------------------- headless track: a, b, c
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
		const upload = withPdfPath(examples['upload-pdf'], pdfPath);
		await step('headless: 3 example workflows + a list workflow imported', () =>
			importWorkflow(
				userFolder,
				[upload, examples['send-drafts'], examples['send-with-continue-on-fail'], TOKEN_WORKFLOW],
				{ env },
			),
		);

		await check(
			'a. upload: Read PDF from disk → Upload File; the sandbox holds the same bytes',
			async () => {
				const { ok, run, failure } = await executeWorkflow(userFolder, upload.id, { env });
				assert.ok(ok, `execution failed: ${failure}`);
				const read = run.data.resultData.runData['Read PDF from disk'][0].data.main[0][0];
				assert.equal(read.binary?.data?.fileName, 'contract.pdf');
				const [out, ...more] = nodeOutput(run, 'Upload to AirSign');
				assert.equal(more.length, 0, 'one upload item');
				assert.match(String(out.fileId), /^[0-9a-f-]{36}$/, `fileId in ${JSON.stringify(out)}`);
				const stored = await sandbox.file(out.fileId);
				const onDisk = readFileSync(pdfPath);
				assert.equal(stored.fileName, 'contract.pdf');
				assert.equal(stored.sizeBytes, onDisk.length);
				assert.equal(
					stored.data,
					onDisk.toString('base64'),
					'sandbox bytes differ from the PDF on disk',
				);
				// The token came from n8n's preAuthentication (client credentials), not from a pasted token.
				const reqs = await sandbox.requests();
				assert.ok(
					reqs.some((r) => r.method === 'POST' && r.path === '/oidc/token' && r.status === 200),
					'no token fetch in the sandbox log',
				);
				assert.ok(
					reqs.some((r) => r.method === 'POST' && r.path === '/api/v1/File' && r.status === 200),
					'no 200 upload in the sandbox log',
				);
				return `fileId ${out.fileId}, ${onDisk.length} bytes identical, token via POST /oidc/token`;
			},
		);

		await check(
			'b. list + send: Get Many (status draft) → Send Session; outbox = the complete drafts',
			async () => {
				// Exact starting point: the demo drafts are cancelled, then three known drafts are created.
				for (const s of await sandbox.listSessions({ status: 'draft' }))
					await sandbox.patchSession(s.sessionId, { status: 'cancelled' });
				const ada = await sandbox.createSession({
					name: 'e2e draft – Ada',
					status: 'draft',
					recipients: [{ name: 'Ada Lovelace', email: 'ada@example.com' }],
				});
				const duo = await sandbox.createSession({
					name: 'e2e draft – Bob and Cy',
					status: 'draft',
					recipients: [
						{ name: 'Bob Builder', email: 'bob@example.com' },
						{ name: 'Cy Twombly', email: 'cy@example.com' },
					],
				});
				const half = await sandbox.createSession({
					name: 'e2e draft – no email',
					status: 'draft',
					recipients: [{ name: 'Dee Nomail' }],
				});
				await sandbox.clearOutbox();
				const drafts = [ada, duo, half].map((s) => s.sessionId).sort();

				const { ok, run, failure } = await executeWorkflow(userFolder, examples['send-drafts'].id, {
					env,
				});
				assert.ok(ok, `execution failed: ${failure}`);
				const found = nodeOutput(run, 'Find drafts');
				assert.deepEqual(
					found.map((s) => s.sessionId).sort(),
					drafts,
					'Get Many returned exactly the drafts',
				);
				assert.ok(found.every((s) => s.status === 'draft'));
				const sent = nodeOutput(run, 'Send draft');
				assert.equal(sent.length, 3, `one Send output per draft: ${JSON.stringify(sent)}`);
				const failed = sent.filter((i) => i.error);
				assert.equal(failed.length, 1, `one error item: ${JSON.stringify(sent)}`);
				assert.match(failed[0].error, /no name or no email \[INCOMPLETE_RECIPIENTS\]/);
				// Its pairing tells which draft failed: the incomplete one.
				const sendRun = run.data.resultData.runData['Send draft'][0].data.main[0];
				const failedItem = sendRun.find((i) => i.json.error);
				assert.equal(
					found[failedItem.pairedItem.item ?? failedItem.pairedItem].sessionId,
					half.sessionId,
				);
				const okItems = sent.filter((i) => !i.error);
				assert.deepEqual(
					okItems.map((i) => i.sessionId).sort(),
					[ada.sessionId, duo.sessionId].sort(),
				);
				assert.ok(
					okItems.every((i) => i.status === 'pending'),
					`sent sessions are pending: ${JSON.stringify(okItems)}`,
				);

				const outbox = await sandbox.outbox();
				assert.deepEqual(
					outbox.map((m) => `${m.sessionId} ${m.to}`).sort(),
					[
						`${ada.sessionId} ada@example.com`,
						`${duo.sessionId} bob@example.com`,
						`${duo.sessionId} cy@example.com`,
					].sort(),
					'outbox = one invitation per recipient of the complete drafts',
				);
				assert.equal(
					(await sandbox.getSession(half.sessionId)).status,
					'draft',
					'the incomplete draft stays a draft',
				);
				return `3 drafts found, 2 sent (3 invitations in the outbox), 1 error item INCOMPLETE_RECIPIENTS`;
			},
		);

		await check(
			'c. error path: Send on a completed session → NOT_A_DRAFT item; the Set node after it ran',
			async () => {
				const outboxBefore = (await sandbox.outbox()).length;
				const { ok, run, failure } = await executeWorkflow(
					userFolder,
					examples['send-with-continue-on-fail'].id,
					{ env },
				);
				assert.ok(ok, `the workflow must finish despite the failed send: ${failure}`);
				const [target] = nodeOutput(run, 'Find a completed session');
				assert.equal(target.status, 'completed');
				const [sendOut] = nodeOutput(run, 'Try to send it');
				assert.equal(
					sendOut.error,
					'The session is not a draft, so it cannot be sent [NOT_A_DRAFT]',
				);
				assert.match(String(sendOut.description), /sent already|completed/);
				assert.equal(Number(sendOut.httpCode), 400, `httpCode in ${JSON.stringify(sendOut)}`);
				const report = nodeOutput(run, 'Report outcome');
				assert.equal(report.length, 1);
				assert.equal(
					report[0].outcome,
					'not sent: The session is not a draft, so it cannot be sent [NOT_A_DRAFT]',
				);
				assert.equal(run.data.resultData.lastNodeExecuted, 'Report outcome');
				assert.equal((await sandbox.getSession(target.sessionId)).status, 'completed');
				assert.equal((await sandbox.outbox()).length, outboxBefore, 'nothing was sent');
				return `session ${target.sessionId}: "${report[0].outcome}"`;
			},
		);

		await check(
			'f. token renewal: the stored client-credentials token expired between two runs; n8n fetched a new one and the call succeeded',
			async () => {
				const tokenFetches = (reqs) =>
					reqs.filter((r) => r.method === 'POST' && r.path === '/oidc/token');
				// a–c ran in three processes on one token: n8n keeps it with the credential.
				assert.equal(tokenFetches(await sandbox.requests()).length, 1, 'one token for a–c');
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

// ---------------------------------------------------------------- live track: e, d
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
		await step('live: credential + trigger workflow imported, workflow activated', async () => {
			await importCredential(userFolder, sandboxCredential(sandbox.url), { env: liveEnv });
			await importWorkflow(userFolder, wf, { env: liveEnv });
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
				const pollsSoFar = (await listRequests()).length;
				for (;;) {
					if ((await listRequests()).length > pollsSoFar) break;
					if (Date.now() > deadline) throw new Error('no further poll within the time limit');
					await sleep(1_000);
				}
				await sleep(4_000); // an execution from that poll would be recorded within milliseconds
				const after = await listExecutions(instance.url, cookie, { workflowId: wf.id });
				assert.deepEqual(
					after.map((e) => e.id),
					[exec.id],
					'the next poll must not deliver it again',
				);
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
			tracks.includes('live') && ['live track setup (d, e)', liveTrack],
			tracks.includes('headless') && ['headless track setup (a, b, c, f)', headlessTrack],
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
// every check of the tracks run: a, b, c, f (headless); d, and e unless --scheduler (live)
const expected =
	(tracks.includes('headless') ? 4 : 0) + (tracks.includes('live') ? (scheduler ? 1 : 2) : 0);
const failed = fatal || results.some((r) => !r.ok) || results.filter((r) => r.ok).length < expected;
process.exit(failed ? 1 : 0);
