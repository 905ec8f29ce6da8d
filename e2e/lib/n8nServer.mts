// Long-running n8n processes: `n8n start` and `n8n worker` on the profile's Node, each in its own
// process group, ready when its health and REST answers say so, killed if this process exits
// without stopping them. Re-exported by e2e/lib/n8n.mts.
import { N8N_BIN, NODE_BIN, n8nEnv } from '../n8n-installation.mts';
import { brokerPortEnv, getFreePort, N8N_COMMAND_TIMEOUT_MS } from './n8nCli.mts';
import { fetchFresh, startProcess, waitUntilReady, type Started } from './proc.mts';

/** A running n8n process, as startN8n and startN8nWorker return it. */
export interface N8nServerProcess extends Started {
	/** How long it took to be ready. */
	startMs: number;
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

// On Ctrl-C or SIGTERM the test process exits at once; proc.mts's exit hook kills every n8n it
// started, with its process group (a detached n8n whose stdout pipe is gone keeps running otherwise).
for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => process.exit(130));

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
	const server = startProcess(NODE_BIN, [N8N_BIN, command, ...args], {
		cwd: userFolder,
		env: n8nEnv(userFolder, {
			...(await brokerPortEnv(env)),
			N8N_LOG_LEVEL: 'info',
			...env,
		}),
		keep: 200_000,
	});
	const t0 = Date.now();
	for (const { url: probe, done } of readySteps) {
		const left = Math.max(0, timeoutMs - (Date.now() - t0));
		await waitUntilReady(
			`n8n ${command} (${probe})`,
			server,
			async () => {
				const res = await fetchFresh(probe, { signal: AbortSignal.timeout(5_000) });
				await res.arrayBuffer();
				return done(res);
			},
			{ timeoutMs: left },
		);
	}
	return { ...result, ...server, startMs: Date.now() - t0 };
}
