// Checks a–c: the example workflows (lib/examples.mts) run from the editor's REST route on a worker,
// as the execution's recorded `process` and the worker's log say. The tokens check, from the
// sandbox's request log: tokens renewed after expiry by the main and a worker, every 401 followed by
// a token fetch and a successful retry.
import assert from 'node:assert/strict';
import { pollUntil } from '../lib/checks.mts';
import { loadExamples } from '../lib/fixtures.mts';
import {
	EXAMPLE_CHECK_NAMES,
	checkErrorPathExample,
	checkSendDraftsExample,
	checkUploadExample,
} from '../lib/examples.mts';
import {
	deactivateWorkflowAsEditor,
	runWorkflowAsEditor,
	waitForExecutionEnd,
} from '../lib/n8n.mts';
import {
	check,
	ctx,
	expireAllTokens,
	facts,
	TOKEN_TTL_S,
	type SandboxRequest,
} from './cluster.mts';
import { recordedProcess } from './stream.mts';
import { MARKER, STREAM_WORKFLOW_ID } from './workflows.mts';
interface RanExample {
	name: string;
	executionId: string;
	process: string | undefined;
	status: string;
}

/** An example (its id as in examples/) run as the editor runs it, on a worker, to its end. */
async function runExampleOnWorker(name: string, ran: RanExample[]) {
	const id = loadExamples()[name].id;
	const executionId = await runWorkflowAsEditor(ctx.main!.url, ctx.cookie!, id);
	const exec = await waitForExecutionEnd(ctx.main!.url, ctx.cookie!, executionId, {
		timeoutMs: 120_000,
	});
	const ranOn = recordedProcess(exec.data);
	ran.push({ name, executionId, process: ranOn, status: exec.status });
	assert.match(String(ranOn), /^worker-\d/, `${name} ran on ${ranOn}, not on a worker`);
	const error = exec.data?.resultData?.error?.message;
	const failure = error ?? (exec.status === 'success' ? undefined : `status ${exec.status}`);
	return { ok: failure === undefined, run: { data: exec.data }, failure, process: ranOn };
}

/** Checks a–c, each example run on a worker (as its log says too). */
export async function examplesPhase(): Promise<void> {
	const ran: RanExample[] = [];
	const runExample = async (name: string) => {
		const result = await runExampleOnWorker(name, ran);
		// the worker's log line is written after the execution is saved
		const worker = ctx.workers[result.process!.split('#')[0]];
		const line = new RegExp(`Worker finished execution ${ran.at(-1)!.executionId} `);
		await pollUntil(
			() => line.test(worker.output()),
			() =>
				`${result.process}'s log line for execution ${ran.at(-1)!.executionId}: not within 30 s`,
			{ timeoutMs: 30_000, everyMs: 250 },
		);
		return result;
	};
	const on = () => ` [execution ${ran.at(-1)!.executionId} on ${ran.at(-1)!.process}]`;
	const options = { sandbox: ctx.sandbox!, runExample, pdfPath: ctx.pdfPath! };
	for (const [name, run] of [
		[EXAMPLE_CHECK_NAMES.upload, checkUploadExample],
		[EXAMPLE_CHECK_NAMES.send, checkSendDraftsExample],
		[EXAMPLE_CHECK_NAMES.errorPath, checkErrorPathExample],
	] as const)
		await check(name, async () => (await run(options)) + on());
	facts.push(
		`examples: ${ran.map((r) => `${r.name} → execution ${r.executionId} ${r.status} on ${r.process}`).join('; ')}`,
	);
}

/** The first call matching `isCall` since `since` answered 401, a token was fetched, the call repeated with success. */
function renewalAfter(
	reqs: SandboxRequest[],
	since: number,
	isCall: (r: SandboxRequest) => boolean,
	what: string,
): string {
	const first = reqs.find((r) => r.atMs >= since && isCall(r));
	assert.ok(first, `${what}: no call after the tokens expired`);
	assert.equal(first.status, 401, `${what}: the first call after expiry answered ${first.status}`);
	const token = reqs.find(
		(r) => r.atMs >= first.atMs && r.method === 'POST' && r.path === '/oidc/token',
	);
	assert.ok(token && token.status === 200, `${what}: no token fetched after the 401`);
	const retry = repeated(reqs, first, token.atMs);
	assert.ok(retry?.status === 200, `${what}: the call was not repeated with success`);
	return `${first.method} ${first.path} 401 → token → 200`;
}

/** The first repeat of `call` (same method, path and query) at or after `since` that `ok` accepts. */
const repeated = (
	reqs: SandboxRequest[],
	call: SandboxRequest,
	since: number,
	ok: (r: SandboxRequest) => boolean = () => true,
) =>
	reqs.find(
		(r) =>
			r.atMs >= since &&
			r.method === call.method &&
			r.path === call.path &&
			JSON.stringify(r.query ?? {}) === JSON.stringify(call.query ?? {}) &&
			ok(r),
	);

export async function tokenCheck(): Promise<string> {
	// a worker's renewal with nobody else calling AirSign: the upload example again on a worker
	await deactivateWorkflowAsEditor(ctx.main!.url, ctx.cookie!, STREAM_WORKFLOW_ID);
	ctx.tokenProbes.worker = await expireAllTokens();
	const ran: RanExample[] = [];
	const upload = await checkUploadExample({
		sandbox: ctx.sandbox!,
		runExample: (name: string) => runExampleOnWorker(name, ran),
		pdfPath: ctx.pdfPath!,
	});
	const reqs = await ctx.sandbox!.requests();
	const tokens = reqs.filter((r) => r.method === 'POST' && r.path === '/oidc/token');
	assert.ok(
		tokens.every((r) => r.status === 200),
		`token requests answered ${tokens.map((r) => r.status)}`,
	);
	assert.ok(tokens.length > 0, 'no token was requested');
	const firstExpiry = tokens[0].atMs + TOKEN_TTL_S * 1000;
	const renewals = tokens.filter((r) => r.atMs >= firstExpiry);
	assert.ok(renewals.length >= 2, `${renewals.length} tokens fetched after the first expired`);
	// the main: its first poll after the restart in step B (tokens expired while it was down)
	const isTriggerList = (r: SandboxRequest) =>
		r.method === 'GET' && r.path === '/api/v1/Sessions' && r.query?.name === MARKER;
	const mainRenewal = renewalAfter(reqs, ctx.tokenProbes.main!, isTriggerList, 'main');
	// a worker: the upload example after the trigger was deactivated and the tokens expired
	const isUpload = (r: SandboxRequest) => r.method === 'POST' && r.path === '/api/v1/File';
	const workerRenewal = renewalAfter(reqs, ctx.tokenProbes.worker!, isUpload, 'worker');
	// n8n renews a token when a call answers 401 and repeats the call: no 401 may be a final answer
	const unauthorized = reqs.filter((r) => r.status === 401);
	const unrecovered = unauthorized.filter((r) => {
		const renewed = tokens.find((t) => t.atMs >= r.atMs);
		return !renewed || !repeated(reqs, r, renewed.atMs, (x) => x.status >= 200 && x.status < 300);
	});
	assert.deepEqual(
		unrecovered.map((r) => `${r.method} ${r.path} at ${r.at}`),
		[],
		'a 401 without a token fetch and a successful retry after it',
	);
	const limited = reqs.filter((r) => r.status === 429);
	assert.equal(limited.length, 0, `429 answers: ${limited.length}`);
	const lists = reqs.filter((r) => r.method === 'GET' && r.path === '/api/v1/Sessions');
	const api = reqs.filter((r) => r.path.startsWith('/api/v1/')).length;
	facts.push(
		`tokens (lifetime ${TOKEN_TTL_S} s): ${tokens.length} fetched, ${renewals.length} after the first expired; ${unauthorized.length} answers 401 (${unauthorized.filter(isTriggerList).length} to the trigger on the main), each followed by a token fetch and a successful retry`,
		`  main after its restart with expired tokens: ${mainRenewal}; ${ran[0].process} (upload again, trigger deactivated, tokens expired): ${workerRenewal}; ${upload}`,
		`  ${api} API requests, ${lists.length} List Sessions (${lists.filter(isTriggerList).length} by the trigger; the sandbox's hourly budget was raised for the tier)`,
	);
	return `${tokens.length} token fetches (${renewals.length} after expiry), ${unauthorized.length} 401s all recovered; main and ${ran[0].process} each renewed`;
}
