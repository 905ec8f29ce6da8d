/** 3. Send Session over many items: the node (one workflow, N items) vs a raw loop of POSTs. */
import type { BenchContext, SectionResult } from './lib/context';
import { resetSandbox } from './lib/context';
import { nodeVsRaw, sendDrafts } from './lib/peer-cases';
import { fmtOf, log, rotate, table } from './lib/stats';

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
