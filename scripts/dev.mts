// @ts-nocheck (typed file by file: issue 34)
// `npm run dev`: the AirSign sandbox (demo data) + a real n8n with this package installed from its
// packed tarball, a credential pointing at the sandbox and the example workflows imported.
//
//   npm run dev [-- options]
//     --port N           n8n editor port (default 5678, env AIRSIGN_DEV_N8N_PORT)
//     --sandbox-port N   sandbox port (default 8787, env AIRSIGN_SANDBOX_PORT)
//     --model-port N     the scripted demo model for the AI agent example, an OpenAI-compatible
//                        server (default 8788, env AIRSIGN_DEV_MODEL_PORT)
//     --dir PATH         n8n user folder (default .n8n-dev/, env AIRSIGN_DEV_DIR)
//     --reset            delete that folder first (a fresh n8n: new database, owner, imports)
//     --smoke            start everything, check the editor, credential and workflows, then stop
//                        (env AIRSIGN_DEV_SMOKE=1); used by `npm run test:e2e`
//     --tarball FILE     install this packed tarball instead of building and packing
//     --verbose          n8n logs at level info (default: warn)
//
// The first run installs the pinned n8n into .cache/n8n (minutes, once; see the README). Later runs
// build and pack the package (a few seconds), reinstall it only when the tarball's SHA-256 changed,
// and import the credential and examples only when they are missing or their source changed.
// Ctrl-C (or SIGTERM) stops n8n and the sandbox.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { installN8n, REPO_ROOT, seconds, ticker } from '../e2e/install-n8n.mts';
import {
	PACKAGE_NAME,
	activateWorkflowAsEditor,
	deactivateWorkflowAsEditor,
	importCredential,
	importWorkflow,
	installPackageIntoN8n,
	installedPackageDir,
	login,
	n8nFetch,
	packPackage,
	queryDb,
	restGet,
	setupOwner,
	startN8n,
} from '../e2e/lib/n8n.mts';
import { describeExit, fetchFresh, killTree } from '../e2e/lib/proc.mts';
import { startSandboxProcess } from '../e2e/lib/sandbox.mts';
import { startFakeOpenAi } from '../e2e/lib/fakeOpenAi.mts';
import { answerApproval, chatWithContractAssistant } from '../e2e/lib/contractAssistant.mts';
import {
	FAKE_OPENAI_API_KEY,
	OPENAI_CREDENTIAL_NAME,
	SCRIPTS,
	openAiCredential,
} from '../e2e/lib/agentScripts.mts';
import {
	DEV_OWNER,
	SANDBOX_CREDENTIAL_ID,
	SANDBOX_CREDENTIAL_NAME,
	loadExamples,
	samplePdf,
	sandboxCredential,
	withPdfPath,
} from '../e2e/lib/fixtures.mts';

// ------------------------------------------------------------------ options
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
function option(name, envName, fallback) {
	const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
	if (i >= 0) return argv[i].includes('=') ? argv[i].slice(name.length + 1) : argv[i + 1];
	return (envName && process.env[envName]) || fallback;
}
function portOption(name, envName, fallback) {
	const raw = option(name, envName, String(fallback));
	const port = Number(raw);
	if (!Number.isInteger(port) || port < 1 || port > 65535)
		fail(`${name}: not a port number: ${raw}`);
	return port;
}
function fail(message) {
	console.error(`[dev] ${message}`);
	process.exit(1);
}

const smoke = flag('--smoke') || /^(1|true|yes)$/i.test(process.env.AIRSIGN_DEV_SMOKE ?? '');
const verbose = flag('--verbose');
const n8nPort = portOption('--port', 'AIRSIGN_DEV_N8N_PORT', 5678);
const sandboxPort = portOption('--sandbox-port', 'AIRSIGN_SANDBOX_PORT', 8787);
const modelPort = portOption('--model-port', 'AIRSIGN_DEV_MODEL_PORT', 8788);
const userFolder = path.resolve(REPO_ROOT, option('--dir', 'AIRSIGN_DEV_DIR', '.n8n-dev'));
const tarballOption = option('--tarball', undefined, undefined);
const STATE_FILE = path.join(userFolder, 'airsign-dev.json');
const FILES_DIR = path.join(userFolder, 'n8n-files'); // N8N_RESTRICT_FILE_ACCESS_TO
const PDF_PATH = path.join(FILES_DIR, 'contract.pdf');
const OWNER = DEV_OWNER;
// n8n 2.x lets Read/Write Files from Disk touch this folder only (default ~/.n8n-files).
const FILE_ENV = { N8N_RESTRICT_FILE_ACCESS_TO: FILES_DIR };
const show = (p) => (p.startsWith(REPO_ROOT + path.sep) ? path.relative(REPO_ROOT, p) : p);

const t00 = Date.now();
const say = (msg) => process.stdout.write(`[dev] ${msg}\n`);
// What a first run does, in order; each announces itself as "step N of 7" and long ones report
// every 15 s, so that a first start on a busy machine never sits silent.
const STAGES = [
	'n8n in .cache (installed by the first run only: minutes)',
	'build and pack the package',
	'install the package into n8n',
	'start the sandbox and the demo model',
	'import the credentials and example workflows',
	'start n8n',
	'the owner account (created by the first start)',
];
const stage = (index) => say(`step ${index + 1} of ${STAGES.length}: ${STAGES[index]}`);
async function step(label, fn, { running } = {}) {
	const t0 = Date.now();
	const stop = running ? ticker(running, undefined, { print: say }) : () => {};
	try {
		const value = await fn();
		say(`${label} (${seconds(Date.now() - t0)})`);
		return value;
	} finally {
		stop();
	}
}
const sha256 = (data) => createHash('sha256').update(data).digest('hex');
const readState = () => {
	try {
		return JSON.parse(readFileSync(STATE_FILE, 'utf8'));
	} catch {
		return {};
	}
};
const writeState = (state) => writeFileSync(STATE_FILE, JSON.stringify(state, null, 2) + '\n');

function portFree(port) {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}

// ------------------------------------------------------------------ processes and shutdown
// e2e/lib/n8n.mts SIGKILLs its n8n on SIGINT/SIGTERM and exits at once (right for tests); here n8n
// gets a graceful stop instead, so those handlers are replaced. Its 'exit' hook stays as a backstop.
process.removeAllListeners('SIGINT');
process.removeAllListeners('SIGTERM');
let sandbox;
let n8n;
let model;
let stopping = null;
function stopAll(reason) {
	stopping ??= (async () => {
		if (reason) say(`${reason}: stopping n8n and the sandbox ...`);
		const results = await Promise.allSettled([
			n8n?.stop(15_000),
			sandbox?.stop(5_000),
			model?.close(),
		]);
		n8n = undefined;
		sandbox = undefined;
		model = undefined;
		return results;
	})();
	return stopping;
}
let signals = 0;
for (const sig of ['SIGINT', 'SIGTERM']) {
	process.on(sig, () => {
		if (++signals > 1) {
			// second Ctrl-C: no more waiting
			if (n8n) killTree(n8n.process, 'SIGKILL');
			if (sandbox) killTree(sandbox.process, 'SIGKILL');
			process.exit(130);
		}
		stopAll(sig).then(() => {
			say('stopped.');
			process.exit(0);
		});
	});
}

// ------------------------------------------------------------------ steps
async function installPackage(state) {
	let tarball = tarballOption && path.resolve(tarballOption);
	let packDir;
	stage(1);
	if (tarballOption) say(`using ${show(tarball)}, not building`);
	if (!tarball) {
		({ tarball } = await step(
			'built and packed the package (npm run build + npm pack)',
			() => packPackage(),
			{ running: 'building and packing (tsc, then npm pack)' },
		));
		packDir = path.dirname(tarball);
	}
	try {
		const hash = sha256(readFileSync(tarball));
		const installed = path.join(installedPackageDir(userFolder), 'package.json');
		stage(2);
		if (state.packageSha256 === hash && existsSync(installed)) {
			say(`package unchanged (tarball sha256 ${hash.slice(0, 12)}…): not reinstalled`);
		} else {
			await step(
				`installed ${path.basename(tarball)} into ${show(userFolder)}/.n8n/nodes`,
				() => installPackageIntoN8n(userFolder, tarball),
				{ running: `npm install of the tarball into ${show(userFolder)}/.n8n/nodes` },
			);
			state.packageSha256 = hash;
			writeState(state);
		}
	} finally {
		if (packDir) rmSync(packDir, { recursive: true, force: true });
	}
}

/** Imports what is missing from the database or changed since the last import (n8n upserts by id). */
async function importFixtures(state, sandboxUrl, modelBaseUrl) {
	state.imports ??= { workflows: {} };
	const dbReady = existsSync(path.join(userFolder, '.n8n', 'database.sqlite'));
	const ids = async (table) =>
		dbReady ? (await queryDb(userFolder, `select id from ${table}`)).map((r) => r.id) : [];
	const [haveCreds, haveWorkflows] = await Promise.all([
		ids('credentials_entity'),
		ids('workflow_entity'),
	]);

	const credential = sandboxCredential(sandboxUrl);
	const credHash = sha256(JSON.stringify(credential));
	if (!haveCreds.includes(SANDBOX_CREDENTIAL_ID) || state.imports.credential !== credHash) {
		await step(
			`imported credential "${SANDBOX_CREDENTIAL_NAME}" (client credentials demo-client → ${sandboxUrl})`,
			() => importCredential(userFolder, credential, { env: FILE_ENV }),
			{ running: 'n8n import:credentials (n8n loads itself first: seconds to a minute)' },
		);
		state.imports.credential = credHash;
		writeState(state);
	} else say(`credential "${SANDBOX_CREDENTIAL_NAME}" already imported`);

	// The AI agent example's model: the scripted OpenAI-compatible server started beside the sandbox.
	const modelCredential = openAiCredential(modelBaseUrl);
	const modelHash = sha256(JSON.stringify(modelCredential));
	if (!haveCreds.includes(modelCredential.id) || state.imports.modelCredential !== modelHash) {
		await step(
			`imported credential "${OPENAI_CREDENTIAL_NAME}" (Base URL ${modelBaseUrl})`,
			() => importCredential(userFolder, modelCredential, { env: FILE_ENV }),
			{ running: 'n8n import:credentials' },
		);
		state.imports.modelCredential = modelHash;
		writeState(state);
	} else say(`credential "${OPENAI_CREDENTIAL_NAME}" already imported`);

	const workflows = Object.values(loadExamples()).map((wf) => withPdfPath(wf, PDF_PATH));
	const todo = workflows.filter(
		(wf) =>
			!haveWorkflows.includes(wf.id) ||
			state.imports.workflows[wf.id] !== sha256(JSON.stringify(wf)),
	);
	if (todo.length) {
		await step(
			`imported ${todo.length} example workflow(s): ${todo.map((w) => `"${w.name}"`).join(', ')}`,
			() => importWorkflow(userFolder, todo, { env: FILE_ENV }),
			{ running: `n8n import:workflow (${todo.length} workflows)` },
		);
		for (const wf of todo) state.imports.workflows[wf.id] = sha256(JSON.stringify(wf));
		writeState(state);
	} else say(`${workflows.length} example workflows already imported`);
	return workflows;
}

async function ensureOwner(url, state) {
	try {
		const res = await setupOwner(url, OWNER);
		state.owner = { email: OWNER.email, password: OWNER.password };
		writeState(state);
		say(`created the n8n owner account ${OWNER.email}`);
		return res.cookie;
	} catch (err) {
		// Set up on an earlier start: log in with what was recorded then.
		const creds = state.owner ?? OWNER;
		try {
			return (await login(url, creds)).cookie;
		} catch {
			throw new Error(
				`the n8n owner exists but ${creds.email} cannot log in (${String(err.message).split('\n')[0]}); run with --reset for a fresh n8n`,
			);
		}
	}
}

async function smokeChecks(url, cookie, workflows) {
	const editor = await n8nFetch(`${url}/`);
	const html = await editor.text();
	if (editor.status !== 200 || !/<html/i.test(html))
		throw new Error(`GET ${url}/ answered ${editor.status}, not the editor`);
	const creds = (await restGet(url, '/rest/credentials', cookie)).data;
	const cred = creds.find((c) => c.id === SANDBOX_CREDENTIAL_ID);
	if (!cred || cred.type !== 'airSignApi')
		throw new Error(
			`credential ${SANDBOX_CREDENTIAL_ID} missing: ${JSON.stringify(creds.map((c) => c.id))}`,
		);
	const list = (await restGet(url, '/rest/workflows', cookie)).data;
	const missing = workflows.filter((wf) => !list.some((w) => w.id === wf.id && w.name === wf.name));
	if (missing.length)
		throw new Error(`workflows missing in n8n: ${missing.map((w) => w.name).join(', ')}`);
	const types = await (
		await n8nFetch(`${url}/types/nodes.json`, { headers: { cookie, 'browser-id': 'e2e' } })
	).json();
	for (const name of ['airSign', 'airSignTrigger'])
		if (!types.some((t) => t.name === `${PACKAGE_NAME}.${name}`))
			throw new Error(`node type ${PACKAGE_NAME}.${name} not loaded`);
	const state = await (await fetchFresh(`${sandbox.url}/_sandbox/state`)).json();
	if (state.demo?.clientId !== 'demo-client')
		throw new Error('sandbox control plane did not answer as expected');
	say(
		`smoke: editor ${url}/ answers 200, credential "${cred.name}" and ${workflows.length} workflows present, both node types loaded, sandbox answers`,
	);

	// What "Execute workflow" in the editor does: a manual run in the server, against the demo data
	// (5 drafts: 2 complete with 3 recipients in all; 1 incomplete, 1 without recipients, 1 self-sign).
	const wf = (await restGet(url, '/rest/workflows/AirSignExSendDr1', cookie)).data;
	const trigger = wf.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	const res = await n8nFetch(`${url}/rest/workflows/${wf.id}/run`, {
		method: 'POST',
		headers: { cookie, 'browser-id': 'e2e', 'content-type': 'application/json' },
		body: JSON.stringify({ workflowData: wf, triggerToStartFrom: { name: trigger.name } }),
		signal: AbortSignal.timeout(30_000),
	});
	const body = await res.json();
	const executionId = body?.data?.executionId;
	if (!res.ok || !executionId)
		throw new Error(`POST /rest/workflows/${wf.id}/run: ${res.status} ${JSON.stringify(body)}`);
	let exec;
	for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 300))) {
		exec = (await restGet(url, `/rest/executions/${executionId}`, cookie)).data;
		if (exec.finished || ['success', 'error', 'crashed'].includes(exec.status)) break;
		if (Date.now() - t0 > 30_000)
			throw new Error(`manual execution ${executionId} did not finish in 30 s`);
	}
	if (exec.status !== 'success')
		throw new Error(`manual execution of "${wf.name}" ended ${exec.status}`);
	const sent = await (await fetchFresh(`${sandbox.url}/_sandbox/outbox`)).json();
	if (sent.length !== 3)
		throw new Error(
			`expected 3 invitations in the sandbox outbox after "${wf.name}", got ${sent.length}`,
		);
	say(
		`smoke: "${wf.name}" run as from the editor: execution ${executionId} success, 3 invitations in the sandbox outbox`,
	);
	await smokeContractAssistant(url, cookie, workflows);
}

/**
 * The AI agent example with the scripted demo model: activated (its chat is public), a chat
 * message drafts a contract, the execution waits for approval, the approval sends it; then
 * deactivated again, as it was imported.
 */
async function smokeContractAssistant(url, cookie, workflows) {
	const workflow = workflows.find((w) => w.id === 'AirSignExAgent01');
	if (!workflow) throw new Error('examples/contract-assistant.json was not imported');
	await activateWorkflowAsEditor(url, cookie, workflow.id);
	try {
		const { execution, request } = await chatWithContractAssistant({
			url,
			cookie,
			workflow,
			chatInput: 'Prepare the employment contract for Jane Citizen (jane.citizen@example.com).',
			chatSessionId: 'dev-smoke',
		});
		const finished = await answerApproval({
			url,
			cookie,
			workflow,
			executionId: execution.id,
			approvalUrl: request.approvalUrl,
		});
		if (finished.status !== 'success')
			throw new Error(`"${workflow.name}" ended ${finished.status} after the approval`);
		const sent = await (await fetchFresh(`${sandbox.url}/_sandbox/outbox`)).json();
		const invited = sent.filter((m) => m.sessionId === request.sessionId).length;
		if (invited !== 2)
			throw new Error(`expected 2 invitations for the approved draft, got ${invited}`);
		say(
			`smoke: "${workflow.name}": chat → draft ${request.sessionId} waited for approval → approved → sent (2 invitations)`,
		);
	} finally {
		await deactivateWorkflowAsEditor(url, cookie, workflow.id);
	}
}

/**
 * The control-plane calls the banner prints as curl lines (and `--smoke` makes): a recipient of the
 * pending demo session with the most signers signs; another pending session is completed directly.
 */
function demoCalls(pending) {
	const signers = (s) => s.recipients.filter((r) => r.email && r.status !== 'completed');
	const bySigners = [...pending].sort((a, b) => signers(b).length - signers(a).length);
	const toSign = bySigners[0];
	const toSet = bySigners.find((s) => s !== toSign) ?? toSign;
	const at = (s) => `${sandbox.url}/_sandbox/sessions/${s?.sessionId ?? '<sessionId>'}`;
	const signer = toSign && signers(toSign)[0]?.email;
	return {
		toSign,
		toSet,
		sign: { method: 'POST', url: `${at(toSign)}/sign`, body: signer ? { email: signer } : {} },
		complete: { method: 'PATCH', url: at(toSet), body: { status: 'completed' } },
	};
}

const curl = ({ method, url, body }) => [
	`       curl -s -X ${method} ${url} \\`,
	`            -H 'content-type: application/json' -d '${JSON.stringify(body)}'`,
];

function banner(url, state, { toSign, sign, complete }) {
	const wfUrl = (id) => `${url}/workflow/${id}`;
	const lines = [
		'',
		'─'.repeat(78),
		` n8n with ${PACKAGE_NAME} is ready:  ${url}`,
		`   log in as  ${state.owner?.email ?? OWNER.email}  /  ${state.owner?.password ?? OWNER.password}`,
		` AirSign sandbox (demo data):      ${sandbox.url}`,
		`   control plane                   ${sandbox.url}/_sandbox/state`,
		`   credential in n8n               "${SANDBOX_CREDENTIAL_NAME}" (client demo-client / demo-secret)`,
		'',
		' Try first:',
		`  1. Open "AirSign: send every draft" (${wfUrl('AirSignExSendDr1')}) and click`,
		'     "Execute workflow": it lists the drafts and sends each; incomplete drafts',
		'     come out as error items. See the invitations:',
		`       curl -s ${sandbox.url}/_sandbox/outbox`,
		'     Run it again after making a new draft:',
		`       curl -s -X POST ${sandbox.url}/_sandbox/sessions -H 'content-type: application/json' \\`,
		`            -d '{"name":"My contract","recipients":[{"name":"Ann","email":"ann@example.com"}]}'`,
		`  2. "AirSign: upload a PDF" (${wfUrl('AirSignExUpload1')}) uploads`,
		`     ${show(PDF_PATH)} (n8n may read files in ${show(FILES_DIR)}/ only).`,
		`  3. "AirSign: a failed send does not stop the workflow" (${wfUrl('AirSignExCoFail1')}).`,
		`  4. The trigger: open "AirSign: notify when a session is completed"`,
		`     (${wfUrl('AirSignExNotify1')}), click "Publish" (activates it), then complete a session:`,
		...curl(complete),
		'     Within a minute (the trigger polls once a minute) an execution shows under Executions.',
		`     Renaming it afterwards (-d '{"name":"Renamed"}') starts none; "cancelled" and "expired"`,
		'     are the Session Cancelled and Session Expired events.',
		`  5. "AirSign: when a signer signs, tell the sales owner" (${wfUrl('AirSignExSigned1')}):`,
		`     publish it, then make a recipient${toSign ? ` of "${toSign.name}"` : ''} sign (-d '{}': the next signer;`,
		'     when everyone has signed, the session is completed):',
		...curl(sign),
		'     One item per signature; the message for the sales owner is in the second node.',
		`  6. The AI agent: open "AirSign: contract assistant" (${wfUrl('AirSignExAgent01')}),`,
		'     click "Open chat" and ask for a contract. Its model is a local script (it always drafts',
		"     Jane Citizen's employment contract): the draft waits for approval; approve it with",
		`       curl -s -X POST '<approvalUrl of "Ask for approval">' -H 'content-type: application/json' -d '{"approved":true}'`,
		'     and Send emails the recipients (docs/ai-agents.md).',
		'',
		` Rebuild after changing nodes/ or credentials/: Ctrl-C and run npm run dev again.`,
		' Ctrl-C stops n8n and the sandbox. A fresh n8n: npm run dev -- --reset',
		'─'.repeat(78),
		'',
	];
	process.stdout.write(lines.join('\n') + '\n');
}

/** --smoke: the banner's two control-plane calls do what it says. */
async function smokeDemoCalls({ toSign, sign, complete }) {
	if (!toSign) throw new Error('the demo data has no pending session to sign');
	const send = async ({ method, url, body }) => {
		const res = await fetchFresh(url, {
			method,
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
		return await res.json();
	};
	const othersLeft = toSign.recipients.some(
		(r) => r.status !== 'completed' && r.email !== sign.body.email,
	);
	const signed = await send(sign);
	const who = signed.recipients.find((r) => r.email === sign.body.email);
	if (who?.status !== 'completed' || signed.status !== (othersLeft ? 'inProgress' : 'completed'))
		throw new Error(`after ${sign.method} ${sign.url}: ${JSON.stringify(signed)}`);
	const completed = await send(complete);
	if (completed.status !== 'completed')
		throw new Error(`after ${complete.method} ${complete.url}: ${JSON.stringify(completed)}`);
	say(
		`smoke: the printed curls work: ${who.email} signed "${signed.name}" (now ${signed.status}), "${completed.name}" completed`,
	);
}

async function main() {
	if (flag('--reset') && existsSync(userFolder)) {
		if (!/\.n8n-dev|airsign-dev/.test(path.basename(userFolder)))
			fail(`--reset refuses to delete ${userFolder} (not a .n8n-dev folder)`);
		rmSync(userFolder, { recursive: true, force: true });
		say(`--reset: deleted ${userFolder}`);
	}
	mkdirSync(FILES_DIR, { recursive: true });
	for (const [port, what, opt] of [
		[n8nPort, 'n8n', '--port'],
		[sandboxPort, 'the sandbox', '--sandbox-port'],
		[modelPort, 'the demo model', '--model-port'],
	])
		if (!(await portFree(port)))
			fail(
				`port ${port} (for ${what}) is in use: is npm run dev already running? Choose another with ${opt} N`,
			);

	stage(0);
	const installed = await installN8n(); // minutes the very first time, instant afterwards
	if (!installed.skipped) say(`n8n installed into ${show(installed.cacheDir)} (done once)`);
	const state = readState();
	await installPackage(state);
	if (!existsSync(PDF_PATH)) writeFileSync(PDF_PATH, samplePdf());

	stage(3);
	sandbox = await step(`sandbox started on ${`http://127.0.0.1:${sandboxPort}`}`, () =>
		startSandboxProcess({ port: sandboxPort }),
	);
	model = await startFakeOpenAi({
		scripts: SCRIPTS,
		apiKey: FAKE_OPENAI_API_KEY,
		port: modelPort,
		log: (line) => say(`demo model: ${line}`),
	});
	say(`scripted demo model (OpenAI-compatible) on ${model.baseUrl}`);
	stage(4);
	const workflows = await importFixtures(state, sandbox.url, model.baseUrl);
	stage(5);
	n8n = await step(
		`n8n started on http://127.0.0.1:${n8nPort}`,
		() =>
			startN8n({
				userFolder,
				port: n8nPort,
				env: { ...FILE_ENV, N8N_LOG_LEVEL: verbose ? 'info' : 'warn' },
				timeoutMs: 180_000,
			}),
		{ running: 'waiting for n8n to migrate its database and answer (up to 3 min allowed)' },
	);
	stage(6);
	const cookie = await ensureOwner(n8n.url, state);

	// From here on, n8n's and the sandbox's own output goes to the terminal.
	const forward = (stream, prefix) =>
		stream?.on('data', (chunk) => {
			for (const line of String(chunk).split('\n'))
				if (line.trim()) process.stdout.write(`${prefix} ${line}\n`);
		});

	if (smoke) {
		await smokeChecks(n8n.url, cookie, workflows);
		await smokeDemoCalls(demoCalls(await sandbox.listSessions({ status: 'pending' })));
		await stopAll();
		say(`SMOKE OK in ${((Date.now() - t00) / 1000).toFixed(1)} s`);
		process.exit(0);
	}

	const pending = await sandbox.listSessions({ status: 'pending' }).catch(() => []);
	banner(n8n.url, state, demoCalls(pending));
	forward(n8n.process.stdout, '[n8n]');
	forward(n8n.process.stderr, '[n8n]');
	say(`ready in ${((Date.now() - t00) / 1000).toFixed(1)} s`);
	// If either process dies on its own, stop the other one and exit.
	const died = await Promise.race([
		new Promise((r) =>
			n8n.process.once('exit', (code, sig) =>
				r(`n8n exited (${describeExit({ code, signal: sig })})`),
			),
		),
		new Promise((r) =>
			sandbox.process.once('exit', (code, sig) =>
				r(`the sandbox exited (${describeExit({ code, signal: sig })})`),
			),
		),
	]);
	if (stopping) return;
	say(died);
	await stopAll();
	process.exit(1);
}

main().catch(async (err) => {
	console.error(`[dev] FAILED: ${err.stack ?? err}`);
	await stopAll();
	process.exit(1);
});
