// The stream's ground truth (every state a stream session took), what the trigger delivered (from
// PostgreSQL: the stream's executions, their trigger items, and which process ran each), and the
// waits on the trigger.
import type { SessionStatus } from '../../sandbox/types.ts';
import { pollUntil } from '../lib/checks.mts';
import { hasEnded, parseFlatted } from '../lib/n8n.mts';
import { ctx, log, secs, type SandboxRequest } from './cluster.mts';
import { MARKER, STREAM_WORKFLOW_ID, TRIGGER_NAME } from './workflows.mts';
/** Bounds one step's updates' arrival (a poll, a restart, a backlog read over two polls). */
const DELIVERY_TIMEOUT_MS = 5 * 60_000;

type SandboxSession = { sessionId: string; updatedAt: string; status: string };

/**
 * Every state a stream session took: the trigger must deliver each exactly once. A session changes
 * only once its state has been delivered (two changes between polls rightly arrive as one).
 */
export const expected = new Map<string, SandboxSession & { step: string }>(); // stateKey → state
export const latest = new Map<string, string>(); // sessionId → stateKey of its newest state

/** `count` changes made `parallel` at a time; each state they give is recorded for `stepName`. */
async function inBatches(
	stepName: string,
	count: number,
	parallel: number,
	change: (index: number) => Promise<SandboxSession>,
): Promise<SandboxSession[]> {
	const made: SandboxSession[] = [];
	for (let i = 0; i < count; i += parallel) {
		const size = Math.min(parallel, count - i);
		for (const { sessionId, updatedAt, status } of await Promise.all(
			Array.from({ length: size }, (_, j) => change(i + j)),
		)) {
			const key = stateKey(sessionId, updatedAt);
			expected.set(key, { sessionId, updatedAt, status, step: stepName });
			latest.set(sessionId, key);
			made.push({ sessionId, updatedAt, status });
		}
	}
	return made;
}

let sessionCounter = 0;
export const createSessions = (
	stepName: string,
	count: number,
	{ parallel = 1, status = 'inProgress' }: { parallel?: number; status?: SessionStatus } = {},
) =>
	inBatches(stepName, count, parallel, () => {
		const n = ++sessionCounter;
		return ctx.sandbox!.createSession({
			name: `${MARKER} ${stepName} #${String(n).padStart(3, '0')}`,
			status,
			recipients: [{ name: 'Sam Signer', email: `sam${n}@example.com` }],
		});
	});

/** Sessions whose newest state has been delivered, oldest first. */
function settledSessions(): string[] {
	const counts = deliveredCounts();
	return [...latest.entries()].filter(([, key]) => (counts.get(key) ?? 0) >= 1).map(([id]) => id);
}

export async function patchSessions(
	stepName: string,
	ids: string[],
	patchFor: (index: number) => Record<string, unknown>,
	{ parallel = 1 }: { parallel?: number } = {},
): Promise<SandboxSession[]> {
	const settled = new Set(settledSessions());
	for (const id of ids)
		if (!settled.has(id)) throw new Error(`stream bug: ${id} changed before its state arrived`);
	return inBatches(stepName, ids.length, parallel, (i) =>
		ctx.sandbox!.patchSession(ids[i], patchFor(i)),
	);
}

/** Picks `count` settled sessions, spread over the stream so far, not in `exclude`. */
export function pickSettled(count: number, exclude: Set<string> = new Set()): string[] {
	const pool = settledSessions().filter((id) => !exclude.has(id));
	if (pool.length < count) throw new Error(`only ${pool.length} settled sessions, need ${count}`);
	const stride = pool.length / count;
	return Array.from({ length: count }, (_, i) => pool[Math.floor(i * stride)]);
}

/** The trigger's List Sessions requests in the sandbox's log. */
export async function triggerRequests(): Promise<SandboxRequest[]> {
	return (await ctx.sandbox!.requests()).filter(
		(r) => r.method === 'GET' && r.path === '/api/v1/Sessions' && r.query?.name === MARKER,
	);
}

/** Waits until every state so far has arrived and every execution ended; returns `stepName`'s. */
export async function waitDelivered(stepName: string): Promise<Delivery[]> {
	const t0 = Date.now();
	let missing: string[] = [];
	let open: Delivery[] = [];
	await pollUntil(
		async () => {
			await refreshDeliveries();
			const counts = deliveredCounts();
			missing = [...expected.keys()].filter((k) => !counts.has(k));
			open = [...deliveries.values()].filter((d) => !hasEnded(d));
			return !missing.length && !open.length;
		},
		() =>
			`step ${stepName}: after ${DELIVERY_TIMEOUT_MS / 1000} s, ${missing.length} states never arrived (e.g. ${missing.slice(0, 3).join(', ')}) and ${open.length} executions not ended (${open.map((d) => `${d.id} ${d.status}`).join(', ')})`,
		{ timeoutMs: DELIVERY_TIMEOUT_MS, everyMs: 1_000 },
	);
	const carried = [...deliveries.values()].filter((d) =>
		(d.items ?? []).some(
			(i) => expected.get(stateKey(i.sessionId, i.updatedAt))?.step === stepName,
		),
	);
	log(
		`step ${stepName}: all ${[...expected.values()].filter((e) => e.step === stepName).length} states arrived in ${secs(Date.now() - t0)} s, in execution(s) ${carried.map((d) => `${d.id} (${d.items!.length} items, ${d.process})`).join(', ')}`,
	);
	return carried;
}

/** Whether more than a page of stream sessions is newer than `request`'s `updatedAfter`. */
export function morePagesFollow(request: SandboxRequest): boolean {
	const q = request.query ?? {};
	if (q.sortBy !== 'updatedAt' || q.sortOrder !== 'asc' || q.updatedBefore || !q.updatedAfter)
		return false;
	const after = Date.parse(q.updatedAfter);
	let newer = 0;
	for (const key of latest.values()) if (Date.parse(expected.get(key)!.updatedAt) > after) newer++;
	return newer > 100;
}

/** The first trigger request after `sinceMs` answered 200. */
export async function waitForAnsweredPoll(sinceMs: number, what: string): Promise<SandboxRequest> {
	return await pollUntil(
		async () => (await triggerRequests()).find((r) => r.atMs > sinceMs && r.status === 200),
		() => `${what}: not within 180 s`,
		{ timeoutMs: 3 * 60_000, everyMs: 100 },
	);
}

type DeliveredItem = { sessionId: string; updatedAt: string; status: string; name: string };
type TriggerItem = { json: DeliveredItem };

/** Where a stored execution keeps the trigger's items. */
interface StoredRun {
	resultData?: {
		metadata?: Record<string, string>;
		runData?: Record<string, { data?: { main?: (TriggerItem[] | null)[] } }[]>;
	};
	executionData?: {
		nodeExecutionStack?: { node?: { name: string }; data?: { main?: (TriggerItem[] | null)[] } }[];
	};
}

export interface Delivery {
	id: number;
	status: string;
	mode: string;
	createdAt: number;
	/** Who ran it (the Execution Data node's `process`), once it has ended. */
	process: string | undefined;
	items: DeliveredItem[] | undefined;
}

/**
 * The `process` the Execution Data node set, from the run data: n8n saves it with the end status in
 * one transaction, while its execution_metadata row is a later write whose failure n8n only logs.
 */
export const recordedProcess = (run: StoredRun | undefined): string | undefined =>
	run?.resultData?.metadata?.process;

/**
 * Every execution of the stream workflow (n8n's execution_entity and execution_data) with its
 * trigger items: first on the execution stack, then in the run data.
 */
export const deliveries = new Map<number, Delivery>(); // execution id → delivery
export async function refreshDeliveries(): Promise<void> {
	const rows = await ctx.pg!.query<{ id: string; mode: string; status: string; createdAt: Date }>(
		'select id, mode, status, "createdAt" from execution_entity where "workflowId" = $1 order by id',
		[STREAM_WORKFLOW_ID],
	);
	for (const row of rows) {
		const id = Number(row.id);
		const d = deliveries.get(id) ?? ({ id, items: undefined, process: undefined } as Delivery);
		d.status = row.status;
		d.mode = row.mode;
		d.createdAt = new Date(row.createdAt).getTime();
		const needsProcess = hasEnded(d) && d.process === undefined;
		if (d.items === undefined || needsProcess) {
			const [stored] = await ctx.pg!.query<{ data: string }>(
				'select data from execution_data where "executionId" = $1',
				[id],
			);
			const run = stored && parseFlatted<StoredRun>(stored.data);
			if (needsProcess) d.process = recordedProcess(run);
			const fromRun = run?.resultData?.runData?.[TRIGGER_NAME]?.[0]?.data?.main?.[0];
			const fromStack = run?.executionData?.nodeExecutionStack?.find(
				(e) => e.node?.name === TRIGGER_NAME,
			)?.data?.main?.[0];
			d.items ??= (fromRun ?? fromStack)?.map((item) => item.json);
		}
		deliveries.set(id, d);
	}
}

/** One state of a session: its id and the instant of its `updatedAt`. */
export const stateKey = (sessionId: string, updatedAt: string): string =>
	`${sessionId}@${Date.parse(updatedAt)}`;

/** How many times each state (stateKey) arrived. */
export function deliveredCounts(): Map<string, number> {
	const counts = new Map<string, number>();
	for (const d of deliveries.values())
		for (const item of d.items ?? []) {
			const key = stateKey(item.sessionId, item.updatedAt);
			counts.set(key, (counts.get(key) ?? 0) + 1);
		}
	return counts;
}
