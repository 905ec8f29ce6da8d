// The stream's ground truth (every state a stream session took) and the waits on the trigger.
import type { SessionStatus } from '../../sandbox/types.ts';
import { hasEnded } from '../lib/n8n.mts';
import { pollUntil } from '../lib/checks.mts';
import { ctx, type SandboxRequest } from './cluster.mts';
import {
	deliveredCounts,
	deliveries,
	refreshDeliveries,
	stateKey,
	type Delivery,
} from './deliveries.mts';
import { log, secs } from './report.mts';
import { MARKER } from './workflows.mts';

/** Bounds one step's updates' arrival (a poll, a restart, a backlog read over two polls). */
const DELIVERY_TIMEOUT_MS = 5 * 60_000;

type SandboxSession = { sessionId: string; updatedAt: string; status: string };

/**
 * Every state a stream session took: the trigger must deliver each exactly once. A session changes
 * only once its state has been delivered (two changes between polls rightly arrive as one).
 */
export const expected = new Map<string, SandboxSession & { step: string }>(); // stateKey → state
export const latest = new Map<string, string>(); // sessionId → stateKey of its newest state
function recordState(session: SandboxSession, stepName: string): string {
	const key = stateKey(session.sessionId, session.updatedAt);
	const { sessionId, updatedAt, status } = session;
	expected.set(key, { sessionId, updatedAt, status, step: stepName });
	latest.set(session.sessionId, key);
	return key;
}

let sessionCounter = 0;
export async function createSessions(
	stepName: string,
	count: number,
	{ parallel = 1, status = 'inProgress' }: { parallel?: number; status?: SessionStatus } = {},
): Promise<SandboxSession[]> {
	const made: SandboxSession[] = [];
	for (let i = 0; i < count; i += parallel) {
		const batch = await Promise.all(
			Array.from({ length: Math.min(parallel, count - i) }, () => {
				sessionCounter++;
				return ctx.sandbox!.createSession({
					name: `${MARKER} ${stepName} #${String(sessionCounter).padStart(3, '0')}`,
					status,
					recipients: [{ name: 'Sam Signer', email: `sam${sessionCounter}@example.com` }],
				});
			}),
		);
		for (const s of batch) {
			recordState(s, stepName);
			made.push(s);
		}
	}
	return made;
}

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
	const out: SandboxSession[] = [];
	for (let i = 0; i < ids.length; i += parallel) {
		const batch = await Promise.all(
			ids.slice(i, i + parallel).map((id, j) => ctx.sandbox!.patchSession(id, patchFor(i + j))),
		);
		for (const s of batch) {
			recordState(s, stepName);
			out.push(s);
		}
	}
	return out;
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

/** pollUntil, failing with `what`. */
export const waitFor = <T,>(
	what: string,
	predicate: () => T | Promise<T>,
	{ timeoutMs, intervalMs = 250 }: { timeoutMs: number; intervalMs?: number },
) =>
	pollUntil(predicate, () => `${what}: not within ${timeoutMs / 1000} s`, {
		timeoutMs,
		everyMs: intervalMs,
	});

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
	return await waitFor(
		what,
		async () => (await triggerRequests()).find((r) => r.atMs > sinceMs && r.status === 200),
		{ timeoutMs: 3 * 60_000, intervalMs: 100 },
	);
}
