/** The peer and bulk contestants: the AirSign node, the HTTP Request workflow, fetch, axios. */
import type { HarnessInputItem } from '../../test/harness/binary';
import type { BenchContext } from './context';
import { countRequests, drafts, sessions } from './context';
import { binaryItem, runAirSign, runChain, triggerHarness } from './engine';
import type { PeerEnvironment } from './peer-workflows';
import { peerListAll, peerPoll, peerSend, peerUpload } from './peer-workflows';
import { fmtOf, ratioOf } from './stats';
import { axiosListAll, axiosSend, axiosUpload, rawListAll, rawSend, rawUpload } from './raw';

/** Raw fetch with this many Send requests in flight, measured in the same runs as the rest of Send. */
export const SEND_AT_ONCE = 5;
/** The AirSign node with Items at Once set (the default before issue 50), beside its defaults. */
export const CAPPED_ITEMS_AT_ONCE = 100;
/** Get Many with Return All, the AirSign node's parameters. */
export const RETURN_ALL = { resource: 'session', operation: 'getMany', returnAll: true };
/** Upload times move with V8's garbage collection: uploads get this many times the runs. */
export const UPLOAD_RUNS_FACTOR = 4;

export interface Measured {
	ms: number;
	requests: number;
	/** The AirSign node's own execute() (NaN for the others). */
	executeMs: number;
}
export type Contestant = 'ours' | 'peer' | 'fetch' | 'axios';
export type Case = Record<Contestant, () => Promise<Measured>> &
	Partial<Record<'oursAtOnce' | 'fetchAtOnce', () => Promise<Measured>>>;

/** Of a node-vs-raw rotation: the node's and the raw client's wall times, and the table's cells (workflow, execute(), raw, both ratios to raw). */
export function nodeVsRaw(node: Measured[], raw: Measured[], digits = 1) {
	const nodeMs = node.map((m) => m.ms);
	const execMs = node.map((m) => m.executeMs);
	const rawMs = raw.map((m) => m.ms);
	const times = [nodeMs, execMs, rawMs].map((ms) => fmtOf(ms, digits));
	const ratios = [nodeMs, execMs].map((ms) => fmtOf(ratioOf(ms, rawMs), 2));
	return { nodeMs, rawMs, cells: [...times, ...ratios] };
}

/** Times `work` (which may return the node's execute() time); requests: those the sandbox logged under `prefix`. */
async function measure(
	ctx: BenchContext,
	prefix: string,
	work: () => Promise<unknown>,
): Promise<Measured> {
	ctx.sandbox.clearRequests();
	const start = performance.now();
	const executeMs = await work();
	const ms = performance.now() - start;
	const requests = countRequests(ctx.sandbox, prefix);
	return { ms, requests, executeMs: typeof executeMs === 'number' ? executeMs : Number.NaN };
}

/** The AirSign node's items, checked by `check`; its execute() time. */
async function node(
	ctx: BenchContext,
	options: Parameters<typeof runAirSign>[1],
	check: (items: Array<{ json: Record<string, unknown> }>) => void,
): Promise<number> {
	const { items, executeMs } = await runAirSign(ctx.engine, options);
	check(items);
	return executeMs;
}

/** `n` new sessions read by Return All; `peer` unset: the node and the raw loops only. */
export async function listCase(
	ctx: BenchContext,
	peer: PeerEnvironment | undefined,
	n: number,
): Promise<Case> {
	sessions(ctx, n);
	const expect = (who: string) => (sessions: unknown[]) => {
		if (sessions.length !== n)
			throw new Error(`${who}: Return All gave ${sessions.length} of ${n} sessions`);
	};
	const run = (work: () => Promise<unknown>) => () => measure(ctx, '/api/v1/Sessions', work);
	return {
		ours: run(() => node(ctx, { parameters: RETURN_ALL }, expect('AirSign node'))),
		peer: run(async () =>
			expect('HTTP Request')(await runChain(ctx.engine.env, peerListAll(peer!).chain)),
		),
		fetch: run(async () => expect('fetch')(await rawListAll(ctx.raw))),
		axios: run(async () => expect('axios')(await axiosListAll(ctx.raw))),
	};
}

type RawSender = 'fetch' | 'axios' | 'fetchAtOnce';
export type SendClient = 'nodeDefault' | 'nodeCapped' | 'httpRequest' | RawSender;

export interface SendOutcome extends Measured {
	/** Sessions the run moved to "pending", and those it left as drafts. */
	sent: number;
	failed: number;
	/** The HTTP Request workflow stopped on an error (as a user's does, On Error: stop). */
	runFailed: boolean;
}

/** `count` new drafts sent by `client`, timed; the node must give one item per input, in order. */
export async function sendDrafts(
	ctx: BenchContext,
	peer: PeerEnvironment | undefined,
	client: SendClient,
	count: number,
): Promise<SendOutcome> {
	const ids = drafts(ctx, count);
	const input: HarnessInputItem[] = ids.map((sessionId) => ({ json: { sessionId } }));
	let runFailed = false;
	/** Raw: every draft sent, `atOnce` in flight. */
	const each =
		(send: typeof rawSend, atOnce = 1) =>
		async () => {
			let next = 0;
			const worker = async () => {
				while (next < ids.length) await send(ctx.raw, ids[next++]);
			};
			await Promise.all(Array.from({ length: atOnce }, worker));
		};
	const work: Record<SendClient, () => Promise<unknown>> = {
		nodeDefault: () => nodeSends(),
		nodeCapped: () => nodeSends(CAPPED_ITEMS_AT_ONCE),
		httpRequest: async () => {
			const items = await runChain(ctx.engine.env, peerSend(peer!).chain, input).catch(() => {});
			if (items) inOrder(items);
			else runFailed = true;
		},
		fetch: each(rawSend),
		axios: each(axiosSend),
		fetchAtOnce: each(rawSend, SEND_AT_ONCE),
	};
	function inOrder(items: Array<{ json: Record<string, unknown> }>) {
		if (items.length !== ids.length || items.some((item, i) => item.json.sessionId !== ids[i]))
			throw new Error(`${client}: Send did not give one item per input, in order`);
	}
	async function nodeSends(itemsAtOnce?: number) {
		const options = itemsAtOnce === undefined ? {} : { itemsAtOnce };
		const parameters = {
			resource: 'session',
			operation: 'send',
			sessionId: '={{ $json.sessionId }}',
			options,
		};
		return await node(ctx, { parameters, input }, inOrder);
	}
	const measured = await measure(ctx, '/api/v1/Session/', work[client]);
	const sent = ids.filter((id) => ctx.sandbox.getSession(id)?.status === 'pending').length;
	return { ...measured, sent, failed: count - sent, runFailed };
}

export function sendCase(ctx: BenchContext, peer: PeerEnvironment, items: number): Case {
	const send = (client: SendClient) => async () => {
		const outcome = await sendDrafts(ctx, peer, client, items);
		if (outcome.failed > 0 || outcome.runFailed)
			throw new Error(`${client}: ${outcome.failed} of ${items} Sends failed`);
		return outcome;
	};
	return {
		ours: send('nodeDefault'),
		oursAtOnce: send('nodeCapped'),
		peer: send('httpRequest'),
		fetch: send('fetch'),
		axios: send('axios'),
		fetchAtOnce: send('fetchAtOnce'),
	};
}

/** One upload of the file `read` gives; `peer` unset: the node and the raw clients only. */
export function uploadCase(
	ctx: BenchContext,
	peer: PeerEnvironment | undefined,
	read: () => Buffer,
): Case {
	const item = (bytes: Buffer) =>
		binaryItem(bytes, { fileName: 'bench.pdf', mimeType: 'application/pdf' });
	const parameters = { resource: 'file', operation: 'upload', binaryPropertyName: 'data' };
	const stored = (who: string, bytes: Buffer, sizeBytes: unknown) => {
		// The sandbox keeps uploaded files: drop them as they come.
		ctx.sandbox.files.clear();
		if (sizeBytes !== bytes.length)
			throw new Error(`${who}: the upload stored ${String(sizeBytes)} bytes`);
	};
	const run = (work: (bytes: Buffer) => Promise<unknown>) => () =>
		measure(ctx, '/api/v1/File', () => work(read()));
	return {
		ours: run((bytes) =>
			node(ctx, { parameters, input: [item(bytes)] }, (items) =>
				stored('AirSign node', bytes, items[0]?.json.sizeBytes),
			),
		),
		peer: run(async (bytes) => {
			const items = await runChain(ctx.engine.env, peerUpload(peer!).chain, [item(bytes)]);
			stored('HTTP Request', bytes, items[0]?.json.sizeBytes);
		}),
		fetch: run(async (bytes) =>
			stored('node:http', bytes, (await rawUpload(ctx.raw, 'bench.pdf', bytes)).sizeBytes),
		),
		axios: run(async (bytes) =>
			stored('axios', bytes, (await axiosUpload(ctx.raw, 'bench.pdf', bytes)).sizeBytes),
		),
	};
}

/** A poll with nothing new after the trigger's activation; raw: the same query from now on. */
export async function idlePollCase(
	ctx: BenchContext,
	peer: PeerEnvironment | undefined,
): Promise<Case> {
	const harness = triggerHarness(ctx.engine);
	// Activation: the first poll only places the cursor (and n8n fetches its token).
	const activation = await harness.poll();
	if (activation.error) throw activation.error;
	const since = new Date().toISOString();
	const query = { updatedAfter: since, sortBy: 'updatedAt', sortOrder: 'asc' };
	const run = (work: () => Promise<unknown>) => () => measure(ctx, '/api/v1/Sessions', work);
	return {
		ours: run(async () => {
			const { items, error } = await harness.poll();
			if (error || items.length) throw new Error('an idle poll failed or delivered items');
		}),
		peer: run(() => runChain(ctx.engine.env, peerPoll(peer!, since).chain)),
		fetch: run(() => rawListAll(ctx.raw, query)),
		axios: run(() => axiosListAll(ctx.raw, query)),
	};
}
