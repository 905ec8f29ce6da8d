// `n8n start` and `n8n worker` on the profile's Node (lib/proc.mts ends them with this process).
import { N8N_BIN, NODE_BIN, n8nEnv } from '../n8n-installation.mts';
import { brokerPortEnv, getFreePort, N8N_COMMAND_TIMEOUT_MS } from './n8nCli.mts';
import { fetchFresh, startProcess, waitUntilReady, type Started } from './proc.mts';

type ServerOptions = { userFolder: string; env?: NodeJS.ProcessEnv; timeoutMs?: number };

/** `n8n start` on 127.0.0.1:<port> (default: a free one). */
export async function startN8n({ port, ...options }: ServerOptions & { port?: number }) {
	port ??= await getFreePort();
	const url = `http://127.0.0.1:${port}`;
	return await spawnN8nServer('start', options, {
		// Ready = the database is migrated (/healthz/readiness) and the REST API is mounted: n8n 1.x
		// answers readiness before it mounts its routes (POST /rest/owner/setup: 404 until then).
		readySteps: [
			{ url: `${url}/healthz/readiness`, done: (res) => res.ok },
			// 401 (no session) or 200: mounted and the database answers
			{ url: `${url}/rest/login`, done: (res) => res.status !== 404 && res.status < 500 },
		],
		result: { url, port },
		env: { N8N_PORT: String(port), N8N_EDITOR_BASE_URL: url, N8N_WEBHOOK_URL: `${url}/` },
	});
}

/** `n8n worker`: `env` has EXECUTIONS_MODE=queue, the database and Redis; `concurrency`: n8n's default. */
export async function startN8nWorker({
	healthPort,
	concurrency,
	...options
}: ServerOptions & { healthPort?: number; concurrency?: number }) {
	healthPort ??= await getFreePort();
	const healthUrl = `http://127.0.0.1:${healthPort}`;
	return await spawnN8nServer('worker', options, {
		args: concurrency ? [`--concurrency=${concurrency}`] : [],
		readySteps: [{ url: `${healthUrl}/healthz/readiness`, done: (res) => res.ok }],
		result: { healthUrl, healthPort },
		env: {
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(healthPort),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		},
	});
}

/** Spawns a long-running n8n command and waits until each of `readySteps` holds, in order. */
async function spawnN8nServer<R extends object>(
	command: string,
	{ userFolder, env = {}, timeoutMs = N8N_COMMAND_TIMEOUT_MS }: ServerOptions,
	{
		args = [],
		readySteps,
		result,
		env: commandEnv,
	}: {
		args?: string[];
		readySteps: { url: string; done: (res: Response) => boolean }[];
		result: R;
		env: NodeJS.ProcessEnv;
	},
): Promise<R & Started & { startMs: number }> {
	const server = startProcess(NODE_BIN, [N8N_BIN, command, ...args], {
		cwd: userFolder,
		env: n8nEnv(userFolder, {
			...(await brokerPortEnv(env)),
			N8N_LOG_LEVEL: 'info',
			...commandEnv,
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
