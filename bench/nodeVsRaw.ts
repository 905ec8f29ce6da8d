import type { BenchContext, SectionResult } from './lib/context';
import { resetSandbox } from './lib/context';
import { listCase, nodeVsRaw, sendDrafts } from './lib/peer-cases';
import { fmtOf, log, rotate, table } from './lib/stats';

/** 1. Get Many with Return All over N sessions: requests per ⌈N/100⌉ (+1, the catch-up, over one page) and wall time vs a raw fetch loop. */
export async function benchList(ctx: BenchContext, sizes: number[]): Promise<SectionResult> {
	const rows: string[][] = [];
	for (const n of sizes) {
		resetSandbox(ctx);
		const list = await listCase(ctx, undefined, n);
		// Warm-up first: JIT, n8n's token fetch after the reset, connection set-up.
		const { node, raw } = await rotate(ctx.runs, { node: list.ours, raw: list.fetch }, true);
		const { nodeMs, rawMs, cells } = nodeVsRaw(node, raw);
		const perFloor = (m: { requests: number }) => m.requests / Math.ceil(n / 100);
		log(`list N=${n}: node ${fmtOf(nodeMs)} ms, raw ${fmtOf(rawMs)} ms`);
		const requests = [node, raw].map((runs) => fmtOf(runs.map(perFloor), 2));
		rows.push([n.toLocaleString('en-US'), ...requests, ...cells]);
	}
	return {
		title: '1. Get Many, Return All',
		markdown: table(
			'sessions N | requests / ⌈N/100⌉ (node; 1.00 up to 100, then pages of 99 new sessions and one catch-up more) | requests / ⌈N/100⌉ (raw) | node, whole workflow (ms) | node execute() (ms) | raw fetch loop (ms) | workflow / raw | execute / raw',
			rows,
		),
	};
}

/** 3. Send Session over many items: the node (one workflow, N items) vs a raw loop of POSTs. */
export async function benchSend(ctx: BenchContext, items: number): Promise<SectionResult> {
	resetSandbox(ctx);
	// Figures per item; the warm-up round sends at most 50.
	let count = Math.min(items, 50);
	const perItem = (client: 'nodeDefault' | 'fetch') => async () => {
		const { ms, executeMs, requests } = await sendDrafts(ctx, undefined, client, count);
		return { ms: ms / count, executeMs: executeMs / count, requests: requests / count };
	};
	const contestants = { node: perItem('nodeDefault'), raw: perItem('fetch') };
	for (const warm of Object.values(contestants)) await warm();
	count = items;
	const { node, raw } = await rotate(ctx.runs, contestants);
	const { nodeMs, rawMs, cells } = nodeVsRaw(node, raw, 3);
	const requests = node.map((m) => m.requests);
	log(`send ${items} items: node ${fmtOf(nodeMs, 3)} ms/item, raw ${fmtOf(rawMs, 3)} ms/item`);
	return {
		title: `3. Send Session, ${items.toLocaleString('en-US')} items`,
		markdown: table(
			'items | API requests per item (node) | node, whole workflow (ms/item) | node execute() (ms/item) | raw fetch loop (ms/item) | workflow / raw | execute / raw',
			[[items.toLocaleString('en-US'), fmtOf(requests, 2), ...cells]],
		),
	};
}
