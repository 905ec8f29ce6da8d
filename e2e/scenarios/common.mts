// Shared by the tracks of e2e/scenarios.mts: what the entry hands each track (its options, the
// examples, the log and the timed checks), the steps every track starts and ends with, and the
// waits for a trigger's runs and for its next poll that checks d and j end with.
import assert from 'node:assert/strict';
import { pollUntil, type createChecks } from '../lib/checks.mts';
import type { ExampleWorkflow, NodeRun } from '../lib/examples.mts';
import {
	getExecution,
	getFreePort,
	installPackageIntoN8n,
	listExecutions,
	makeUserFolder,
	type ExecutionSummary,
	removeUserFolder,
	startN8n,
	waitForExecutions,
} from '../lib/n8n.mts';
import { describeExit, sleep } from '../lib/proc.mts';
import { startSandboxProcess } from '../lib/sandbox.mts';
import type { RequestLogEntry } from '../../sandbox/index.ts';

export const SESSIONS = '/api/v1/Sessions';

/** A sandbox process with its control plane. */
export type Sandbox = Awaited<ReturnType<typeof startSandboxProcess>>;
/** A running `n8n start`. */
export type N8nInstance = Awaited<ReturnType<typeof startN8n>>;
type Checks = ReturnType<typeof createChecks>;

/** What the entry hands every track. */
export interface ScenarioContext {
	/** --keep: the user folders stay. */
	keep: boolean;
	/** --scheduler: check d alone, on n8n 2.x's database-backed poll scheduler. */
	scheduler: boolean;
	/** The environment of the live track's n8n commands and start (SCHEDULER_ENV or none). */
	liveEnv: Record<string, string>;
	/** examples/*.json by file name. */
	examples: Record<string, ExampleWorkflow>;
	log: (msg: string) => void;
	/** A named, timed check: PASS/FAIL recorded, never throws. */
	check: Checks['check'];
	/** A timed setup step: throws. */
	step: Checks['step'];
}

/** What a track's body is handed: its sandbox and n8n user folder, and a start of its n8n. */
export interface Track {
	sandbox: Sandbox;
	userFolder: string;
	startN8n: (env?: Record<string, string>) => Promise<N8nInstance>;
}

/**
 * Runs a track: its own sandbox on a free port and n8n user folder with the package from `tarball`
 * installed, then `body`; at the end stops what it started (n8n, then the sandbox) and removes the
 * folder unless --keep.
 */
export async function runTrack(
	ctx: ScenarioContext,
	track: string,
	tarball: string,
	body: (t: Track) => Promise<void>,
): Promise<void> {
	const userFolder = makeUserFolder(`airsign-e2e-${track}-`);
	let sandbox: Sandbox | undefined;
	let instance: N8nInstance | undefined;
	try {
		sandbox = await ctx.step(`${track}: sandbox started`, async () =>
			startSandboxProcess({ port: await getFreePort() }),
		);
		await ctx.step(`${track}: package installed`, () => installPackageIntoN8n(userFolder, tarball));
		await body({
			sandbox,
			userFolder,
			startN8n: async (env) =>
				(instance = await ctx.step(`${track}: n8n start until /healthz/readiness`, () =>
					startN8n({ userFolder, env }),
				)),
		});
	} finally {
		if (instance) ctx.log(`${track}: n8n stopped (${describeExit(await instance.stop())})`);
		if (sandbox) await sandbox.stop();
		if (ctx.keep) ctx.log(`kept ${userFolder}`);
		else removeUserFolder(userFolder);
	}
}

/** An active trigger's workflow in a running n8n, and the sandbox's log of the trigger's requests. */
export interface WatchedTrigger {
	listRequests: () => Promise<RequestLogEntry[]>;
	instance: { url: string };
	cookie: string;
	workflowId: string;
	deadline: number;
}

/**
 * Waits until the workflow has an execution and every one listed has ended, then asserts that it
 * is one trigger execution, a success, whose trigger (`triggerName`) delivered `sessionId` alone.
 * Resolves it with its run data. On a hang, says how many trigger requests (`listRequests`) came.
 */
export async function assertDeliveredOnce({
	listRequests,
	instance,
	cookie,
	workflowId,
	deadline,
	triggerName,
	sessionId,
}: WatchedTrigger & { triggerName: string; sessionId: string }): Promise<{
	exec: ExecutionSummary;
	runData: Record<string, NodeRun[]>;
}> {
	const execs = await waitForExecutions(instance.url, cookie, (l) => l.length > 0, {
		workflowId,
		timeoutMs: deadline - Date.now(),
		intervalMs: 1_000,
	}).catch(async (error: Error) => {
		throw new Error(
			`${error.message}; the sandbox saw ${(await listRequests()).length} List Sessions requests of the trigger`,
		);
	});
	assert.equal(execs.length, 1, `exactly one execution: ${JSON.stringify(execs.map((e) => e.id))}`);
	const [exec] = execs;
	assert.equal(exec.mode, 'trigger');
	assert.equal(exec.status, 'success');
	const full = await getExecution(instance.url, cookie, exec.id);
	const runData: Record<string, NodeRun[]> = full.data.resultData.runData;
	const delivered = runData[triggerName][0].data!.main![0]!.map((i) => i.json);
	assert.deepEqual(
		delivered.map((s) => s.sessionId),
		[sessionId],
		'the trigger delivered exactly that session',
	);
	return { exec, runData };
}

/**
 * Waits for one more List Sessions request (the trigger's next poll; `listRequests` lists them),
 * then asserts that `exec` is still the workflow's only execution: that poll delivered nothing again.
 */
export async function assertNoRepeatOnNextPoll({
	listRequests,
	instance,
	cookie,
	workflowId,
	exec,
	deadline,
}: WatchedTrigger & { exec: ExecutionSummary }): Promise<void> {
	const pollsSoFar = (await listRequests()).length;
	await pollUntil(
		async () => (await listRequests()).length > pollsSoFar,
		() => 'no further poll within the time limit',
		{ timeoutMs: deadline - Date.now(), everyMs: 1_000 },
	);
	await sleep(4_000); // an execution from that poll would be recorded within milliseconds
	const after: ExecutionSummary[] = await listExecutions(instance.url, cookie, { workflowId });
	assert.deepEqual(
		after.map((e) => e.id),
		[exec.id],
		'the next poll must not deliver it again',
	);
}
