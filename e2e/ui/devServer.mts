// The n8n of `npm run dev` for the UI tier: scripts/dev.mts in a child process with its own
// temporary user folder and free ports, so that the tier never meets a developer's `npm run dev`
// (5678/8787) or another tier. Ready when dev prints its "ready in" line; stopped with SIGTERM
// (dev stops n8n and the sandbox gracefully).
import path from 'node:path';
import { REPO_ROOT } from '../install-n8n.mts';
import { getFreePort, makeUserFolder, removeUserFolder } from '../lib/n8n.mts';
import { startProcess, waitUntilReady } from '../lib/proc.mts';

/** Bounds a hung start only: dev's first start installs the package and imports (13–19 s idle). */
const START_TIMEOUT_MS = 420_000;
const STOP_TIMEOUT_MS = 30_000;

/** Where the UI checks reach an `npm run dev`: its n8n and its sandbox. */
export interface DevUrls {
	n8nUrl: string;
	sandboxUrl: string;
}

/** A running `npm run dev` started by startDevServer. */
/** Starts `npx tsx scripts/dev.mts` and resolves, once it is ready, to its DevServer. */
export async function startDevServer({
	tarball,
	keep = false,
	say = () => {},
}: {
	/** Install this packed tarball instead of letting dev build and pack. */
	tarball?: string;
	/** Keep the temporary user folder after stop(). */
	keep?: boolean;
	say?: (msg: string) => void;
} = {}): Promise<
	DevUrls & { userFolder: string; output: () => string; stop: () => Promise<void> }
> {
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
	const server = startProcess(process.execPath, args, {
		cwd: REPO_ROOT,
		env: { ...process.env, AIRSIGN_DEV_SMOKE: '' },
		keep: 100_000,
	});
	const stop = async () => {
		await server.stop(STOP_TIMEOUT_MS);
		if (!keep) removeUserFolder(userFolder);
	};
	try {
		const ready = async () => /\[dev\] ready in /.test(server.output());
		await waitUntilReady('npm run dev', server, ready, { timeoutMs: START_TIMEOUT_MS });
	} catch (error) {
		await stop();
		throw error;
	}
	say(
		`npm run dev ready: n8n ${`http://127.0.0.1:${n8nPort}`}, sandbox http://127.0.0.1:${sandboxPort}`,
	);
	return {
		n8nUrl: `http://127.0.0.1:${n8nPort}`,
		sandboxUrl: `http://127.0.0.1:${sandboxPort}`,
		userFolder,
		output: server.output,
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
