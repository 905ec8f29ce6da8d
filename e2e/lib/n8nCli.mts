// One-shot n8n commands (import, publish, execute) on the profile's Node, and what `n8n execute`
// prints: the execution, and the items each node produced. Re-exported by e2e/lib/n8n.mts.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { N8N_BIN, NODE_BIN, PROFILE, n8nEnv } from '../n8n-installation.mts';
import type { CredentialJson, Workflow } from './fixtures.mts';
import { describeExit, describeOutput, runCommand, type CommandResult } from './proc.mts';

/** An error n8n reports (an execution's, or a node's). */
export interface N8nError {
	message: string;
	description?: string | null;
	[field: string]: unknown;
}

/** One item a node outputs: its JSON, its binary data, the input item it came from. */
export interface NodeItem {
	json: Record<string, unknown>;
	binary?: Record<string, { fileName?: string }>;
	pairedItem?: { item: number } | number;
	[field: string]: unknown;
}

/** One run of a node: its items per output (`data.main[output]`), or its error. */
export interface NodeRun {
	data?: { main?: Array<NodeItem[] | null> };
	error?: N8nError;
	executionStatus?: string;
	startTime?: number;
	executionTime?: number;
	[field: string]: unknown;
}

/** An execution's data (n8n's IRunExecutionData): every node's runs, by node name, and the error. */
export interface ExecutionData {
	resultData: {
		runData: Record<string, NodeRun[]>;
		error?: N8nError;
		lastNodeExecuted?: string;
		[field: string]: unknown;
	};
	[field: string]: unknown;
}

/** A run as `n8n execute --rawOutput` prints it (n8n's IRun). */
export interface N8nRun {
	data: ExecutionData;
	status?: string;
	mode?: string;
	finished?: boolean;
	[field: string]: unknown;
}

/** The environment and bounds of a one-shot command. */
type N8nCommandOptions = { env?: NodeJS.ProcessEnv; timeoutMs?: number };

/**
 * Bounds of n8n commands and starts. Generous: on this project's 2-core machine, shared with other
 * jobs, an `n8n import:workflow` measured 40 s and an `n8n start` 117 s (2.7 s and 5.5 s when idle).
 * They only stop a hung process; nothing waits for them to pass.
 */
export const N8N_COMMAND_TIMEOUT_MS = 300_000;

/**
 * Runs a one-shot `n8n <args>` (import, publish, execute) for `userFolder` on the profile's Node.
 * On n8n 2.x these run on the "legacy" expression engine (the profile's oneShotEnv): they leave
 * through a bare `process.exit()` without disposing the default isolated-vm engine, and on a busy
 * CPU then die of SIGSEGV after printing a complete, successful result (9 of 12 `n8n execute` runs
 * with both cores loaded, 0 of 12 on legacy). `n8n start` keeps n8n's default engine.
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

/** n8n 2.x starts a task broker in every process: each gets a free port, so processes run side by side. */
export async function brokerPortEnv(env: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv> {
	if (!PROFILE.taskBroker) return {};
	return { N8N_RUNNERS_BROKER_PORT: env.N8N_RUNNERS_BROKER_PORT ?? String(await getFreePort()) };
}

function writeTempJson(userFolder: string, name: string, data: unknown): string {
	const dir = path.join(userFolder, 'e2e-input');
	mkdirSync(dir, { recursive: true });
	const file = path.join(
		dir,
		`${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`,
	);
	writeFileSync(file, JSON.stringify(data, null, 2));
	return file;
}

/** A command at log level info; `imported`: it must say "Successfully imported" (else it may fail quietly). */
async function infoCommand(
	args: string[],
	userFolder: string,
	opts: N8nCommandOptions,
	imported?: string,
): Promise<CommandResult> {
	const result = await runN8n(args, {
		userFolder,
		env: { N8N_LOG_LEVEL: 'info', ...opts.env },
		timeoutMs: opts.timeoutMs ?? N8N_COMMAND_TIMEOUT_MS,
	});
	if (imported && !/Successfully imported \d+/.test(result.stdout + result.stderr))
		throw new Error(`n8n import:${imported} did not report success\n${describeOutput(result)}`);
	return result;
}

/**
 * Imports credentials: `{ id, name, type, data }`, whose plain `data` n8n encrypts with
 * N8N_ENCRYPTION_KEY (a string `data` is taken as already encrypted).
 */
export async function importCredential(
	userFolder: string,
	credentials: CredentialJson | CredentialJson[],
	opts: N8nCommandOptions = {},
): Promise<string[]> {
	const list = [credentials].flat();
	const file = writeTempJson(userFolder, 'credentials', list);
	await infoCommand(['import:credentials', `--input=${file}`], userFolder, opts, 'credentials');
	return list.map((c) => c.id);
}

/** Imports workflows, each with an `id` (to run it by id), inactive (see activateWorkflow). */
export async function importWorkflow(
	userFolder: string,
	workflows: Workflow | Workflow[],
	opts: N8nCommandOptions = {},
): Promise<Array<Workflow['id']>> {
	const list = [workflows].flat();
	for (const wf of list)
		if (!wf.id) throw new Error(`importWorkflow: workflow "${wf.name}" has no id`);
	const file = writeTempJson(userFolder, 'workflows', list);
	await infoCommand(['import:workflow', `--input=${file}`], userFolder, opts, 'workflow');
	return list.map((w) => w.id);
}

/** Marks a workflow active for the next `n8n start` (the profile's activateCommand). */
export const activateWorkflow = (userFolder: string, id: string, opts: N8nCommandOptions = {}) =>
	infoCommand(PROFILE.activateCommand(id), userFolder, opts);

/**
 * Finds the execution JSON in `n8n execute` output. With --rawOutput a successful run prints
 * `JSON.stringify(run, null, 2)` as the last thing on stdout, but log lines (warnings, deprecation
 * notices) can come before it. A failed run prints the same JSON only at log level info, after
 * "Execution error:" and a "====" line. Scans for a line that is exactly "{" and the last line that
 * is exactly "}", and keeps the first span that parses into an object with `data.resultData`.
 */
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

/**
 * `n8n execute --id=<id> --rawOutput`. Resolves { ok, run, result, failure } where `run` is the
 * parsed IRun (`run.data.resultData.runData[<node name>][0].data.main[0]` = that node's items,
 * `run.data.resultData.error` on failure) and `failure` says in words why `ok` is false (the
 * execution's error, or how the process ended). Failed executions do not throw unless
 * `expectSuccess`.
 */
export async function executeWorkflow(
	userFolder: string,
	id: string,
	{
		env = {},
		timeoutMs = N8N_COMMAND_TIMEOUT_MS,
		expectSuccess = false,
	}: N8nCommandOptions & { expectSuccess?: boolean } = {},
): Promise<{ ok: boolean; run: N8nRun; result: CommandResult; failure: string | undefined }> {
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
export function nodeOutput(
	run: N8nRun,
	nodeName: string,
	{ output = 0, runIndex = 0 }: { output?: number; runIndex?: number } = {},
): Array<Record<string, unknown>> {
	const nodeRuns = run.data.resultData.runData[nodeName];
	if (!nodeRuns)
		throw new Error(
			`node "${nodeName}" did not run; ran: ${Object.keys(run.data.resultData.runData).join(', ')}`,
		);
	return (nodeRuns[runIndex].data?.main?.[output] ?? []).map((i) => i.json);
}

/** A TCP port free on 127.0.0.1 right now (the system picks it). */
export function getFreePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const srv = createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address() as AddressInfo;
			srv.close(() => resolve(port));
		});
	});
}
