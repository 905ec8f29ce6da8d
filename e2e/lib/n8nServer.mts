// Long-running n8n processes: `n8n start` and `n8n worker` on the profile's Node, each in its own
// process group, ready when its health and REST answers say so, killed if this process exits
// without stopping them. Re-exported by e2e/lib/n8n.mts.
import { spawn, type ChildProcess } from 'node:child_process';
import { N8N_BIN, NODE_BIN, n8nEnv } from '../install-n8n.mts';
import { brokerPortEnv, getFreePort, N8N_COMMAND_TIMEOUT_MS } from './n8nCli.mts';
import {
	describeExit,
	fetchFresh,
	killTree,
	sleep,
	stopGracefully,
	tail,
	type ExitStatus,
} from './proc.mts';

/** A running n8n process, as startN8n and startN8nWorker return it. */
export interface N8nServerProcess {
	process: ChildProcess;
	/** How long it took to be ready. */
	startMs: number;
	/** The last 200 000 characters it printed. */
	output: () => string;
	/** How it exited, or null while it runs. */
	exited: () => ExitStatus | null;
	/** `signal` SIGTERM, then SIGKILL after graceMs (default 15 s); resolves how it exited. */
	stop: (graceMs?: number) => Promise<ExitStatus>;
	/** Ends it at once (default SIGKILL: a crash, as far as n8n can tell). */
	kill: (signal?: NodeJS.Signals) => Promise<ExitStatus>;
}

/** A started `n8n start`. */
export interface StartedN8n extends N8nServerProcess {
	url: string;
	port: number;
}

/** A started `n8n worker`. */
export interface StartedN8nWorker extends N8nServerProcess {
	healthUrl: string;
	healthPort: number;
}

/** startN8n's options. */
export interface StartN8nOptions {
	userFolder: string;
	/** Default: a free port. */
	port?: number;
	env?: NodeJS.ProcessEnv;
	timeoutMs?: number;
}

/** startN8nWorker's options. */
export interface StartN8nWorkerOptions {
	userFolder: string;
	/** Default: a free port. */
	healthPort?: number;
	/** `--concurrency` (default: n8n's). */
	concurrency?: number;
	env?: NodeJS.ProcessEnv;
	timeoutMs?: number;
}

/** One readiness condition: GET `url` until `done(response)` holds. */
interface ReadyStep {
	url: string;
	done: (res: Response) => boolean;
}

// n8n instances started by this process: killed if the test process exits without stopping them
// (a detached n8n whose stdout pipe is gone otherwise keeps running).
const running = new Set<ChildProcess>();
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
}: StartN8nOptions): Promise<StartedN8n> {
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
}: StartN8nWorkerOptions): Promise<StartedN8nWorker> {
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
async function spawnN8nServer<R extends object>(
	command: string,
	{
		userFolder,
		env,
		args = [],
		readySteps,
		result,
		timeoutMs,
	}: {
		userFolder: string;
		env: NodeJS.ProcessEnv;
		args?: string[];
		readySteps: ReadyStep[];
		/** Fields of the returned object besides the process's. */
		result: R;
		timeoutMs: number;
	},
): Promise<R & N8nServerProcess> {
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
	child.stdout.on('data', (c: Buffer) => (out = (out + c).slice(-200_000)));
	child.stderr.on('data', (c: Buffer) => (out = (out + c).slice(-200_000)));
	let exited: ExitStatus | null = null;
	const exitPromise = new Promise<ExitStatus>((resolve) =>
		child.on('exit', (code, signal) => resolve((exited = { code, signal }))),
	);

	const stop = async (graceMs = 15_000): Promise<ExitStatus> => {
		if (exited) return exited;
		return await stopGracefully(child, exitPromise, graceMs);
	};
	const kill = async (signal: NodeJS.Signals = 'SIGKILL'): Promise<ExitStatus> => {
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
