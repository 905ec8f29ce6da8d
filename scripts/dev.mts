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
//     --setup-only       install and import what is missing, then stop before n8n starts (the
//                        tier's second start: what it reuses)
//     --tarball FILE     install this packed tarball instead of building and packing
//     --verbose          n8n logs at level info (default: warn)
//
// The first run installs the pinned n8n into .cache/n8n (minutes, once; see the README). Later runs
// reinstall the package only when the tarball's SHA-256 changed, and import the credentials and
// examples only when they are missing or their source changed. Ctrl-C (or SIGTERM) stops them all.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { installN8n, seconds, ticker } from '../e2e/install-n8n.mts';
import * as n8n from '../e2e/lib/n8n.mts';
import { describeExit, fetchFresh } from '../e2e/lib/proc.mts';
import { startSandboxProcess } from '../e2e/lib/sandbox.mts';
import { startFakeOpenAi } from '../e2e/lib/fakeOpenAi.mts';
import { FAKE_OPENAI_API_KEY, SCRIPTS, openAiCredential } from '../e2e/lib/agentScripts.mts';
import { answerApproval, chatWithContractAssistant } from '../e2e/lib/contractAssistant.mts';
import {
	DEV_OWNER,
	SANDBOX_CREDENTIAL_ID,
	loadExamples,
	samplePdf,
	sandboxCredential,
	withPdfPath,
} from '../e2e/lib/fixtures.mts';
import { statusInWords } from '../nodes/AirSign/helpers/constants.ts';
import {
	banner,
	demoCalls,
	type ControlPlaneCall,
	type DemoCalls,
	type DemoSession,
} from './dev/banner.mts';
import {
	FILES_DIR,
	PDF_PATH,
	fail,
	flag,
	option,
	say,
	show,
	userFolder,
	type DevState,
	type ExampleWorkflow,
} from './dev/lib.mts';
import { isStopping, procs, stopAll, takeOverSignals } from './dev/processes.mts';

function portOption(name: string, envName: string, fallback: number): number {
	const raw = option(name, envName, String(fallback));
	const port = Number(raw);
	if (!Number.isInteger(port) || port < 1 || port > 65535)
		fail(`${name}: not a port number: ${raw}`);
	return port;
}

const smoke = flag('--smoke') || /^(1|true|yes)$/i.test(process.env.AIRSIGN_DEV_SMOKE ?? '');
const setupOnly = flag('--setup-only');
const verbose = flag('--verbose');
const n8nPort = portOption('--port', 'AIRSIGN_DEV_N8N_PORT', 5678);
const sandboxPort = portOption('--sandbox-port', 'AIRSIGN_SANDBOX_PORT', 8787);
const modelPort = portOption('--model-port', 'AIRSIGN_DEV_MODEL_PORT', 8788);
const tarballOption = option('--tarball', undefined, undefined);
const STATE_FILE = path.join(userFolder, 'airsign-dev.json');
// n8n 2.x lets Read/Write Files from Disk touch this folder only (default ~/.n8n-files).
const FILE_ENV = { N8N_RESTRICT_FILE_ACCESS_TO: FILES_DIR };

const t00 = Date.now();
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
const stage = (index: number): boolean =>
	say(`step ${index + 1} of ${STAGES.length}: ${STAGES[index]}`);
async function step<T>(
	label: string,
	fn: () => T | Promise<T>,
	{ running }: { running?: string } = {},
): Promise<T> {
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
const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

const readState = (): DevState => {
	try {
		return JSON.parse(readFileSync(STATE_FILE, 'utf8')) as DevState;
	} catch {
		return {};
	}
};
const writeState = (state: DevState): void =>
	writeFileSync(STATE_FILE, JSON.stringify(state, null, 2) + '\n');

function portFree(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}

takeOverSignals();

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
	] as const)
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
	procs.sandbox = await step(`sandbox started on ${`http://127.0.0.1:${sandboxPort}`}`, () =>
		startSandboxProcess({ port: sandboxPort }),
	);
	procs.model = await startFakeOpenAi({
		scripts: SCRIPTS,
		apiKey: FAKE_OPENAI_API_KEY,
		port: modelPort,
		log: (line: string) => say(`demo model: ${line}`),
	});
	say(`scripted demo model (OpenAI-compatible) on ${procs.model.baseUrl}`);
	stage(4);
	const workflows = await importFixtures(state, procs.sandbox.url, procs.model.baseUrl);
	if (setupOnly) {
		await stopAll();
		say(`set up in ${((Date.now() - t00) / 1000).toFixed(1)} s; --setup-only: n8n not started`);
		process.exit(0);
	}
	stage(5);
	procs.n8n = await step(
		`n8n started on http://127.0.0.1:${n8nPort}`,
		() =>
			n8n.startN8n({
				userFolder,
				port: n8nPort,
				env: { ...FILE_ENV, N8N_LOG_LEVEL: verbose ? 'info' : 'warn' },
			}),
		{
			running:
				'waiting for n8n to migrate its database and answer (up to 10 min allowed, for a busy machine)',
		},
	);
	stage(6);
	await ensureOwner(procs.n8n.url, state);

	// From here on, n8n's and the sandbox's own output goes to the terminal.
	const forward = (stream: Readable | null | undefined, prefix: string) =>
		stream?.on('data', (chunk: Buffer | string) => {
			for (const line of String(chunk).split('\n'))
				if (line.trim()) process.stdout.write(`${prefix} ${line}\n`);
		});

	if (smoke) {
		// with the cookie of every later start's path: the owner exists, so it logs in as recorded
		await smokeChecks(procs.n8n.url, await ensureOwner(procs.n8n.url, state), workflows);
		const calls = demoCalls(await procs.sandbox.listSessions({ status: 'pending' }));
		banner(procs.n8n.url, state, calls, workflows); // what a user would read, from what was set up
		await smokeDemoCalls(calls);
		const exit = await procs.n8n.stop();
		if (exit.code !== 0) throw new Error(`n8n ended ${describeExit(exit)} on SIGTERM, not 0`);
		await stopAll();
		say(`SMOKE OK in ${((Date.now() - t00) / 1000).toFixed(1)} s`);
		process.exit(0);
	}

	const pending: DemoSession[] = await procs.sandbox
		.listSessions({ status: 'pending' })
		.catch(() => []);
	banner(procs.n8n.url, state, demoCalls(pending), workflows);
	forward(procs.n8n.process.stdout, '[n8n]');
	forward(procs.n8n.process.stderr, '[n8n]');
	say(`ready in ${((Date.now() - t00) / 1000).toFixed(1)} s`);
	// If either process dies on its own, stop the other one and exit.
	const died = (name: string, { process: child }: { process: NodeJS.EventEmitter }) =>
		new Promise<string>((r) =>
			child.once('exit', (code: number | null, signal: NodeJS.Signals | null) =>
				r(`${name} exited (${describeExit({ code, signal })})`),
			),
		);
	const why = await Promise.race([died('n8n', procs.n8n), died('the sandbox', procs.sandbox)]);
	if (isStopping()) return; // a signal stops them
	say(why);
	await stopAll();
	process.exit(1);
}

main().catch(async (err) => {
	console.error(`[dev] FAILED: ${err.stack ?? err}`);
	await stopAll();
	process.exit(1);
});

// The setup steps, each only when needed.
async function installPackage(state: DevState): Promise<void> {
	let tarball = tarballOption && path.resolve(tarballOption);
	let packDir: string | undefined;
	stage(1);
	if (tarball) say(`using ${show(tarball)}, not building`);
	else {
		({ tarball } = await step(
			'built and packed the package (npm run build + npm pack)',
			() => n8n.packPackage(),
			{ running: 'building and packing (tsc, then npm pack)' },
		));
		packDir = path.dirname(tarball);
	}
	try {
		const hash = sha256(readFileSync(tarball));
		const installed = path.join(n8n.installedPackageDir(userFolder), 'package.json');
		stage(2);
		if (state.packageSha256 === hash && existsSync(installed)) {
			say(`package unchanged (tarball sha256 ${hash.slice(0, 12)}…): not reinstalled`);
		} else {
			await step(
				`installed ${path.basename(tarball)} into ${show(userFolder)}/.n8n/nodes`,
				() => n8n.installPackageIntoN8n(userFolder, tarball),
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
async function importFixtures(
	state: DevState,
	sandboxUrl: string,
	modelBaseUrl: string,
): Promise<ExampleWorkflow[]> {
	const imported = (state.imported ??= {});
	const dbReady = existsSync(path.join(userFolder, '.n8n', 'database.sqlite'));
	// Each kind in one CLI command: every command boots n8n (seconds to a minute on a busy machine).
	async function importChanged<T extends { id: string; name: string }>(
		items: T[],
		table: string,
		command: string,
		importer: (folder: string, todo: T[], opts: { env: typeof FILE_ENV }) => Promise<unknown>,
		unchanged: string,
	): Promise<void> {
		const have = dbReady
			? ((await n8n.queryDb(userFolder, `select id from ${table}`)) as Array<{ id: string }>)
			: [];
		const todo = items.filter(
			(x) => !have.some((r) => r.id === x.id) || imported[x.id] !== sha256(JSON.stringify(x)),
		);
		if (!todo.length) return void say(unchanged);
		await step(
			`n8n ${command}: ${todo.map((x) => `"${x.name}"`).join(', ')}`,
			() => importer(userFolder, todo, { env: FILE_ENV }),
			{ running: `n8n ${command} (${todo.length}; n8n loads itself first: seconds to a minute)` },
		);
		for (const x of todo) imported[x.id] = sha256(JSON.stringify(x));
		writeState(state);
	}

	// The AI agent example's model: the scripted OpenAI-compatible server started beside the sandbox.
	const credentials = [sandboxCredential(sandboxUrl), openAiCredential(modelBaseUrl)];
	await importChanged(
		credentials,
		'credentials_entity',
		'import:credentials',
		n8n.importCredential,
		`credential ${credentials.map((c) => `"${c.name}"`).join(', ')} already imported`,
	);
	const workflows = Object.values(loadExamples()).map(
		(wf) => withPdfPath(wf, PDF_PATH) as ExampleWorkflow,
	);
	await importChanged(
		workflows,
		'workflow_entity',
		'import:workflow',
		n8n.importWorkflow,
		`${workflows.length} example workflows already imported`,
	);
	return workflows;
}

async function ensureOwner(url: string, state: DevState): Promise<string> {
	try {
		const res = await n8n.setupOwner(url, DEV_OWNER);
		state.owner = { email: DEV_OWNER.email, password: DEV_OWNER.password };
		writeState(state);
		say(`created the n8n owner account ${DEV_OWNER.email}`);
		return res.cookie;
	} catch (err) {
		// Set up on an earlier start: log in with what was recorded then.
		const creds = state.owner ?? DEV_OWNER;
		try {
			const { cookie } = await n8n.login(url, creds);
			say(`logged in as ${creds.email}, the owner an earlier start created`);
			return cookie;
		} catch {
			throw new Error(
				`the n8n owner exists but ${creds.email} cannot log in (${String(err.message).split('\n')[0]}); run with --reset for a fresh n8n`,
			);
		}
	}
}

// --smoke (used by `npm run test:e2e`): what `npm run dev` set up works as its banner says.
async function smokeChecks(
	url: string,
	cookie: string,
	workflows: ExampleWorkflow[],
): Promise<void> {
	const editor = await n8n.n8nFetch(`${url}/`);
	const html = await editor.text();
	if (editor.status !== 200 || !/<html/i.test(html))
		throw new Error(`GET ${url}/ answered ${editor.status}, not the editor`);
	const health = await n8n.n8nFetch(`${url}/healthz`);
	if (health.status !== 200) throw new Error(`GET ${url}/healthz answered ${health.status}`);
	// What n8n's REST API answers (`{ data }`), as far as the checks read it.
	const rest = async <T,>(at: string) => ((await n8n.restGet(url, at, cookie)) as { data: T }).data;
	const creds = await rest<Array<{ id: string; name: string; type: string }>>('/rest/credentials');
	const cred = creds.find((c) => c.id === SANDBOX_CREDENTIAL_ID);
	if (!cred || cred.type !== 'airSignApi')
		throw new Error(
			`credential ${SANDBOX_CREDENTIAL_ID} missing: ${JSON.stringify(creds.map((c) => c.id))}`,
		);
	const list = await rest<ExampleWorkflow[]>('/rest/workflows');
	const missing = workflows.filter((wf) => !list.some((w) => w.id === wf.id && w.name === wf.name));
	if (missing.length)
		throw new Error(`workflows missing in n8n: ${missing.map((w) => w.name).join(', ')}`);
	const types: Array<{ name: string }> = await (
		await n8n.n8nFetch(`${url}/types/nodes.json`, { headers: { cookie, 'browser-id': 'e2e' } })
	).json();
	const ours = ['airSign', 'airSignTrigger', 'airSignTool'].map((n) => `${n8n.PACKAGE_NAME}.${n}`);
	for (const name of [...ours, 'n8n-nodes-base.set'])
		if (!types.some((t) => t.name === name)) throw new Error(`node type ${name} not loaded`);
	const state = await procs.sandbox!.state();
	if (state.demo?.clientId !== 'demo-client')
		throw new Error('sandbox control plane did not answer as expected');
	say(
		`smoke: editor ${url}/ and /healthz answer 200, credential "${cred.name}" and ${workflows.length} workflows present, the package's 3 node types and the built-in ones loaded, sandbox answers`,
	);

	// What "Execute workflow" in the editor does: a manual run in the server, against the demo data
	// (5 drafts: 2 complete with 3 recipients in all; 1 incomplete, 1 without recipients, 1 self-sign).
	const wf = await rest<ExampleWorkflow>('/rest/workflows/AirSignExSendDr1');
	const executionId = await n8n.runWorkflowAsEditor(url, cookie, wf.id);
	const exec = await n8n.waitForExecutionEnd(url, cookie, executionId);
	if (exec.status !== 'success')
		throw new Error(`manual execution of "${wf.name}" ended ${exec.status}`);
	const sent = await procs.sandbox!.outbox();
	if (sent.length !== 3)
		throw new Error(
			`expected 3 invitations in the sandbox outbox after "${wf.name}", got ${sent.length}`,
		);
	say(
		`smoke: "${wf.name}" run as from the editor: execution ${executionId} success, 3 invitations in the sandbox outbox`,
	);
	await smokeContractAssistant(url, cookie, workflows);
}
/** The AI agent example on the scripted model: chat → draft → approval → sent; inactive again after. */
async function smokeContractAssistant(
	url: string,
	cookie: string,
	workflows: ExampleWorkflow[],
): Promise<void> {
	const workflow = workflows.find((w) => w.id === 'AirSignExAgent01');
	if (!workflow) throw new Error('examples/contract-assistant.json was not imported');
	await n8n.activateWorkflowAsEditor(url, cookie, workflow.id);
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
			executionId: execution.id,
			approvalUrl: request.approvalUrl,
		});
		if (finished.status !== 'success')
			throw new Error(`"${workflow.name}" ended ${finished.status} after the approval`);
		const outbox = await procs.sandbox!.outbox();
		const invited = outbox.filter((m) => m.sessionId === request.sessionId).length;
		if (invited !== 2)
			throw new Error(`expected 2 invitations for the approved draft, got ${invited}`);
		say(
			`smoke: "${workflow.name}": chat → draft ${request.sessionId} waited for approval → approved → sent (2 invitations)`,
		);
	} finally {
		await n8n.deactivateWorkflowAsEditor(url, cookie, workflow.id);
	}
}

/** --smoke: the banner's two control-plane calls do what it says. */
async function smokeDemoCalls({ toSign, sign, complete }: DemoCalls): Promise<void> {
	if (!toSign) throw new Error('the demo data has no pending session to sign');
	const send = async ({ method, url, body }: ControlPlaneCall): Promise<DemoSession> => {
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
	// completed as AirSign completes a session: every signer signed, none left "sent"
	if (
		completed.status !== 'completed' ||
		!completed.recipients.every((r) => r.status === 'completed')
	)
		throw new Error(`after ${complete.method} ${complete.url}: ${JSON.stringify(completed)}`);
	say(
		`smoke: the printed curls work: ${who.email} signed "${signed.name}" (now ${statusInWords(signed.status)}), "${completed.name}" completed, its ${completed.recipients.length} recipient(s) signed`,
	);
}
