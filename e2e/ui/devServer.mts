// The UI tier's `npm run dev` (scripts/dev.mts) on its own temporary user folder and free ports, so
// that it never meets a developer's or another tier's; SIGTERM stops it gracefully.
import path from 'node:path';
import { REPO_ROOT } from '../install-n8n.mts';
import { getFreePort, makeUserFolder, removeUserFolder } from '../lib/n8n.mts';
import { startProcess, tsx, waitUntilReady } from '../lib/proc.mts';

/** Bounds a hung start only: dev's first start installs the package and imports (13–19 s idle). */
const START_TIMEOUT_MS = 420_000;

/** Where the UI checks reach an `npm run dev`: its n8n and its sandbox. */
export interface DevUrls {
	n8nUrl: string;
	sandboxUrl: string;
}

/** Starts scripts/dev.mts (with `tarball` instead of its own build) and resolves once it is ready. */
export async function startDevServer({
	tarball,
	keep = false,
	say = () => {},
}: { tarball?: string; keep?: boolean; say?: (msg: string) => void } = {}): Promise<
	DevUrls & { userFolder: string; output: () => string; stop: () => Promise<void> }
> {
	const userFolder = makeUserFolder('airsign-ui-');
	const ports = new Set<number>();
	while (ports.size < 3) ports.add(await getFreePort());
	const [n8nPort, sandboxPort, modelPort] = [...ports].map(String);
	const server = startProcess(
		process.execPath,
		tsx(path.join(REPO_ROOT, 'scripts', 'dev.mts'), [
			...['--dir', userFolder, '--port', n8nPort, '--sandbox-port', sandboxPort],
			...['--model-port', modelPort, ...(tarball ? ['--tarball', tarball] : [])],
		]),
		{ cwd: REPO_ROOT, env: { ...process.env, AIRSIGN_DEV_SMOKE: '' }, keep: 100_000 },
	);
	const stop = async () => {
		await server.stop(30_000);
		if (!keep) removeUserFolder(userFolder);
	};
	try {
		const ready = async () => /\[dev\] ready in /.test(server.output());
		await waitUntilReady('npm run dev', server, ready, { timeoutMs: START_TIMEOUT_MS });
	} catch (error) {
		await stop();
		throw error;
	}
	const urls = {
		n8nUrl: `http://127.0.0.1:${n8nPort}`,
		sandboxUrl: `http://127.0.0.1:${sandboxPort}`,
	};
	say(`npm run dev ready: n8n ${urls.n8nUrl}, sandbox ${urls.sandboxUrl}`);
	return { ...urls, userFolder, output: server.output, stop };
}
