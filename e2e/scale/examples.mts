// Checks a–c of the example workflows (lib/examples.mts), each run from the editor's REST route on a
// worker: the execution's `process` in PostgreSQL and the worker's log say which one ran it.
import assert from 'node:assert/strict';
import {
	EXAMPLE_CHECK_NAMES,
	checkErrorPathExample,
	checkSendDraftsExample,
	checkUploadExample,
} from '../lib/examples.mts';
import { runWorkflowAsEditor, waitForExecutionEnd } from '../lib/n8n.mts';
import { ctx } from './cluster.mts';
import { executionProcess } from './deliveries.mts';
import { check } from './report.mts';
import { waitFor } from './stream.mts';

/** The stored workflow's id of each example (examples/<name>.json), by example name. */
export type ExampleIds = Record<string, string>;

/** An example run on the cluster: its execution, who ran it, how it ended. */
export interface RanExample {
	name: string;
	executionId: string;
	process: string | undefined;
	status: string;
}

/**
 * Runs an example as the editor does (a worker runs it) and waits for its end; `ran` gets the run.
 * Resolves what lib/examples.mts's checks expect of `runExample`, with the process that ran it.
 */
export async function runExampleOnWorker(ids: ExampleIds, name: string, ran: RanExample[]) {
	const executionId: string = await runWorkflowAsEditor(ctx.main!.url, ctx.cookie!, ids[name]);
	const exec = await waitForExecutionEnd(ctx.main!.url, ctx.cookie!, executionId, {
		timeoutMs: 120_000,
	});
	const ranOn = await executionProcess(Number(executionId), { waitMs: 60_000 });
	ran.push({ name, executionId, process: ranOn, status: exec.status });
	const error = exec.data?.resultData?.error?.message;
	const failure = error ?? (exec.status === 'success' ? undefined : `status ${exec.status}`);
	return { ok: failure === undefined, run: { data: exec.data }, failure, process: ranOn };
}

/** Checks a–c, each example run on a worker; resolves the runs. */
export async function examplesPhase(ids: ExampleIds, pdfPath: string): Promise<RanExample[]> {
	const ran: RanExample[] = [];
	const runExample = async (name: string) => {
		const result = await runExampleOnWorker(ids, name, ran);
		assert.match(
			String(result.process),
			/^worker-\d/,
			`${name} ran on ${result.process}, not on a worker`,
		);
		// The worker's own log says so too (it logs after saving the execution: wait for the line).
		const worker = ctx.workers[result.process!.split('#')[0]];
		const line = new RegExp(`Worker finished execution ${ran.at(-1)!.executionId} `);
		await waitFor(
			`${result.process}'s log line for execution ${ran.at(-1)!.executionId}`,
			() => line.test(worker.output()),
			{ timeoutMs: 30_000 },
		);
		return result;
	};
	const on = () => ` [execution ${ran.at(-1)!.executionId} on ${ran.at(-1)!.process}]`;
	const sandbox = ctx.sandbox!;
	await check(
		`${EXAMPLE_CHECK_NAMES.upload}`,
		async () => (await checkUploadExample({ sandbox, runExample, pdfPath })) + on(),
	);
	await check(
		`${EXAMPLE_CHECK_NAMES.send}`,
		async () => (await checkSendDraftsExample({ sandbox, runExample })) + on(),
	);
	await check(
		`${EXAMPLE_CHECK_NAMES.errorPath}`,
		async () => (await checkErrorPathExample({ sandbox, runExample })) + on(),
	);
	return ran;
}
