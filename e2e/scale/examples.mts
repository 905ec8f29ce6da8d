// Checks a–c: the example workflows (lib/examples.mts) run from the editor's REST route on a worker,
// as the execution's recorded `process` and the worker's log say.
import assert from 'node:assert/strict';
import {
	EXAMPLE_CHECK_NAMES,
	checkErrorPathExample,
	checkSendDraftsExample,
	checkUploadExample,
} from '../lib/examples.mts';
import { runWorkflowAsEditor, waitForExecutionEnd } from '../lib/n8n.mts';
import { ctx } from './cluster.mts';
import { recordedProcess } from './deliveries.mts';
import { check } from './report.mts';
import { waitFor } from './stream.mts';

/** The stored workflow's id by example name. */
export type ExampleIds = Record<string, string>;

export interface RanExample {
	name: string;
	executionId: string;
	process: string | undefined;
	status: string;
}

/** An example run as the editor runs it, to its end: what lib/examples.mts's checks expect. */
export async function runExampleOnWorker(ids: ExampleIds, name: string, ran: RanExample[]) {
	const executionId = await runWorkflowAsEditor(ctx.main!.url, ctx.cookie!, ids[name]);
	const exec = await waitForExecutionEnd(ctx.main!.url, ctx.cookie!, executionId, {
		timeoutMs: 120_000,
	});
	const ranOn = recordedProcess(exec.data);
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
		// so does the worker's log (written after the execution is saved)
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
	const options = { sandbox: ctx.sandbox!, runExample, pdfPath };
	for (const [name, run] of [
		[EXAMPLE_CHECK_NAMES.upload, checkUploadExample],
		[EXAMPLE_CHECK_NAMES.send, checkSendDraftsExample],
		[EXAMPLE_CHECK_NAMES.errorPath, checkErrorPathExample],
	] as const)
		await check(name, async () => (await run(options)) + on());
	return ran;
}
