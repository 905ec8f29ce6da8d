// @ts-nocheck (typed file by file: issue 34)
// The n8n of `npm run dev` for the UI tier: scripts/dev.mts in a child process with its own
// temporary user folder and free ports, so that the tier never meets a developer's `npm run dev`
// (5678/8787) or another tier. Ready when dev prints its "ready in" line; stopped with SIGTERM
// (dev stops n8n and the sandbox gracefully).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../install-n8n.mts';
import { getFreePort, makeUserFolder, removeUserFolder } from '../lib/n8n.mts';
import { killTree } from '../lib/proc.mts';

/** Bounds a hung start only: dev's first start installs the package and imports (13–19 s idle). */
const START_TIMEOUT_MS = 420_000;
const STOP_TIMEOUT_MS = 30_000;

/**
 * Starts `npx tsx scripts/dev.mts` and resolves, once it is ready, to
 * { n8nUrl, sandboxUrl, userFolder, output(), stop() }.
 */
export async function startDevServer({ tarball, keep = false, say = () => {} } = {}) {
	const userFolder = makeUserFolder('airsign-ui-');
	const [n8nPort, sandboxPort, modelPort] = await distinctFreePorts(3);
	const args = [
		'--import',
		'tsx',
		path.join(REPO_ROOT, 'scripts', 'dev.mts'),
		'--dir',
		userFolder,
		'--port',
		String(n8nPort),
		'--sandbox-port',
		String(sandboxPort),
		'--model-port',
		String(modelPort),
		...(tarball ? ['--tarball', tarball] : []),
	];
	const child = spawn(process.execPath, args, {
		cwd: REPO_ROOT,
		env: { ...process.env, AIRSIGN_DEV_SMOKE: '' },
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	let out = '';
	const record = (chunk) => (out = (out + chunk).slice(-100_000));
	child.stdout.on('data', record);
	child.stderr.on('data', record);
	const exited = new Promise((resolve) =>
		child.once('exit', (code, signal) => resolve({ code, signal })),
	);
	process.once('exit', () => killTree(child, 'SIGKILL'));

	const stop = async () => {
		if (child.exitCode === null && child.signalCode === null) {
			child.kill('SIGTERM');
			const timer = setTimeout(() => killTree(child, 'SIGKILL'), STOP_TIMEOUT_MS);
			await exited;
			clearTimeout(timer);
		}
		if (!keep) removeUserFolder(userFolder);
	};

	const ready = await new Promise((resolve) => {
		const timer = setTimeout(() => resolve('timeout'), START_TIMEOUT_MS);
		const onData = () => {
			if (/\[dev\] ready in /.test(out)) {
				clearTimeout(timer);
				child.stdout.off('data', onData);
				resolve('ready');
			}
		};
		child.stdout.on('data', onData);
		exited.then(() => {
			clearTimeout(timer);
			resolve('exited');
		});
	});
	if (ready !== 'ready') {
		await stop();
		throw new Error(
			`npm run dev did not get ready (${ready === 'timeout' ? `not within ${START_TIMEOUT_MS / 1000} s` : 'it exited'}):\n${out.slice(-4000)}`,
		);
	}
	say(
		`npm run dev ready: n8n ${`http://127.0.0.1:${n8nPort}`}, sandbox http://127.0.0.1:${sandboxPort}`,
	);
	return {
		n8nUrl: `http://127.0.0.1:${n8nPort}`,
		sandboxUrl: `http://127.0.0.1:${sandboxPort}`,
		userFolder,
		output: () => out,
		stop,
	};
}

async function distinctFreePorts(count) {
	const ports = new Set();
	while (ports.size < count) ports.add(await getFreePort());
	return [...ports];
}
