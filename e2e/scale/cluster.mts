// The queue-mode cluster's shared state (sandbox, PostgreSQL, Redis, the registry, the main and the
// workers) and the steps that act on it: starting the main and a worker, moving the sandbox clock
// past every token, holding a poll.
import type { EnvInstallSource } from '../lib/envInstall.mts';
import { login, setupOwner, startN8n, startN8nWorker } from '../lib/n8n.mts';
import type { startSandboxProcess } from '../lib/sandbox.mts';
import type { Postgres, Redis } from '../lib/services.mts';
import type { RequestLogEntry } from '../../sandbox/types.ts';
import { log, secs } from './report.mts';

/** Token lifetime in the sandbox: shorter than a poll interval, so tokens expire all the time. */
export const TOKEN_TTL_S = 45;
/**
 * How long the sandbox holds each List Sessions request while a poll is interrupted on purpose: at
 * most 3 requests of a poll are held, so a poll stays well within its minute (n8n 2.41.3, as 2.39,
 * starts the next poll on the next tick even if the previous one is still running; the trigger
 * skips such a poll, which would only move the step's updates one poll later).
 */
export const HOLD_MS = 10_000;

export type Sandbox = Awaited<ReturnType<typeof startSandboxProcess>>;
/** One entry of the sandbox's request log, stamped on the sandbox's clock. */
export type SandboxRequest = RequestLogEntry;
/** An n8n process of the cluster, named as its executions record it ("main#2", "worker-1"). */
type ClusterProcess = Awaited<ReturnType<typeof startN8nWorker>> & { name: string };
/** The main: the editor, its REST API and the triggers. */
type ClusterMain = Awaited<ReturnType<typeof startN8n>> & { name: string };

/** The run's state; the entry (e2e/scale.mts) sets the services up before any step uses them. */
export const ctx: {
	sandbox?: Sandbox;
	pg?: Postgres;
	redis?: Redis;
	/** The local registry holding the packed package (lib/envInstall.mts). */
	source?: EnvInstallSource;
	main?: ClusterMain;
	mainStarts: number;
	workers: Record<string, ClusterProcess>;
	workerStarts: Record<string, number>;
	/** main, worker-1, worker-2, files */
	folders: Record<string, string>;
	cookie?: string;
	clusterEnv?: Record<string, string>;
	dbEnv?: Record<string, string>;
	mainPort?: number;
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

/** Slows the next poll's first List Sessions requests, so that a kill can land in the middle of it. */
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

/**
 * Moves the sandbox clock past the token lifetime: every token issued so far has expired (as after
 * an outage longer than a token's life). Returns the sandbox time just after the move.
 */
export async function expireAllTokens(): Promise<number> {
	const advanceMs = (TOKEN_TTL_S + 1) * 1000;
	await ctx.sandbox!.clock({ advanceMs });
	ctx.clockOffsetMs += advanceMs;
	return sandboxNow();
}

export async function startMain() {
	ctx.mainStarts++;
	const name = `main#${ctx.mainStarts}`;
	const instance: ClusterMain = Object.assign(
		await startN8n({
			userFolder: ctx.folders.main,
			port: ctx.mainPort,
			env: { ...ctx.clusterEnv, AIRSIGN_SCALE_PROCESS: name },
		}),
		{ name },
	);
	ctx.main = instance;
	ctx.cookie =
		ctx.mainStarts === 1
			? (await setupOwner(instance.url)).cookie
			: (await login(instance.url)).cookie;
	log(`${name} ready (${secs(instance.startMs)} s), ${instance.url}`);
	return instance;
}

export async function startWorker(base: string) {
	ctx.workerStarts[base] = (ctx.workerStarts[base] ?? 0) + 1;
	const name = ctx.workerStarts[base] === 1 ? base : `${base}#${ctx.workerStarts[base]}`;
	const instance: ClusterProcess = Object.assign(
		await startN8nWorker({
			userFolder: ctx.folders[base],
			env: { ...ctx.clusterEnv, AIRSIGN_SCALE_PROCESS: name },
		}),
		{ name },
	);
	ctx.workers[base] = instance;
	log(`${name} ready (${secs(instance.startMs)} s)`);
	return instance;
}
