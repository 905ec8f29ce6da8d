// A running n8n's REST API as the editor uses it (owner cookie), with requests that outlast n8n's
// brief 503s and a webhook's late registration; and what it leaves on disk: its type files, its
// SQLite database (a trigger's saved start in it), and the `flatted` format of its execution data.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { N8N_BIN, NODE_BIN } from '../n8n-installation.mts';
import type { Workflow } from './fixtures.mts';
import type { ExecutionData } from './n8nCli.mts';
import { pollUntil } from './checks.mts';
import { fetchFresh, runCommand, sleep, type FetchInit } from './proc.mts';

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

export interface Execution extends ExecutionSummary {
	data: ExecutionData;
	workflowData?: Workflow;
}

const REST_TIMEOUT_MS = 60_000;

/**
 * A request to n8n, sent again while it answers 503 (or another of `retryOn`) for `retryMs`: on a
 * loaded machine its database ping times out and a middleware answers "Database is not ready!"
 * before any handler runs (POSTs included).
 */
export async function n8nFetch(
	url: string,
	init: FetchInit = {},
	{
		timeoutMs = REST_TIMEOUT_MS,
		retryOn = [503],
		retryMs = timeoutMs,
	}: { timeoutMs?: number; retryOn?: number[]; retryMs?: number } = {},
): Promise<Response> {
	const t0 = Date.now();
	for (;;) {
		const res = await fetchFresh(url, { signal: AbortSignal.timeout(timeoutMs), ...init });
		if (!retryOn.includes(res.status) || Date.now() - t0 > retryMs) return res;
		await res.arrayBuffer();
		await sleep(500);
	}
}

/** POSTs to a webhook, again while 404: n8n 2.41 registers webhooks a moment after activation. */
export const postToWebhook = (
	url: string,
	init?: FetchInit,
	{ timeoutMs = REST_TIMEOUT_MS } = {},
) =>
	n8nFetch(
		url,
		{ method: 'POST', ...init },
		{ timeoutMs, retryOn: [503, 404], retryMs: Math.max(timeoutMs, 90_000) },
	);

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

const OWNER = { email: 'e2e@example.com', password: 'E2e-password-1' };

/** Creates the instance owner; resolves its cookie header. */
export async function setupOwner(url: string, account: OwnerAccount = {}) {
	const owner = { ...OWNER, firstName: 'E2E', lastName: 'Owner', ...account };
	const cookie = await authPost(url, '/rest/owner/setup', owner);
	if (!cookie) throw new Error('POST /rest/owner/setup: no auth cookie in the response');
	return { cookie, email: owner.email, password: owner.password };
}

export async function login(url: string, account: OwnerAccount = {}) {
	const { email, password } = { ...OWNER, ...account };
	const cookie = await authPost(url, '/rest/login', { emailOrLdapLoginId: email, password });
	return { cookie, email, password };
}

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

export const restGet = <T = unknown,>(url: string, pathAndQuery: string, cookie: string) =>
	rest<T>('GET', url, pathAndQuery, cookie);

export const restPost = <T = unknown,>(
	url: string,
	pathAndQuery: string,
	cookie: string,
	body?: unknown,
) => rest<T>('POST', url, pathAndQuery, cookie, body);

const getWorkflow = async (url: string, cookie: string, id: string) =>
	(await restGet<{ data: Workflow }>(url, `/rest/workflows/${id}`, cookie)).data;

/** POST /rest/workflows/<id>/<action>: its answer's `data`. */
const workflowAction = async <T,>(
	url: string,
	cookie: string,
	id: string,
	action: string,
	body = {},
) =>
	(await restPost<{ data?: T } | undefined>(url, `/rest/workflows/${id}/${action}`, cookie, body))
		?.data;

/** The editor's "Execute workflow" from its Manual Trigger; resolves the execution id. */
export async function runWorkflowAsEditor(
	url: string,
	cookie: string,
	id: string,
): Promise<string> {
	const wf = await getWorkflow(url, cookie, id);
	const trigger = wf.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	if (!trigger) throw new Error(`workflow ${id} has no Manual Trigger`);
	const run = await workflowAction<{ executionId?: string }>(url, cookie, id, 'run', {
		workflowData: wf,
		triggerToStartFrom: { name: trigger.name },
	});
	if (!run?.executionId)
		throw new Error(`POST /rest/workflows/${id}/run: no executionId in ${JSON.stringify(run)}`);
	return run.executionId;
}

/**
 * The editor's activate (2.x: publish) switch. 2.41 answers before the workflow is active: callers
 * wait for what they need (the activation poll in the sandbox's log, a webhook no longer 404).
 */
export async function activateWorkflowAsEditor(url: string, cookie: string, id: string) {
	const { versionId } = await getWorkflow(url, cookie, id);
	return (await workflowAction<Workflow>(url, cookie, id, 'activate', { versionId })) as Workflow;
}

export const deactivateWorkflowAsEditor = async (url: string, cookie: string, id: string) =>
	(await workflowAction<Workflow>(url, cookie, id, 'deactivate')) as Workflow;

const NOT_ENDED = ['new', 'running', 'waiting'];

/** n8n lists an execution from its start: it is read once it has ended (status and data written). */
export const hasEnded = (e: { status: string; finished?: boolean }): boolean =>
	e.finished === true || !NOT_ENDED.includes(e.status);

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

/** Newest first. */
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

/** One execution, its data unflattened. */
export async function getExecution(url: string, cookie: string, id: string): Promise<Execution> {
	const { data } = await restGet<{
		data: ExecutionSummary & { data: string | ExecutionData; workflowData?: Workflow };
	}>(url, `/rest/executions/${id}`, cookie);
	return {
		...data,
		data: typeof data.data === 'string' ? parseFlatted<ExecutionData>(data.data) : data.data,
	};
}

/** Polls until `predicate(list)` holds and (unless `ended: false`) every execution listed has ended. */
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

type TypeFileName = 'nodes' | 'credentials' | 'node-versions';
type TypeDescription = { name: string; displayName: string; [field: string]: unknown };

/** A type file n8n wrote at its start. */
export function readTypeFile<T = TypeDescription[]>(userFolder: string, name: TypeFileName): T {
	const file = path.join(userFolder, '.cache', 'n8n', 'public', 'types', `${name}.json`);
	return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** Waits until a type file matches `predicate` (written shortly after start). */
export async function waitForTypes<T = TypeDescription[]>(
	userFolder: string,
	name: TypeFileName,
	predicate: (types: T) => boolean,
	{ timeoutMs = 120_000 }: { timeoutMs?: number } = {},
): Promise<T> {
	let last: T | undefined;
	return pollUntil(
		() => {
			try {
				last = readTypeFile<T>(userFolder, name);
				return predicate(last) && last;
			} catch {
				return false; // not written yet
			}
		},
		() =>
			`types/${name}.json never matched (has ${Array.isArray(last) ? last.length : 'no'} entries)`,
		{ timeoutMs, everyMs: 250 },
	);
}

/** `require` from n8n's installation (its flatted, sqlite3 and pg). */
export const cacheRequire = createRequire(path.join(N8N_BIN, '..', '..', 'package.json'));

export function parseFlatted<T = unknown>(text: string): T {
	const flatted: { parse: (text: string) => T } = cacheRequire('flatted');
	return flatted.parse(text);
}

/** Read-only SQL on n8n's SQLite database (WAL: also while it runs), on the profile's Node. */
export async function queryDb<Row = Record<string, unknown>>(
	userFolder: string,
	sql: string,
	params: unknown[] = [],
): Promise<Row[]> {
	const script = `const s=require('sqlite3');const db=new s.Database(process.argv[1],s.OPEN_READONLY);
db.all(process.argv[2],JSON.parse(process.argv[3]),(e,r)=>{if(e){console.error(e.message);process.exit(1)}process.stdout.write(JSON.stringify(r));db.close()})`;
	const { stdout } = await runCommand(
		NODE_BIN,
		['-e', script, path.join(userFolder, '.n8n', 'database.sqlite'), sql, JSON.stringify(params)],
		{
			cwd: path.dirname(cacheRequire.resolve('sqlite3/package.json')),
			env: { ...process.env, NODE_PATH: path.join(N8N_BIN, '..', '..', '..') },
			timeoutMs: 120_000,
			label: `sqlite: ${sql}`,
		},
	);
	return JSON.parse(stdout) as Row[];
}

/**
 * Waits until n8n has saved the AirSign Trigger `triggerName`'s start with the sessions in flight
 * at it read, which its activation poll does: every engine saves the workflow's static data once
 * the activation (that poll included) is over, the start in the node's data or (the poll
 * scheduler) in the global data.
 */
export async function waitForSavedStart(
	userFolder: string,
	workflowId: string,
	triggerName: string,
	{ timeoutMs }: { timeoutMs: number },
): Promise<void> {
	let failedRead = ''; // a read that fails (SQLite busy) is tried again
	await pollUntil(
		async () => {
			const rows = await queryDb<{ staticData: string | null }>(
				userFolder,
				'select staticData from workflow_entity where id = ?',
				[workflowId],
			).catch((error: Error) => {
				failedRead = `; last read: ${error.message}`;
				return [];
			});
			const data = JSON.parse(rows[0]?.staticData ?? 'null') ?? {};
			const saved = [
				data[`node:${triggerName}`],
				data.global?.[`airSignTriggerStart:${triggerName}`],
			];
			return saved.some((state) => state?.cursor && !state.picture);
		},
		() =>
			`workflow ${workflowId}: no trigger start saved (its activation poll never ended)${failedRead}`,
		{ timeoutMs, everyMs: 1_000 },
	);
}
