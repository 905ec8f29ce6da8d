// A running n8n's REST API as the editor uses it (owner cookie): the owner, workflows run and
// activated, executions listed and awaited; and requests that outlast n8n's brief 503s and a
// webhook's late registration. Re-exported by e2e/lib/n8n.mts.
import type { Workflow } from './fixtures.mts';
import type { ExecutionData } from './n8nCli.mts';
import { pollUntil } from './checks.mts';
import { parseFlatted } from './n8nState.mts';
import { fetchFresh, sleep, type FetchInit } from './proc.mts';

/** The owner's account (setupOwner's defaults fill what is left out). */
type OwnerAccount = { email?: string; password?: string; firstName?: string; lastName?: string };

/** An execution as GET /rest/executions lists it. */
export interface ExecutionSummary {
	id: string;
	mode: string;
	status: string;
	finished?: boolean;
	workflowId: string;
	startedAt?: string | null;
	stoppedAt?: string | null;
	[field: string]: unknown;
}

/** One execution with its data unflattened (getExecution). */
export interface Execution extends ExecutionSummary {
	data: ExecutionData;
	workflowData?: Workflow;
}

/** One REST call to a running n8n (503s included, see n8nFetch). */
const REST_TIMEOUT_MS = 60_000;

/**
 * A request to a running n8n, on a fresh connection, repeated while n8n answers 503. n8n pings
 * its database every 2 s and gives the ping 5 s; on a loaded machine a ping takes longer, n8n
 * marks the database disconnected and answers every request with 503 "Database is not ready!"
 * until the next ping succeeds (seen on 1.123.81 at the owner setup right after start). That
 * answer comes from a middleware before any handler, so sending again is safe, POSTs included.
 */
export async function n8nFetch(
	url: string,
	init: FetchInit = {},
	{ timeoutMs = REST_TIMEOUT_MS }: { timeoutMs?: number } = {},
): Promise<Response> {
	const t0 = Date.now();
	for (;;) {
		const res = await fetchFresh(url, { signal: AbortSignal.timeout(timeoutMs), ...init });
		if (res.status !== 503 || Date.now() - t0 > timeoutMs) return res;
		await res.arrayBuffer();
		await sleep(500);
	}
}

/**
 * POSTs to a production webhook, sent again while n8n answers 404 (the webhook is not registered
 * yet, so nothing ran): n8n 2.41 answers an activation at once and registers the workflow's
 * webhooks a moment later, through its workflow-publication outbox; so does a start of n8n with
 * workflows published from the CLI. Any other answer is returned.
 */
export async function postToWebhook(
	url: string,
	init?: FetchInit,
	{
		timeoutMs = REST_TIMEOUT_MS,
		registeredWithinMs = 90_000,
	}: { timeoutMs?: number; registeredWithinMs?: number } = {},
): Promise<Response> {
	const deadline = Date.now() + registeredWithinMs;
	for (;;) {
		const res = await n8nFetch(url, { method: 'POST', ...init }, { timeoutMs });
		if (res.status !== 404 || Date.now() > deadline) return res;
		await res.arrayBuffer();
		await sleep(500);
	}
}

/** POSTs `body` to an auth route; resolves the session cookie for later requests. */
async function authPost(url: string, route: string, body: object): Promise<string> {
	const res = await n8nFetch(`${url}${route}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'browser-id': 'e2e' },
		body: JSON.stringify(body),
	});
	if (!res.ok) throw new Error(`POST ${route}: ${res.status} ${await res.text()}`);
	return (res.headers.getSetCookie?.() ?? [res.headers.get('set-cookie')])
		.filter((c): c is string => Boolean(c))
		.map((c) => c.split(';')[0])
		.join('; ');
}

/** Creates the instance owner via the REST API; resolves a cookie header for later requests. */
export async function setupOwner(
	url: string,
	{
		email = 'e2e@example.com',
		password = 'E2e-password-1',
		firstName = 'E2E',
		lastName = 'Owner',
	}: OwnerAccount = {},
) {
	const cookie = await authPost(url, '/rest/owner/setup', { email, password, firstName, lastName });
	if (!cookie) throw new Error('POST /rest/owner/setup: no auth cookie in the response');
	return { cookie, email, password };
}

/** Logs in an existing user (e.g. the owner created by setupOwner on an earlier start). */
export async function login(
	url: string,
	{ email = 'e2e@example.com', password = 'E2e-password-1' }: OwnerAccount = {},
) {
	const cookie = await authPost(url, '/rest/login', { emailOrLdapLoginId: email, password });
	return { cookie, email, password };
}

/** A REST call with the owner's cookie and a JSON body (POST); parses the JSON answer. */
async function rest<T>(
	method: 'GET' | 'POST',
	url: string,
	pathAndQuery: string,
	cookie: string,
	body?: unknown,
): Promise<T> {
	const res = await n8nFetch(`${url}${pathAndQuery}`, {
		method,
		headers: { cookie, 'browser-id': 'e2e', 'content-type': 'application/json' },
		body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
	});
	const text = await res.text();
	if (!res.ok) throw new Error(`${method} ${pathAndQuery}: ${res.status} ${text.slice(0, 500)}`);
	return JSON.parse(text);
}

/** GET a REST path (e.g. '/rest/executions?...') with the owner's cookie; parses JSON. */
export const restGet = <T = unknown,>(url: string, pathAndQuery: string, cookie: string) =>
	rest<T>('GET', url, pathAndQuery, cookie);

/** POST a JSON body to a REST path with the owner's cookie; parses the JSON answer. */
export const restPost = <T = unknown,>(
	url: string,
	pathAndQuery: string,
	cookie: string,
	body?: unknown,
) => rest<T>('POST', url, pathAndQuery, cookie, body);

/**
 * Runs a stored workflow the way the editor's "Execute workflow" does: POST
 * /rest/workflows/<id>/run with the workflow and `triggerToStartFrom` = its Manual Trigger (without
 * it n8n answers 400 "specify either a trigger to start from or a destination node"). Resolves the
 * execution id; in queue mode with OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true a worker runs it.
 */
export async function runWorkflowAsEditor(
	url: string,
	cookie: string,
	workflowId: string,
): Promise<string> {
	const wf = (await restGet<{ data: Workflow }>(url, `/rest/workflows/${workflowId}`, cookie)).data;
	const trigger = wf.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	if (!trigger) throw new Error(`workflow ${workflowId} has no Manual Trigger`);
	const body = await restPost<{ data?: { executionId?: string } } | undefined>(
		url,
		`/rest/workflows/${workflowId}/run`,
		cookie,
		{
			workflowData: wf,
			triggerToStartFrom: { name: trigger.name },
		},
	);
	const executionId = body?.data?.executionId;
	if (!executionId)
		throw new Error(
			`POST /rest/workflows/${workflowId}/run: no executionId in ${JSON.stringify(body)}`,
		);
	return executionId;
}

/**
 * Activates (2.x: publishes) a stored workflow in a running n8n, as the editor's switch does:
 * POST /rest/workflows/<id>/activate with its current versionId (the same route on n8n 1.123 and
 * 2.41.3). n8n up to 2.39 answers once the workflow is active, a polling trigger's first poll
 * included; 2.41 answers at once and activates it a moment later, so callers wait for what they
 * need (the activation poll in the sandbox's log, a webhook that no longer answers 404).
 */
export async function activateWorkflowAsEditor(
	url: string,
	cookie: string,
	workflowId: string,
): Promise<Workflow> {
	const { versionId } = (
		await restGet<{ data: Workflow }>(url, `/rest/workflows/${workflowId}`, cookie)
	).data;
	return (
		await restPost<{ data: Workflow }>(url, `/rest/workflows/${workflowId}/activate`, cookie, {
			versionId,
		})
	).data;
}

/** The editor's switch the other way: POST /rest/workflows/<id>/deactivate; its triggers stop. */
export async function deactivateWorkflowAsEditor(
	url: string,
	cookie: string,
	workflowId: string,
): Promise<Workflow> {
	return (
		await restPost<{ data: Workflow }>(url, `/rest/workflows/${workflowId}/deactivate`, cookie, {})
	).data;
}

/** n8n's statuses of an execution that has not ended: queued, running, or waiting (e.g. a Wait node). */
const NOT_ENDED = ['new', 'running', 'waiting'];

/**
 * Whether an execution has ended (success, error, crashed, canceled). n8n lists an execution from
 * its start, and writes its end status in the same transaction as its data: only then is it read.
 */
export const hasEnded = (e: { status: string; finished?: boolean }): boolean =>
	e.finished === true || !NOT_ENDED.includes(e.status);

/** Polls an execution until it has ended (hasEnded); returns it unflattened. */
export async function waitForExecutionEnd(
	url: string,
	cookie: string,
	id: string,
	{ timeoutMs = 60_000 }: { timeoutMs?: number } = {},
): Promise<Execution> {
	let exec: Execution | undefined;
	return pollUntil(
		async () => hasEnded((exec = await getExecution(url, cookie, id))) && exec,
		() => `execution ${id} still ${exec?.status} after ${timeoutMs} ms`,
		{ timeoutMs, everyMs: 300 },
	);
}

/** Executions via the REST API (owner cookie from setupOwner/login), newest first. */
export async function listExecutions(
	url: string,
	cookie: string,
	{ workflowId }: { workflowId?: string } = {},
): Promise<ExecutionSummary[]> {
	const qs = workflowId ? `?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}` : '';
	return (
		await restGet<{ data: { results: ExecutionSummary[] } }>(url, `/rest/executions${qs}`, cookie)
	).data.results;
}

/** One execution with its data unflattened: { ...summary, data: IRunExecutionData, workflowData }. */
export async function getExecution(url: string, cookie: string, id: string): Promise<Execution> {
	const { data } = await restGet<{
		data: ExecutionSummary & { data: string | ExecutionData; workflowData?: Workflow };
	}>(url, `/rest/executions/${id}`, cookie);
	return {
		...data,
		data: typeof data.data === 'string' ? parseFlatted<ExecutionData>(data.data) : data.data,
	};
}

/**
 * Polls listExecutions until `predicate(list)` holds and every execution listed has ended
 * (hasEnded); returns the list, newest first. n8n lists an execution as soon as it starts, so a
 * list that merely holds it says nothing of its outcome. `ended: false` returns on the predicate
 * alone, for a caller that waits for a status itself (e.g. 'waiting'). The bound only catches a hang.
 */
export async function waitForExecutions(
	url: string,
	cookie: string,
	predicate: (list: ExecutionSummary[]) => boolean,
	{
		workflowId,
		ended = true,
		timeoutMs = 90_000,
		intervalMs = 500,
	}: { workflowId?: string; ended?: boolean; timeoutMs?: number; intervalMs?: number } = {},
): Promise<ExecutionSummary[]> {
	let list: ExecutionSummary[] = [];
	return pollUntil(
		async () => {
			list = await listExecutions(url, cookie, { workflowId });
			return predicate(list) && (!ended || list.every(hasEnded)) && list;
		},
		() =>
			`executions never matched${ended ? ' and ended' : ''} within ${timeoutMs} ms; have: ${JSON.stringify(list.map((e) => ({ id: e.id, mode: e.mode, status: e.status })))}`,
		{ timeoutMs, everyMs: intervalMs },
	);
}
