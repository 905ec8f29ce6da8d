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
//
// The parts are files of scripts/dev/: options.mts (the command line), lib.mts (console lines,
// steps, the state file), processes.mts (stopping), setup.mts (install and imports), smoke.mts
// (--smoke) and banner.mts (what is printed once ready).
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { installN8n } from '../e2e/install-n8n.mts';
import { startN8n } from '../e2e/lib/n8n.mts';
import { describeExit } from '../e2e/lib/proc.mts';
import { startSandboxProcess } from '../e2e/lib/sandbox.mts';
import { startFakeOpenAi } from '../e2e/lib/fakeOpenAi.mts';
import { FAKE_OPENAI_API_KEY, SCRIPTS } from '../e2e/lib/agentScripts.mts';
import { samplePdf } from '../e2e/lib/fixtures.mts';
import { banner, demoCalls, type DemoSession } from './dev/banner.mts';
import { portFree, readState, say, show, stage, step, t00 } from './dev/lib.mts';
import {
	FILES_DIR,
	FILE_ENV,
	PDF_PATH,
	fail,
	flag,
	modelPort,
	n8nPort,
	sandboxPort,
	smoke,
	userFolder,
	verbose,
} from './dev/options.mts';
import { isStopping, procs, stopAll, takeOverSignals } from './dev/processes.mts';
import { ensureOwner, importFixtures, installPackage } from './dev/setup.mts';
import { smokeChecks, smokeDemoCalls } from './dev/smoke.mts';

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
	stage(5);
	procs.n8n = await step(
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
	const cookie = await ensureOwner(procs.n8n.url, state);

	// From here on, n8n's and the sandbox's own output goes to the terminal.
	const forward = (stream: Readable | null | undefined, prefix: string) =>
		stream?.on('data', (chunk: Buffer | string) => {
			for (const line of String(chunk).split('\n'))
				if (line.trim()) process.stdout.write(`${prefix} ${line}\n`);
		});

	if (smoke) {
		await smokeChecks(procs.n8n.url, cookie, workflows);
		const calls = demoCalls(await procs.sandbox.listSessions({ status: 'pending' }));
		banner(procs.n8n.url, state, calls, workflows); // what a user would read, from what was set up
		await smokeDemoCalls(calls);
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
