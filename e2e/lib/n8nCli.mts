// n8n's commands on the profile's Node: one-shot ones (import, publish, execute; what `n8n execute`
// prints), and `n8n start` and `n8n worker` (lib/proc.mts ends them with this process).
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { N8N_BIN, NODE_BIN, PROFILE, n8nEnv } from '../n8n-installation.mts';
import type { IRun, IRunExecutionData } from 'n8n-workflow';
import type { CredentialJson, Workflow } from './fixtures.mts';
import { getFreePort } from './ports.mts';
import {
	describeExit,
	describeOutput,
	fetchFresh,
	runCommand,
	startServer,
	type CommandResult,
	type Started,
} from './proc.mts';

export { getFreePort };

/** The execution data as n8n saves it (what the tiers read of it). */
export type ExecutionData = IRunExecutionData;
/** What `n8n execute --rawOutput` prints (n8n's IRun). */
export type N8nRun = Pick<IRun, 'data'> & Partial<Pick<IRun, 'status' | 'mode' | 'finished'>>;

type N8nCommandOptions = { env?: NodeJS.ProcessEnv; timeoutMs?: number };

/**
 * Only stops a hung command: `n8n start` took 186 s beside npm run check's other tiers on a 2-core
 * machine (5.5 s idle).
 */
const N8N_COMMAND_TIMEOUT_MS = 600_000;

/**
 * A one-shot `n8n <args>`. On 2.x on the "legacy" expression engine (the profile's oneShotEnv):
 * with the default isolated-vm engine a busy CPU makes them die of SIGSEGV at their bare
 * `process.exit()`, after a complete result (9 of 12 runs with both cores loaded, 0 on legacy).
 */
export async function runN8n(
	args: string[],
	{
		userFolder,
		env = {},
		timeoutMs = N8N_COMMAND_TIMEOUT_MS,
		allowFailure = false,
	}: N8nCommandOptions & { userFolder: string; allowFailure?: boolean },
): Promise<CommandResult> {
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

/** n8n 2.x starts a task broker in every process: each on a free port of its own. */
async function brokerPortEnv(env: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv> {
	if (!PROFILE.taskBroker) return {};
	return { N8N_RUNNERS_BROKER_PORT: env.N8N_RUNNERS_BROKER_PORT ?? String(await getFreePort()) };
}

/** At log level info. */
const infoCommand = (args: string[], userFolder: string, opts: N8nCommandOptions) =>
	runN8n(args, {
		userFolder,
		env: { N8N_LOG_LEVEL: 'info', ...opts.env },
		timeoutMs: opts.timeoutMs ?? N8N_COMMAND_TIMEOUT_MS,
	});

/** `n8n import:<kind>` of `items`; it must say "Successfully imported" (else it may fail quietly). */
async function importJson<T extends { id?: string }>(
	kind: 'credentials' | 'workflow',
	userFolder: string,
	items: T | T[],
	opts: N8nCommandOptions,
): Promise<T['id'][]> {
	const list = [items].flat();
	const file = path.join(userFolder, 'e2e-input', `${kind}-${randomUUID()}.json`);
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, JSON.stringify(list, null, 2));
	const result = await infoCommand([`import:${kind}`, `--input=${file}`], userFolder, opts);
	if (!/Successfully imported \d+/.test(result.stdout + result.stderr))
		throw new Error(`n8n import:${kind} did not report success\n${describeOutput(result)}`);
	return list.map((item) => item.id);
}

/** A plain `data` n8n encrypts; a string `data` is taken as already encrypted. */
export const importCredential = (
	userFolder: string,
	credentials: CredentialJson | CredentialJson[],
	opts: N8nCommandOptions = {},
): Promise<string[]> => importJson('credentials', userFolder, credentials, opts);

/** Each with an `id` (to run it by id), inactive (see activateWorkflow). */
export async function importWorkflow(
	userFolder: string,
	workflows: Workflow | Workflow[],
	opts: N8nCommandOptions = {},
): Promise<Array<Workflow['id']>> {
	for (const wf of [workflows].flat())
		if (!wf.id) throw new Error(`importWorkflow: workflow "${wf.name}" has no id`);
	return importJson('workflow', userFolder, workflows, opts);
}

/** Marks a workflow active for the next `n8n start` (the profile's activateCommand). */
export const activateWorkflow = (userFolder: string, id: string, opts: N8nCommandOptions = {}) =>
	infoCommand(PROFILE.activateCommand(id), userFolder, opts);

/** The execution JSON in the log: the first "{" … "}" span that parses with data.resultData. */
function parseExecutionOutput(text: string): N8nRun | undefined {
	const lines = text.split(/\r?\n/);
	const ends: number[] = [];
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

/** `n8n execute --id=<id> --rawOutput`; a failed execution throws only with `expectSuccess`. */
export async function executeWorkflow(
	userFolder: string,
	id: string,
	{
		env = {},
		timeoutMs = N8N_COMMAND_TIMEOUT_MS,
		expectSuccess = false,
	}: N8nCommandOptions & { expectSuccess?: boolean } = {},
): Promise<{ ok: boolean; run: N8nRun; result: CommandResult; failure: string | undefined }> {
	// a failed execution's JSON is logged at level info
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

/** The items (json only) of a node's first run, first output. */
export function nodeOutput(
	run: Pick<N8nRun, 'data'>,
	nodeName: string,
): Array<Record<string, unknown>> {
	const nodeRuns = run.data.resultData.runData[nodeName];
	if (!nodeRuns)
		throw new Error(
			`node "${nodeName}" did not run; ran: ${Object.keys(run.data.resultData.runData).join(', ')}`,
		);
	return (nodeRuns[0].data?.main?.[0] ?? []).map((i) => i.json);
}

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

/** Starts a long-running n8n command, ready once each of `readySteps` has held, in order. */
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
	let step = 0;
	const server = await startServer(
		`n8n ${command} (${readySteps.map((s) => s.url).join(', then ')})`,
		NODE_BIN,
		[N8N_BIN, command, ...args],
		{
			cwd: userFolder,
			env: n8nEnv(userFolder, {
				...(await brokerPortEnv(env)),
				N8N_LOG_LEVEL: 'info',
				...commandEnv,
				...env,
			}),
			keep: 200_000,
			probe: async () => {
				for (; step < readySteps.length; step++) {
					const res = await fetchFresh(readySteps[step].url, {
						signal: AbortSignal.timeout(5_000),
					});
					await res.arrayBuffer();
					if (!readySteps[step].done(res)) return false;
				}
				return true;
			},
			timeoutMs,
		},
	);
	return { ...result, ...server };
}
