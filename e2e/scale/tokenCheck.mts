// The tokens check, from the sandbox's request log: tokens renewed after expiry by the main and a
// worker, every 401 followed by a token fetch and a successful retry.
import assert from 'node:assert/strict';
import { checkUploadExample } from '../lib/examples.mts';
import { deactivateWorkflowAsEditor } from '../lib/n8n.mts';
import { ctx, expireAllTokens, TOKEN_TTL_S, type SandboxRequest } from './cluster.mts';
import { runExampleOnWorker, type ExampleIds, type RanExample } from './examples.mts';
import { facts } from './report.mts';
import { MARKER, STREAM_WORKFLOW_ID } from './workflows.mts';

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

async function tokenChecks() {
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
	return {
		tokens: tokens.length,
		renewals: renewals.length,
		unauthorized: unauthorized.length,
		unauthorizedTrigger: unauthorized.filter(isTriggerList).length,
		mainRenewal,
		workerRenewal,
		api: reqs.filter((r) => r.path.startsWith('/api/v1/')).length,
		lists: lists.length,
		triggerLists: lists.filter(isTriggerList).length,
	};
}

export async function tokenCheck({
	ids,
	pdfPath,
}: {
	ids: ExampleIds;
	pdfPath: string;
}): Promise<string> {
	// a worker's renewal with nobody else calling AirSign: the upload example again on a worker
	await deactivateWorkflowAsEditor(ctx.main!.url, ctx.cookie!, STREAM_WORKFLOW_ID);
	ctx.tokenProbes.worker = await expireAllTokens();
	const ran: RanExample[] = [];
	const upload = await checkUploadExample({
		sandbox: ctx.sandbox!,
		runExample: async (name: string) => {
			const result = await runExampleOnWorker(ids, name, ran);
			assert.match(String(result.process), /^worker-\d/, `ran on ${result.process}`);
			return result;
		},
		pdfPath,
	});
	const t = await tokenChecks();
	facts.push(
		`tokens (lifetime ${TOKEN_TTL_S} s): ${t.tokens} fetched, ${t.renewals} after the first expired; ${t.unauthorized} answers 401 (${t.unauthorizedTrigger} to the trigger on the main), each followed by a token fetch and a successful retry`,
		`  main after its restart with expired tokens: ${t.mainRenewal}; ${ran[0].process} (upload again, trigger deactivated, tokens expired): ${t.workerRenewal}; ${upload}`,
		`  ${t.api} API requests, ${t.lists} List Sessions (${t.triggerLists} by the trigger; the sandbox's hourly budget was raised for the tier)`,
	);
	return `${t.tokens} token fetches (${t.renewals} after expiry), ${t.unauthorized} 401s all recovered; main and ${ran[0].process} each renewed`;
}
