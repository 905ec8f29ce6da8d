// @ts-nocheck (typed file by file: issue 34)
// Helpers to drive the cached real n8n (see e2e/install-n8n.mts) from end-to-end tests.
// Every helper is bounded in time and, on failure, throws an error with the tail of n8n's output.
import { spawn } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { N8N_BIN, NODE_BIN, PROFILE, REPO_ROOT, n8nEnv } from '../install-n8n.mts';
import {
	describeExit,
	describeOutput,
	fetchFresh,
	killTree,
	runCommand,
	sleep,
	stopGracefully,
	tail,
} from './proc.mts';

export { N8N_BIN, NODE_BIN, PROFILE, REPO_ROOT, n8nEnv };
/**
 * Bounds of n8n commands and starts. Generous: on this project's 2-core machine, shared with other
 * jobs, an `n8n import:workflow` measured 40 s and an `n8n start` 117 s (2.7 s and 5.5 s when idle).
 * They only stop a hung process; nothing waits for them to pass.
 */
export const N8N_COMMAND_TIMEOUT_MS = 300_000;
/** One REST call to a running n8n (503s included, see n8nFetch). */
const REST_TIMEOUT_MS = 60_000;

/**
 * A request to a running n8n, on a fresh connection, repeated while n8n answers 503. n8n pings
 * its database every 2 s and gives the ping 5 s; on a loaded machine a ping takes longer, n8n
 * marks the database disconnected and answers every request with 503 "Database is not ready!"
 * until the next ping succeeds (seen on 1.123.81 at the owner setup right after start). That
 * answer comes from a middleware before any handler, so sending again is safe, POSTs included.
 */
export async function n8nFetch(url, init = {}, { timeoutMs = REST_TIMEOUT_MS } = {}) {
	const t0 = Date.now();
	for (;;) {
		const res = await fetchFresh(url, { signal: AbortSignal.timeout(timeoutMs), ...init });
		if (res.status !== 503 || Date.now() - t0 > timeoutMs) return res;
		await res.arrayBuffer();
		await sleep(500);
	}
}

/**
 * POSTs to a production webhook, sent again while n8n answers 404 (the webhook is not registered
 * yet, so nothing ran): n8n 2.41 answers an activation at once and registers the workflow's
 * webhooks a moment later, through its workflow-publication outbox; so does a start of n8n with
 * workflows published from the CLI. Any other answer is returned.
 */
export async function postToWebhook(
	url,
	init,
	{ timeoutMs = REST_TIMEOUT_MS, registeredWithinMs = 90_000 } = {},
) {
	const deadline = Date.now() + registeredWithinMs;
	for (;;) {
		const res = await n8nFetch(url, { method: 'POST', ...init }, { timeoutMs });
		if (res.status !== 404 || Date.now() > deadline) return res;
		await res.arrayBuffer();
		await sleep(500);
	}
}

export const PACKAGE_NAME = JSON.parse(
	readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'),
).name;

/** A fresh, empty n8n user folder under the OS temp dir (n8n will create `.n8n/` inside). */
export function makeUserFolder(prefix = 'airsign-e2e-') {
	return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeUserFolder(userFolder) {
	if (userFolder && userFolder.startsWith(os.tmpdir()))
		rmSync(userFolder, { recursive: true, force: true, maxRetries: 3 });
}

function cleanNpmEnv(extra = {}) {
	const env = { ...process.env };
	for (const key of Object.keys(env)) if (/^npm_/i.test(key)) delete env[key];
	return {
		...env,
		npm_config_update_notifier: 'false',
		npm_config_fund: 'false',
		npm_config_audit: 'false',
		...extra,
	};
}

/**
 * `npm run build` then `npm pack` of the repository into a temp dir: exactly what npm users get.
 * Returns { tarball, files } (files = paths inside the tarball, from `npm pack --json`).
 */
export async function packPackage({ build = true, destDir, timeoutMs = 180_000 } = {}) {
	if (build)
		await runCommand('npm', ['run', 'build'], {
			cwd: REPO_ROOT,
			env: cleanNpmEnv(),
			timeoutMs,
			label: 'npm run build',
		});
	const dest = destDir ?? mkdtempSync(path.join(os.tmpdir(), 'airsign-pack-'));
	const { stdout } = await runCommand(
		'npm',
		['pack', '--json', '--ignore-scripts', '--pack-destination', dest],
		{
			cwd: REPO_ROOT,
			env: cleanNpmEnv(),
			timeoutMs: 60_000,
			label: 'npm pack',
		},
	);
	const info = JSON.parse(stdout.slice(stdout.indexOf('[')))[0];
	const tarball = path.join(dest, info.filename);
	if (!existsSync(tarball)) throw new Error(`npm pack did not produce ${tarball}`);
	return { tarball, files: info.files.map((f) => f.path) };
}

/** Where n8n keeps this package once installed in `userFolder` (any way it was installed). */
export function installedPackageDir(userFolder) {
	return path.join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
}

/**
 * Installs the packed tarball as a community package of the n8n instance at `userFolder`:
 * `$userFolder/.n8n/nodes/node_modules/<package>`, the folder n8n scans for `n8n-nodes-*` at start.
 *
 * Peer dependency n8n-workflow: n8n's own installer strips peerDependencies before `npm install`,
 * and n8n's loader puts n8n's module paths on NODE_PATH so `require('n8n-workflow')` from the
 * package resolves to n8n's copy. `--legacy-peer-deps` stops npm 7+ from installing a second,
 * different n8n-workflow next to the package (which would break `instanceof` checks on errors).
 */
export async function installPackageIntoN8n(
	userFolder,
	tarball,
	// an n8n this tier did not start (e2e/external.mts) names its nodes folder itself
	{ timeoutMs = 180_000, nodesDir = path.join(userFolder, '.n8n', 'nodes') } = {},
) {
	mkdirSync(nodesDir, { recursive: true });
	const pkgJson = path.join(nodesDir, 'package.json');
	if (!existsSync(pkgJson))
		writeFileSync(
			pkgJson,
			JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2),
		);
	await runCommand(
		'npm',
		[
			'install',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			'--legacy-peer-deps',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--no-package-lock',
			tarball,
		],
		{
			cwd: nodesDir,
			env: cleanNpmEnv(),
			timeoutMs,
			label: `npm install ${path.basename(tarball)} (into ${nodesDir})`,
		},
	);
	const packageDir = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	if (!existsSync(path.join(packageDir, 'package.json')))
		throw new Error(`${packageDir} missing after npm install`);
	if (existsSync(path.join(nodesDir, 'node_modules', 'n8n-workflow')))
		throw new Error(
			'npm installed a separate n8n-workflow beside the package; it must come from n8n itself',
		);
	return packageDir;
}

/**
 * Runs a one-shot `n8n <args>` (import, publish, execute) for `userFolder` with the profile's
 * Node (e2e/n8n-profiles.mts); resolves { code, signal, stdout, stderr, ms }.
 *
 * On n8n 2.x, one-shot commands run on n8n's "legacy" expression engine. n8n 2.x defaults to the
 * isolated-vm engine ("vm"); `execute` and `import:workflow` start it, then leave through
 * `BaseCommand.finally()` and a bare `process.exit()` without disposing it (only `start`,
 * `worker` and `webhook` dispose it, in `exitSuccessFully()`). When the CPU is busy, the isolate's
 * threads are still running while the process tears down, and the command dies of SIGSEGV after it
 * has printed a complete, successful result. Measured with both cores loaded: `n8n execute` of a
 * two-node workflow crashed in 9 of 12 runs on the vm engine, 0 of 12 on legacy. `n8n start`
 * (startN8n: the live trigger, `npm run dev`) keeps n8n's default engine. (n8n 1.123 runs on the
 * legacy engine throughout: see its profile.)
 */
export async function runN8n(
	args,
	{ userFolder, env = {}, timeoutMs = N8N_COMMAND_TIMEOUT_MS, allowFailure = false } = {},
) {
	if (!userFolder) throw new Error('runN8n: userFolder is required');
	if (!existsSync(N8N_BIN))
		throw new Error(
			`n8n is not installed (${N8N_BIN}); run: npx tsx e2e/install-n8n.mts --n8n ${PROFILE.id}`,
		);
	return runCommand(NODE_BIN, [N8N_BIN, ...args], {
		cwd: userFolder, // n8n loads `.env` from its cwd: keep the repository's out of it
		env: n8nEnv(userFolder, {
			...(await brokerPortEnv(env)),
			...PROFILE.oneShotEnv,
			...env,
		}),
		timeoutMs,
		allowFailure,
		label: `n8n ${args.join(' ')}`,
	});
}

/** n8n 2.x starts a task broker in every process: each gets a free port, so processes run side by side. */
async function brokerPortEnv(env) {
	if (!PROFILE.taskBroker) return {};
	return { N8N_RUNNERS_BROKER_PORT: env.N8N_RUNNERS_BROKER_PORT ?? String(await getFreePort()) };
}

function writeTempJson(userFolder, name, data) {
	const dir = path.join(userFolder, 'e2e-input');
	mkdirSync(dir, { recursive: true });
	const file = path.join(
		dir,
		`${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`,
	);
	writeFileSync(file, JSON.stringify(data, null, 2));
	return file;
}

/** Checks the "Successfully imported" line; import commands log errors but may not fail loudly. */
function assertImported(result, what) {
	const out = result.stdout + result.stderr;
	if (!/Successfully imported \d+/.test(out))
		throw new Error(`n8n import:${what} did not report success\n${describeOutput(result)}`);
}

/**
 * Imports credentials. `credentials` = one object or an array of
 * `{ id, name, type, data: { ...plain fields } }` — plain `data` objects are encrypted by n8n on
 * import with N8N_ENCRYPTION_KEY (a string `data` is taken as already encrypted).
 */
export async function importCredential(userFolder, credentials, opts = {}) {
	const list = Array.isArray(credentials) ? credentials : [credentials];
	const file = writeTempJson(userFolder, 'credentials', list);
	const result = await runN8n(['import:credentials', `--input=${file}`], {
		userFolder,
		env: { N8N_LOG_LEVEL: 'info', ...opts.env },
		timeoutMs: opts.timeoutMs ?? N8N_COMMAND_TIMEOUT_MS,
	});
	assertImported(result, 'credentials');
	return list.map((c) => c.id);
}

/**
 * Imports one workflow (or an array). Each needs an `id` so it can be executed by id afterwards.
 * Imported workflows are always inactive (unpublished); see publishWorkflow().
 */
export async function importWorkflow(userFolder, workflows, opts = {}) {
	const list = Array.isArray(workflows) ? workflows : [workflows];
	for (const wf of list)
		if (!wf.id) throw new Error(`importWorkflow: workflow "${wf.name}" has no id`);
	const file = writeTempJson(userFolder, 'workflows', list);
	const result = await runN8n(['import:workflow', `--input=${file}`], {
		userFolder,
		env: { N8N_LOG_LEVEL: 'info', ...opts.env },
		timeoutMs: opts.timeoutMs ?? N8N_COMMAND_TIMEOUT_MS,
	});
	assertImported(result, 'workflow');
	return list.map((w) => w.id);
}

/**
 * Marks a workflow active for the next `n8n start`: n8n 2.x `publish:workflow`, n8n 1.x
 * `update:workflow --active=true` (the profile's activateCommand).
 */
export async function activateWorkflow(userFolder, id, opts = {}) {
	return runN8n(PROFILE.activateCommand(id), {
		userFolder,
		env: { N8N_LOG_LEVEL: 'info', ...opts.env },
		timeoutMs: opts.timeoutMs ?? N8N_COMMAND_TIMEOUT_MS,
	});
}

/** The former name (n8n 2.x calls activation "publishing"). */
export const publishWorkflow = activateWorkflow;

/**
 * Finds the execution JSON in `n8n execute` output. With --rawOutput a successful run prints
 * `JSON.stringify(run, null, 2)` as the last thing on stdout, but log lines (warnings, deprecation
 * notices) can come before it. A failed run prints the same JSON only at log level info, after
 * "Execution error:" and a "====" line. Scans for a line that is exactly "{" and the last line that
 * is exactly "}", and keeps the first span that parses into an object with `data.resultData`.
 */
export function parseExecutionOutput(text) {
	const lines = text.split(/\r?\n/);
	const ends = [];
	for (let j = lines.length - 1; j >= 0; j--) if (lines[j].trimEnd() === '}') ends.push(j);
	for (let i = 0; i < lines.length; i++) {
		if (lines[i].trimEnd() !== '{') continue;
		for (const j of ends) {
			if (j <= i) break;
			try {
				const parsed = JSON.parse(lines.slice(i, j + 1).join('\n'));
				if (parsed && typeof parsed === 'object' && parsed.data?.resultData) return parsed;
			} catch {
				/* try a shorter span */
			}
		}
	}
	return undefined;
}

/**
 * `n8n execute --id=<id> --rawOutput`. Resolves { ok, run, result, failure } where `run` is the
 * parsed IRun (`run.data.resultData.runData[<node name>][0].data.main[0]` = that node's items,
 * `run.data.resultData.error` on failure) and `failure` says in words why `ok` is false (the
 * execution's error, or how the process ended). Failed executions do not throw unless
 * `expectSuccess`.

 */
export async function executeWorkflow(
	userFolder,
	id,
	{ env = {}, timeoutMs = N8N_COMMAND_TIMEOUT_MS, expectSuccess = false } = {},
) {
	// log level info so that a failed execution's JSON is printed too (it is logged at info)
	const result = await runN8n(['execute', `--id=${id}`, '--rawOutput'], {
		userFolder,
		env: { N8N_LOG_LEVEL: 'info', ...env },
		timeoutMs,
		allowFailure: true,
	});
	const run =
		parseExecutionOutput(result.stdout) ??
		parseExecutionOutput(result.stdout + '\n' + result.stderr);
	if (!run)
		throw new Error(
			`n8n execute --id=${id}: no execution JSON in the output (${describeExit(result)})\n${describeOutput(result)}`,
		);
	const executionError = run.data.resultData.error?.message;
	const failure =
		executionError ??
		(result.code === 0
			? undefined
			: `n8n execute printed the execution, then ended: ${describeExit(result)}`);
	const ok = failure === undefined;
	if (expectSuccess && !ok)
		throw new Error(`n8n execute --id=${id} failed: ${failure}\n${describeOutput(result)}`);
	return { ok, run, result, failure };
}

/** Items (json only) a node produced on output `output` of its `runIndex`-th run. */
export function nodeOutput(run, nodeName, { output = 0, runIndex = 0 } = {}) {
	const nodeRuns = run.data.resultData.runData[nodeName];
	if (!nodeRuns)
		throw new Error(
			`node "${nodeName}" did not run; ran: ${Object.keys(run.data.resultData.runData).join(', ')}`,
		);
	return (nodeRuns[runIndex].data?.main?.[output] ?? []).map((i) => i.json);
}

export function getFreePort() {
	return new Promise((resolve, reject) => {
		const srv = createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

// n8n instances started by this process: killed if the test process exits without stopping them
// (a detached n8n whose stdout pipe is gone otherwise keeps running).
const running = new Set();
process.on('exit', () => {
	for (const child of running) killTree(child, 'SIGKILL');
});
for (const sig of ['SIGINT', 'SIGTERM']) {
	process.once(sig, () => {
		for (const child of running) killTree(child, 'SIGKILL');
		process.exit(130);
	});
}

/**
 * `n8n start` on 127.0.0.1:<port>; waits until GET /healthz/readiness answers 200 (DB migrated and
 * connected) and the REST API answers. Returns
 * { url, port, process, output(), exited(), stop(), kill() }. stop() sends SIGTERM, then SIGKILL
 * after a grace period; kill(signal = 'SIGKILL') ends it at once (a crash, as far as n8n can tell).
 */
export async function startN8n({
	userFolder,
	port,
	env = {},
	timeoutMs = N8N_COMMAND_TIMEOUT_MS,
} = {}) {
	if (!userFolder) throw new Error('startN8n: userFolder is required');
	port ??= await getFreePort();
	const url = `http://127.0.0.1:${port}`;
	return await spawnN8nServer('start', {
		userFolder,
		timeoutMs,
		// Ready = the database is migrated (/healthz/readiness) and the REST API is mounted: n8n 1.x
		// answers readiness before it mounts its routes (POST /rest/owner/setup: 404 until then).
		readySteps: [
			{ url: `${url}/healthz/readiness`, done: (res) => res.ok },
			// 401 (no session) or 200: mounted and the database answers
			{ url: `${url}/rest/login`, done: (res) => res.status !== 404 && res.status < 500 },
		],
		result: { url, port },
		env: {
			N8N_PORT: String(port),
			N8N_EDITOR_BASE_URL: url,
			N8N_WEBHOOK_URL: `${url}/`,
			...env,
		},
	});
}

/**
 * `n8n worker` (queue mode: the caller passes EXECUTIONS_MODE=queue, the database and Redis in
 * `env`), with its health server on 127.0.0.1:<healthPort>; waits until its /healthz/readiness
 * answers 200 (database connected and migrated, Redis connected, taking jobs). Returns
 * { healthUrl, healthPort, process, output(), exited(), stop(), kill() } as startN8n.
 */
export async function startN8nWorker({
	userFolder,
	healthPort,
	concurrency,
	env = {},
	timeoutMs = N8N_COMMAND_TIMEOUT_MS,
} = {}) {
	if (!userFolder) throw new Error('startN8nWorker: userFolder is required');
	healthPort ??= await getFreePort();
	const healthUrl = `http://127.0.0.1:${healthPort}`;
	return await spawnN8nServer('worker', {
		userFolder,
		timeoutMs,
		args: concurrency ? [`--concurrency=${concurrency}`] : [],
		readySteps: [{ url: `${healthUrl}/healthz/readiness`, done: (res) => res.ok }],
		result: { healthUrl, healthPort },
		env: {
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(healthPort),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			...env,
		},
	});
}

/**
 * Spawns a long-running n8n command (`start`, `worker`) on the profile's Node and waits until each
 * of `readySteps` ({ url, done(res) }) holds, in order.
 */
async function spawnN8nServer(
	command,
	{ userFolder, env, args = [], readySteps, result, timeoutMs },
) {
	const child = spawn(NODE_BIN, [N8N_BIN, command, ...args], {
		cwd: userFolder,
		env: n8nEnv(userFolder, {
			...(await brokerPortEnv(env)),
			N8N_LOG_LEVEL: 'info',
			...env,
		}),
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	running.add(child);
	child.on('exit', () => running.delete(child));
	let out = '';
	child.stdout.on('data', (c) => (out = (out + c).slice(-200_000)));
	child.stderr.on('data', (c) => (out = (out + c).slice(-200_000)));
	let exited = null;
	const exitPromise = new Promise((resolve) =>
		child.on('exit', (code, signal) => resolve((exited = { code, signal }))),
	);

	const stop = async (graceMs = 15_000) => {
		if (exited) return exited;
		return await stopGracefully(child, exitPromise, graceMs);
	};
	const kill = async (signal = 'SIGKILL') => {
		if (exited) return exited;
		killTree(child, signal);
		return await exitPromise;
	};

	const t0 = Date.now();
	for (const { url: probe, done } of readySteps) {
		for (;;) {
			if (exited)
				throw new Error(
					`n8n ${command} exited early (${describeExit(exited)})\n--- output (tail) ---\n${tail(out)}`,
				);
			if (Date.now() - t0 > timeoutMs) {
				await stop(5_000);
				throw new Error(
					`n8n ${command}: ${probe} not ready after ${timeoutMs} ms\n--- output (tail) ---\n${tail(out)}`,
				);
			}
			try {
				const res = await fetchFresh(probe, { signal: AbortSignal.timeout(5_000) });
				await res.arrayBuffer();
				if (done(res)) break;
			} catch {
				/* not listening yet */
			}
			await sleep(250);
		}
	}
	return {
		...result,
		process: child,
		startMs: Date.now() - t0,
		output: () => out,
		exited: () => exited,
		stop,
		kill,
	};
}

/** Type files written by a running (or previously started) n8n: `$userFolder/.cache/n8n/public/types/`. */
export function readTypeFile(userFolder, name /* 'nodes' | 'credentials' | 'node-versions' */) {
	const file = path.join(userFolder, '.cache', 'n8n', 'public', 'types', `${name}.json`);
	return JSON.parse(readFileSync(file, 'utf8'));
}

/** Waits until the type files list `predicate`-matching entries (they are written shortly after start). */
export async function waitForTypes(userFolder, name, predicate, { timeoutMs = 120_000 } = {}) {
	const t0 = Date.now();
	let last;
	for (;;) {
		try {
			last = readTypeFile(userFolder, name);
			if (predicate(last)) return last;
		} catch {
			/* not written yet */
		}
		if (Date.now() - t0 > timeoutMs)
			throw new Error(
				`types/${name}.json never matched (has ${Array.isArray(last) ? last.length : 'no'} entries)`,
			);
		await sleep(250);
	}
}

/** Creates the instance owner via the REST API and returns a cookie header for later requests. */
export async function setupOwner(
	url,
	{
		email = 'e2e@example.com',
		password = 'E2e-password-1',
		firstName = 'E2E',
		lastName = 'Owner',
	} = {},
) {
	const res = await n8nFetch(`${url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'browser-id': 'e2e' },
		body: JSON.stringify({ email, password, firstName, lastName }),
	});
	if (!res.ok) throw new Error(`POST /rest/owner/setup: ${res.status} ${await res.text()}`);
	const cookie = (res.headers.getSetCookie?.() ?? [res.headers.get('set-cookie')])
		.filter(Boolean)
		.map((c) => c.split(';')[0])
		.join('; ');
	if (!cookie) throw new Error('POST /rest/owner/setup: no auth cookie in the response');
	return { cookie, email, password };
}

/** GET a REST path (e.g. '/rest/executions?...') with the owner's cookie; parses JSON. */
export async function restGet(url, pathAndQuery, cookie) {
	const res = await n8nFetch(`${url}${pathAndQuery}`, {
		headers: { cookie, 'browser-id': 'e2e' },
	});
	const text = await res.text();
	if (!res.ok) throw new Error(`GET ${pathAndQuery}: ${res.status} ${text.slice(0, 500)}`);
	return JSON.parse(text);
}

/** POST a JSON body to a REST path with the owner's cookie; parses the JSON answer. */
export async function restPost(url, pathAndQuery, cookie, body) {
	const res = await n8nFetch(`${url}${pathAndQuery}`, {
		method: 'POST',
		headers: { cookie, 'browser-id': 'e2e', 'content-type': 'application/json' },
		body: JSON.stringify(body ?? {}),
	});
	const text = await res.text();
	if (!res.ok) throw new Error(`POST ${pathAndQuery}: ${res.status} ${text.slice(0, 500)}`);
	return JSON.parse(text);
}

/**
 * Runs a stored workflow the way the editor's "Execute workflow" does: POST
 * /rest/workflows/<id>/run with the workflow and `triggerToStartFrom` = its Manual Trigger (without
 * it n8n answers 400 "specify either a trigger to start from or a destination node"). Resolves the
 * execution id; in queue mode with OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true a worker runs it.
 */
export async function runWorkflowAsEditor(url, cookie, workflowId) {
	const wf = (await restGet(url, `/rest/workflows/${workflowId}`, cookie)).data;
	const trigger = wf.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	if (!trigger) throw new Error(`workflow ${workflowId} has no Manual Trigger`);
	const body = await restPost(url, `/rest/workflows/${workflowId}/run`, cookie, {
		workflowData: wf,
		triggerToStartFrom: { name: trigger.name },
	});
	const executionId = body?.data?.executionId;
	if (!executionId)
		throw new Error(
			`POST /rest/workflows/${workflowId}/run: no executionId in ${JSON.stringify(body)}`,
		);
	return executionId;
}

/**
 * Activates (2.x: publishes) a stored workflow in a running n8n, as the editor's switch does:
 * POST /rest/workflows/<id>/activate with its current versionId (the same route on n8n 1.123 and
 * 2.41.3). n8n up to 2.39 answers once the workflow is active, a polling trigger's first poll
 * included; 2.41 answers at once and activates it a moment later, so callers wait for what they
 * need (the activation poll in the sandbox's log, a webhook that no longer answers 404).
 */
export async function activateWorkflowAsEditor(url, cookie, workflowId) {
	const { versionId } = (await restGet(url, `/rest/workflows/${workflowId}`, cookie)).data;
	return (await restPost(url, `/rest/workflows/${workflowId}/activate`, cookie, { versionId }))
		.data;
}

/** The editor's switch the other way: POST /rest/workflows/<id>/deactivate; its triggers stop. */
export async function deactivateWorkflowAsEditor(url, cookie, workflowId) {
	return (await restPost(url, `/rest/workflows/${workflowId}/deactivate`, cookie, {})).data;
}

/** Polls an execution until it has ended (success, error, crashed, canceled); returns it unflattened. */
export async function waitForExecutionEnd(url, cookie, id, { timeoutMs = 60_000 } = {}) {
	const t0 = Date.now();
	for (;;) {
		const exec = await getExecution(url, cookie, id);
		if (exec.finished || ['success', 'error', 'crashed', 'canceled'].includes(exec.status))
			return exec;
		if (Date.now() - t0 > timeoutMs)
			throw new Error(`execution ${id} still ${exec.status} after ${timeoutMs} ms`);
		await sleep(300);
	}
}

export function listDir(dir) {
	return existsSync(dir) ? readdirSync(dir) : [];
}

/** Logs in an existing user (e.g. the owner created by setupOwner on an earlier start). */
export async function login(url, { email = 'e2e@example.com', password = 'E2e-password-1' } = {}) {
	const res = await n8nFetch(`${url}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'browser-id': 'e2e' },
		body: JSON.stringify({ emailOrLdapLoginId: email, password }),
	});
	if (!res.ok) throw new Error(`POST /rest/login: ${res.status} ${await res.text()}`);
	const cookie = (res.headers.getSetCookie?.() ?? [res.headers.get('set-cookie')])
		.filter(Boolean)
		.map((c) => c.split(';')[0])
		.join('; ');
	return { cookie, email, password };
}

const cacheRequire = createRequire(path.join(N8N_BIN, '..', '..', 'package.json'));

/** Execution data is stored and served in `flatted` format; this turns it back into the IRun data. */
export function parseFlatted(text) {
	return cacheRequire('flatted').parse(text);
}

/** Executions via the REST API (owner cookie from setupOwner/login), newest first. */
export async function listExecutions(url, cookie, { workflowId } = {}) {
	const qs = workflowId ? `?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}` : '';
	return (await restGet(url, `/rest/executions${qs}`, cookie)).data.results;
}

/** One execution with its data unflattened: { ...summary, data: IRunExecutionData, workflowData }. */
export async function getExecution(url, cookie, id) {
	const { data } = await restGet(url, `/rest/executions/${id}`, cookie);
	return { ...data, data: typeof data.data === 'string' ? parseFlatted(data.data) : data.data };
}

/** Polls listExecutions until `predicate(list)` holds; returns the list. */
export async function waitForExecutions(
	url,
	cookie,
	predicate,
	{ workflowId, timeoutMs = 90_000, intervalMs = 500 } = {},
) {
	const t0 = Date.now();
	let list = [];
	for (;;) {
		list = await listExecutions(url, cookie, { workflowId });
		if (predicate(list)) return list;
		if (Date.now() - t0 > timeoutMs)
			throw new Error(
				`executions never matched within ${timeoutMs} ms; have: ${JSON.stringify(list.map((e) => ({ id: e.id, mode: e.mode, status: e.status })))}`,
			);
		await sleep(intervalMs);
	}
}

/**
 * Read-only SQL against the instance's SQLite database ($userFolder/.n8n/database.sqlite), run by
 * the profile's Node (the sqlite3 add-on is built for it). Works while n8n runs (WAL mode).
 * Useful tables: execution_entity (id, mode, status, workflowId), execution_data (data: flatted),
 * workflow_entity (active, activeVersionId, staticData: JSON with "node:<node name>" keys).
 */
export async function queryDb(userFolder, sql, params = []) {
	const script = `const s=require('sqlite3');const db=new s.Database(process.argv[1],s.OPEN_READONLY);
db.all(process.argv[2],JSON.parse(process.argv[3]),(e,r)=>{if(e){console.error(e.message);process.exit(1)}process.stdout.write(JSON.stringify(r));db.close()})`;
	const { stdout } = await runCommand(
		NODE_BIN,
		['-e', script, path.join(userFolder, '.n8n', 'database.sqlite'), sql, JSON.stringify(params)],
		{
			cwd: path.dirname(cacheRequire.resolve('sqlite3/package.json')),
			env: { ...process.env, NODE_PATH: path.join(N8N_BIN, '..', '..', '..') },
			timeoutMs: 120_000,
			label: `sqlite: ${sql}`,
		},
	);
	return JSON.parse(stdout);
}
