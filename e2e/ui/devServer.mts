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

/** Where the UI checks reach an `npm run dev`: its n8n and its sandbox. */
export interface DevUrls {
	n8nUrl: string;
	sandboxUrl: string;
}

/** A running `npm run dev` started by startDevServer. */
export interface DevServer extends DevUrls {
	userFolder: string;
	/** dev's output so far (its last 100,000 characters). */
	output: () => string;
	stop: () => Promise<void>;
}

export interface DevServerOptions {
	/** Install this packed tarball instead of letting dev build and pack. */
	tarball?: string;
	/** Keep the temporary user folder after stop(). */
	keep?: boolean;
	say?: (msg: string) => void;
}

/** Starts `npx tsx scripts/dev.mts` and resolves, once it is ready, to its DevServer. */
export async function startDevServer({
	tarball,
	keep = false,
	say = () => {},
}: DevServerOptions = {}): Promise<DevServer> {
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
	const record = (chunk: Buffer) => (out = (out + chunk).slice(-100_000));
	child.stdout.on('data', record);
	child.stderr.on('data', record);
	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
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

	const ready = await new Promise<'ready' | 'timeout' | 'exited'>((resolve) => {
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

async function distinctFreePorts(count: number): Promise<number[]> {
	const ports = new Set<number>();
	while (ports.size < count) {
		const port = await getFreePort();
		// always a number, the port the system gave: the test only narrows its type
		if (typeof port !== 'number') throw new Error(`getFreePort gave ${String(port)}`);
		ports.add(port);
	}
	return [...ports];
}
