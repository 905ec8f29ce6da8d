// The queue-mode cluster's shared state and the steps that act on it (starting the main and a
// worker, moving the sandbox clock past every token, holding a poll); the tier's log, timed from its
// start, and its summary: the checks' PASS/FAIL and facts.
import { createChecks, printResults } from '../lib/checks.mts';
import type { EnvInstallSource } from '../lib/envInstall.mts';
import { login, setupOwner, startN8n, startN8nWorker } from '../lib/n8n.mts';
import type { startSandboxProcess } from '../lib/sandbox.mts';
import type { Postgres, Redis } from '../lib/services.mts';
import type { RequestLogEntry } from '../../sandbox/types.ts';

const t00 = Date.now();
export const facts: string[] = [];
export const secs = (ms: number): string => (ms / 1000).toFixed(1);
export function log(msg: string): void {
	process.stdout.write(`[scale +${secs(Date.now() - t00)}s] ${msg}\n`);
}
/** Checks record PASS/FAIL with their time and never throw; setup steps are timed and throw. */
export const { results, check, step } = createChecks(log);

/** Prints the summary; true when the tier failed (`fatal`, a check missing, or one failed). */
export function printSummary({ short, fatal }: { short: boolean; fatal: unknown }): boolean {
	console.log(`\n[scale] queue-mode summary${short ? ' (--short)' : ''}`);
	printResults(results);
	for (const f of facts) console.log(`  ${f}`);
	const failed = Boolean(fatal) || results.length < 6 || results.some((r) => !r.ok);
	console.log(`  ${failed ? 'FAILED' : 'ALL PASSED'} in ${secs(Date.now() - t00)} s`);
	return failed;
}

/** Token lifetime in the sandbox: shorter than a poll interval, so tokens expire all the time. */
export const TOKEN_TTL_S = 45;
/** How long the sandbox holds each of a poll's first 3 List Sessions: well within its minute. */
export const HOLD_MS = 10_000;

export type Sandbox = Awaited<ReturnType<typeof startSandboxProcess>>;
export type SandboxRequest = RequestLogEntry;
/** An n8n process of the cluster, named as its executions record it ("main#2", "worker-1"). */
type ClusterProcess = Awaited<ReturnType<typeof startN8nWorker>> & { name: string };
type ClusterMain = Awaited<ReturnType<typeof startN8n>> & { name: string };

/** The run's state; e2e/scale.mts sets the services up before any step uses them. */
export const ctx: {
	sandbox?: Sandbox;
	pg?: Postgres;
	redis?: Redis;
	source?: EnvInstallSource;
	main?: ClusterMain;
	mainStarts: number;
	workers: Record<string, ClusterProcess>;
	workerStarts: Record<string, number>;
	folders: Record<string, string>;
	cookie?: string;
	clusterEnv?: Record<string, string>;
	mainPort?: number;
	/** The upload example's PDF, in the folder n8n may read. */
	pdfPath?: string;
	/** The folder of the tarball packed for this run (none with --tarball). */
	packDir?: string;
	/** The sandbox clock runs this far ahead of real time (expireAllTokens moves it). */
	clockOffsetMs: number;
	/** Sandbox times after which the main's, then a worker's, first call must meet an expired token. */
	tokenProbes: { main?: number; worker?: number };
} = {
	mainStarts: 0,
	workers: {},
	workerStarts: {},
	folders: {},
	clockOffsetMs: 0,
	tokenProbes: {},
};

/** Slows the next poll, so that a kill can land in its middle. */
export async function holdNextPoll(): Promise<void> {
	await ctx.sandbox!.injectFault({
		kind: 'latency',
		method: 'GET',
		path: '/api/v1/Sessions',
		count: 3,
		delayMs: HOLD_MS,
	});
}

/** Now on the sandbox's clock, which stamps the request log (`atMs`). */
export const sandboxNow = (): number => Date.now() + ctx.clockOffsetMs;

/** Moves the sandbox clock past every token issued so far; returns the sandbox time after it. */
export async function expireAllTokens(): Promise<number> {
	const advanceMs = (TOKEN_TTL_S + 1) * 1000;
	await ctx.sandbox!.clock({ advanceMs });
	ctx.clockOffsetMs += advanceMs;
	return sandboxNow();
}

export async function startMain() {
	ctx.mainStarts++;
	const name = `main#${ctx.mainStarts}`;
	const env = { ...ctx.clusterEnv, AIRSIGN_SCALE_PROCESS: name };
	const instance = {
		...(await startN8n({ userFolder: ctx.folders.main, port: ctx.mainPort, env })),
		name,
	};
	ctx.main = instance;
	ctx.cookie = (await (ctx.mainStarts === 1 ? setupOwner : login)(instance.url)).cookie;
	log(`${name} ready (${secs(instance.startMs)} s), ${instance.url}`);
	return instance;
}

export async function startWorker(base: string) {
	ctx.workerStarts[base] = (ctx.workerStarts[base] ?? 0) + 1;
	const name = ctx.workerStarts[base] === 1 ? base : `${base}#${ctx.workerStarts[base]}`;
	const env = { ...ctx.clusterEnv, AIRSIGN_SCALE_PROCESS: name };
	const instance = { ...(await startN8nWorker({ userFolder: ctx.folders[base], env })), name };
	ctx.workers[base] = instance;
	log(`${name} ready (${secs(instance.startMs)} s)`);
	return instance;
}
