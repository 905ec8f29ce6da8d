/** 1. Get Many with Return All over N sessions: requests per ⌈N/100⌉ (+1, the catch-up, over one page) and wall time vs a raw fetch loop. */
import type { BenchContext, SectionResult } from './lib/context';
import { resetSandbox } from './lib/context';
import { listCase, nodeVsRaw } from './lib/peer-cases';
import { fmtOf, log, rotate, table } from './lib/stats';

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
