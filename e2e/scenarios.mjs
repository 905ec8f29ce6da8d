#!/usr/bin/env node
// The example workflows in a real n8n against the sandbox (see e2e/README.md, "Scenarios").
//
//   node e2e/scenarios.mjs [--keep] [--tarball <file.tgz>]
//
// Two tracks run side by side, each with its own sandbox process and n8n user folder:
//   headless  `n8n execute` of the examples: (a) upload, (b) list + send drafts, (c) continue on fail
//   live      `n8n start` with the published trigger example: (e) loaded types + icons,
//             (d) exactly one execution per completed session, none repeated by the next poll
// Every check asserts on what n8n produced (execution JSON / execution records) and on the
// sandbox's state (files, outbox, request log). Exit 1 on any failure.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { installN8n } from './install-n8n.mjs';
import {
	PACKAGE_NAME,
	executeWorkflow,
	getExecution,
	getFreePort,
	importCredential,
	importWorkflow,
	installPackageIntoN8n,
	listExecutions,
	makeUserFolder,
	packPackage,
	publishWorkflow,
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
	EXAMPLE_CHECK_NAMES,
	checkErrorPathExample,
	checkSendDraftsExample,
	checkUploadExample,
} from './lib/examples.mjs';
import { loadExamples, samplePdf, sandboxCredential, withPdfPath } from './lib/fixtures.mjs';

const keep = process.argv.includes('--keep');
const tarballArg = process.argv.includes('--tarball')
	? process.argv[process.argv.indexOf('--tarball') + 1]
	: undefined;
// The trigger check (d) fails 3 minutes after n8n is ready, whatever happens. The slowest correct
// run: the change lands < 2 s before a poll (the trigger's settle window defers it by one poll),
// so it arrives ~2 polls (120 s) later, plus one more poll (60 s) to show no repeat; usually ~100 s.
const LIVE_TIMEOUT_MS = 180_000;
const t00 = Date.now();
const results = []; // { name, ok, s, detail }

function log(msg) {
	process.stdout.write(`[e2e +${((Date.now() - t00) / 1000).toFixed(1)}s] ${msg}\n`);
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
		log(`FAIL ${name}: ${err.stack ?? err}`);
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
		await step('headless: 3 example workflows imported', () =>
			importWorkflow(
				userFolder,
				[upload, examples['send-drafts'], examples['send-with-continue-on-fail']],
				{ env },
			),
		);

		const ids = {
			'upload-pdf': upload.id,
			'send-drafts': examples['send-drafts'].id,
			'send-with-continue-on-fail': examples['send-with-continue-on-fail'].id,
		};
		const runExample = (name) => executeWorkflow(userFolder, ids[name], { env });
		await check(EXAMPLE_CHECK_NAMES.upload, () =>
			checkUploadExample({ sandbox, runExample, pdfPath }),
		);
		await check(EXAMPLE_CHECK_NAMES.send, () => checkSendDraftsExample({ sandbox, runExample }));
		await check(EXAMPLE_CHECK_NAMES.errorPath, () =>
			checkErrorPathExample({ sandbox, runExample }),
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
		await step('live: credential + trigger workflow imported, workflow published', async () => {
			await importCredential(userFolder, sandboxCredential(sandbox.url));
			await importWorkflow(userFolder, wf);
			await publishWorkflow(userFolder, wf.id);
		});
		instance = await step('live: n8n start until /healthz/readiness', () =>
			startN8n({ userFolder }),
		);
		deadline = Date.now() + LIVE_TIMEOUT_MS;
		const { cookie } = await setupOwner(instance.url);

		await check('e. n8n loaded both nodes and the credential, icons served', async () => {
			const nodes = await waitForTypes(userFolder, 'nodes', (l) =>
				l.some((n) => n.name === `${PACKAGE_NAME}.airSignTrigger`),
			);
			const viaHttp = await (
				await fetch(`${instance.url}/types/nodes.json`, {
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
					const res = await fetch(`${instance.url}/${icon}`);
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
			'd. active trigger: one completed session → exactly one execution, no repeat on the next poll',
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
				log(`live: session ${session.sessionId} completed; waiting for the next minute poll`);

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
				log(`live: trigger cursor in workflow_entity.staticData: ${wfRow.staticData}`);
				const polls = (await listRequests()).length;
				return `execution ${exec.id} (trigger, success) ${arrivedS.toFixed(0)} s after completion; ${polls} List Sessions requests in all, still 1 execution after the next poll`;
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
		const tracks = await Promise.allSettled([liveTrack(tarball), headlessTrack(tarball)]);
		tracks.forEach((t, i) => {
			if (t.status === 'rejected') {
				const name = i === 0 ? 'live track setup (d, e)' : 'headless track setup (a, b, c)';
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
console.log('\n[e2e] scenarios summary');
for (const r of [...results].sort((x, y) => order(x).localeCompare(order(y))))
	console.log(
		`  ${r.ok ? 'PASS' : 'FAIL'}  ${r.s.toFixed(1).padStart(5)} s  ${r.name}\n                 ${r.detail}`,
	);
console.log(`  total ${((Date.now() - t00) / 1000).toFixed(1)} s`);
const failed = fatal || results.some((r) => !r.ok) || results.filter((r) => r.ok).length < 5;
process.exit(failed ? 1 : 0);
