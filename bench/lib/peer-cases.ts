/**
 * The contestants of the peer section (bench/peer.ts), case by case: the AirSign node, the HTTP
 * Request workflow users would build instead, and raw loops with fetch and with axios.
 */
import type { BenchContext } from './context';
import { countRequests } from './context';
import { binaryItem, runAirSign, triggerHarness } from './engine';
import type { PeerEnvironment } from './peer-env';
import { peerListAll, peerPoll, peerSend, peerUpload } from './peer-workflows';
import { rawListAll, rawSend, rawUpload } from './raw';
import { axiosListAll, axiosSend, axiosUpload } from './raw-axios';
import { runChain } from './workflow';

export type Contestant = 'ours' | 'peer' | 'fetch' | 'axios';
/** Raw fetch with this many Send requests in flight, measured in the same runs as the rest of Send. */
export const SEND_AT_ONCE = 5;
/** The AirSign node with Items at Once set (the default before issue 50), beside its defaults. */
export const CAPPED_ITEMS_AT_ONCE = 100;

export interface Measured {
	ms: number;
	requests: number;
}
export type Case = Record<Contestant, () => Promise<Measured>> & {
	oursAtOnce?: () => Promise<Measured>;
	fetchAtOnce?: () => Promise<Measured>;
};
export type Results = Record<Contestant, Measured[]> & {
	oursAtOnce?: Measured[];
	fetchAtOnce?: Measured[];
};

/** Times `work`; requests are those the sandbox logged under `prefix` meanwhile. */
async function measure(
	ctx: BenchContext,
	prefix: string,
	work: () => Promise<void>,
): Promise<Measured> {
	ctx.sandbox.clearRequests();
	const start = performance.now();
	await work();
	const ms = performance.now() - start;
	return { ms, requests: countRequests(ctx.sandbox, prefix) };
}

function drafts(ctx: BenchContext, count: number): string[] {
	return Array.from(
		{ length: count },
		(_, i) =>
			ctx.sandbox.createSession({
				name: `Bench peer send ${i}`,
				recipients: [{ name: `Signer ${i}`, email: `signer${i}@example.com` }],
			}).sessionId,
	);
}

function expectSent(
	who: string,
	items: Array<{ json: Record<string, unknown> }>,
	ids: string[],
): void {
	const inOrder =
		items.length === ids.length && items.every((item, i) => item.json.sessionId === ids[i]);
	if (!inOrder) throw new Error(`${who}: Send did not give one item per input, in order`);
}

export async function listCase(ctx: BenchContext, peer: PeerEnvironment, n: number): Promise<Case> {
	const base = Date.parse('2025-01-01T00:00:00.000Z');
	for (let i = 0; i < n; i++)
		ctx.sandbox.createSession({ name: `Bench peer ${i}`, createdAt: base + i * 1000 });
	const workflow = peerListAll(peer.base, peer.credential, ctx.sandbox.baseUrl);
	const expect = (who: string, count: number) => {
		if (count !== n) throw new Error(`${who}: Return All gave ${count} of ${n} sessions`);
	};
	const prefix = '/api/v1/Sessions';
	return {
		ours: () =>
			measure(ctx, prefix, async () => {
				const result = await runAirSign(ctx.engine, {
					parameters: { resource: 'session', operation: 'getMany', returnAll: true },
				});
				expect('AirSign node', result.items.length);
			}),
		peer: () =>
			measure(ctx, prefix, async () =>
				expect('HTTP Request', (await runChain(ctx.engine.env, workflow.chain)).items.length),
			),
		fetch: () =>
			measure(ctx, prefix, async () => expect('fetch', (await rawListAll(ctx.raw)).length)),
		axios: () =>
			measure(ctx, prefix, async () => expect('axios', (await axiosListAll(ctx.raw)).length)),
	};
}

export function sendCase(ctx: BenchContext, peer: PeerEnvironment, items: number): Case {
	const workflow = peerSend(peer.base, peer.credential, ctx.sandbox.baseUrl);
	const prefix = '/api/v1/Session/';
	const input = (ids: string[]) => ids.map((sessionId) => ({ json: { sessionId } }));
	/** The AirSign node sending every draft, with "Items at Once" at `itemsAtOnce` (else its default). */
	const nodeSends = async (itemsAtOnce?: number) => {
		const ids = drafts(ctx, items);
		return await measure(ctx, prefix, async () => {
			const result = await runAirSign(ctx.engine, {
				parameters: {
					resource: 'session',
					operation: 'send',
					sessionId: '={{ $json.sessionId }}',
					options: itemsAtOnce === undefined ? {} : { itemsAtOnce },
				},
				input: input(ids),
			});
			expectSent(`AirSign node, Items at Once ${itemsAtOnce ?? 'default'}`, result.items, ids);
		});
	};
	return {
		ours: async () => await nodeSends(),
		oursAtOnce: async () => await nodeSends(CAPPED_ITEMS_AT_ONCE),
		peer: async () => {
			const ids = drafts(ctx, items);
			return await measure(ctx, prefix, async () =>
				expectSent(
					'HTTP Request',
					(await runChain(ctx.engine.env, workflow.chain, input(ids))).items,
					ids,
				),
			);
		},
		fetch: async () => {
			const ids = drafts(ctx, items);
			return await measure(ctx, prefix, async () => {
				for (const id of ids) await rawSend(ctx.raw, id);
			});
		},
		axios: async () => {
			const ids = drafts(ctx, items);
			return await measure(ctx, prefix, async () => {
				for (const id of ids) await axiosSend(ctx.raw, id);
			});
		},
		fetchAtOnce: async () => {
			const ids = drafts(ctx, items);
			return await measure(ctx, prefix, async () => {
				let next = 0;
				const worker = async () => {
					while (next < ids.length) await rawSend(ctx.raw, ids[next++]);
				};
				await Promise.all(Array.from({ length: SEND_AT_ONCE }, worker));
			});
		},
	};
}

export function uploadCase(ctx: BenchContext, peer: PeerEnvironment, bytes: Buffer): Case {
	const workflow = peerUpload(peer.base, peer.credential, ctx.sandbox.baseUrl);
	const prefix = '/api/v1/File';
	const item = () => binaryItem(bytes, { fileName: 'bench.pdf', mimeType: 'application/pdf' });
	const expect = (who: string, sizeBytes: unknown) => {
		// The sandbox keeps uploaded files: drop them as they come.
		ctx.sandbox.files.clear();
		if (sizeBytes !== bytes.length)
			throw new Error(`${who}: the upload stored ${String(sizeBytes)} bytes`);
	};
	return {
		ours: () =>
			measure(ctx, prefix, async () => {
				const result = await runAirSign(ctx.engine, {
					parameters: { resource: 'file', operation: 'upload', binaryPropertyName: 'data' },
					input: [item()],
				});
				expect('AirSign node', result.items[0]?.json.sizeBytes);
			}),
		peer: () =>
			measure(ctx, prefix, async () =>
				expect(
					'HTTP Request',
					(await runChain(ctx.engine.env, workflow.chain, [item()])).items[0]?.json.sizeBytes,
				),
			),
		fetch: () =>
			measure(ctx, prefix, async () =>
				expect('node:http', (await rawUpload(ctx.raw, 'bench.pdf', bytes)).sizeBytes),
			),
		axios: () =>
			measure(ctx, prefix, async () =>
				expect('axios', (await axiosUpload(ctx.raw, 'bench.pdf', bytes)).sizeBytes),
			),
	};
}

export async function idlePollCase(ctx: BenchContext, peer: PeerEnvironment): Promise<Case> {
	const harness = triggerHarness(ctx.engine);
	await harness.poll(); // activation: places the cursor
	const since = new Date(Date.now() - 60_000).toISOString();
	const query = { updatedAfter: since, sortBy: 'updatedAt', sortOrder: 'asc' };
	const workflow = peerPoll(peer.base, peer.credential, ctx.sandbox.baseUrl, since);
	const prefix = '/api/v1/Sessions';
	return {
		ours: () =>
			measure(ctx, prefix, async () => {
				const { items, error } = await harness.poll();
				if (error || items.length) throw new Error('an idle poll failed or delivered items');
			}),
		peer: () =>
			measure(ctx, prefix, async () => void (await runChain(ctx.engine.env, workflow.chain))),
		fetch: () => measure(ctx, prefix, async () => void (await rawListAll(ctx.raw, query))),
		axios: () => measure(ctx, prefix, async () => void (await axiosListAll(ctx.raw, query))),
	};
}
