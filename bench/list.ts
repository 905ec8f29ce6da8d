/** 1. Get Many with Return All over N sessions: requests per ⌈N/100⌉ (+1, the catch-up, over one page) and wall time vs a raw fetch loop. */
import type { BenchContext, SectionResult } from './lib/context';
import { countRequests, resetSandbox } from './lib/context';
import { runAirSign } from './lib/engine';
import { rawListAll } from './lib/raw';
import { fmt, log, ratioOf, summarize, table, timed, inAlternatingOrder } from './lib/stats';

const SESSIONS_PATH = '/api/v1/Sessions';

export async function benchList(ctx: BenchContext, sizes: number[]): Promise<SectionResult> {
	const rows: string[][] = [];
	for (const n of sizes) {
		resetSandbox(ctx);
		const base = Date.parse('2025-01-01T00:00:00.000Z');
		for (let i = 0; i < n; i++) {
			ctx.sandbox.createSession({ name: `Bench contract ${i}`, createdAt: base + i * 1000 });
		}
		const parameters = { resource: 'session', operation: 'getMany', returnAll: true };
		const node = () => runAirSign(ctx.engine, { parameters });
		// Warm-up: JIT, n8n's token fetch after the reset, connection set-up.
		await node();
		await rawListAll(ctx.raw);

		const nodeMs: number[] = [];
		const execMs: number[] = [];
		const rawMs: number[] = [];
		const requestRatio: number[] = [];
		const rawRequestRatio: number[] = [];
		const floor = Math.ceil(n / 100);
		for (let run = 0; run < ctx.runs; run++) {
			const measureNode = async () => {
				ctx.sandbox.clearRequests();
				const { ms, value } = await timed(node);
				if (value.items.length !== n)
					throw new Error(`Return All gave ${value.items.length} items, not ${n}`);
				nodeMs.push(ms);
				execMs.push(value.executeMs);
				requestRatio.push(countRequests(ctx.sandbox, SESSIONS_PATH) / floor);
			};
			const measureRaw = async () => {
				ctx.sandbox.clearRequests();
				const { ms, value } = await timed(() => rawListAll(ctx.raw));
				if (value.length !== n) throw new Error(`raw loop gave ${value.length} sessions, not ${n}`);
				rawMs.push(ms);
				rawRequestRatio.push(countRequests(ctx.sandbox, SESSIONS_PATH) / floor);
			};
			await inAlternatingOrder(run, measureNode, measureRaw);
		}
		log(`list N=${n}: node ${fmt(summarize(nodeMs))} ms, raw ${fmt(summarize(rawMs))} ms`);
		rows.push([
			n.toLocaleString('en-US'),
			fmt(summarize(requestRatio), 2),
			fmt(summarize(rawRequestRatio), 2),
			fmt(summarize(nodeMs)),
			fmt(summarize(execMs)),
			fmt(summarize(rawMs)),
			fmt(summarize(ratioOf(nodeMs, rawMs)), 2),
			fmt(summarize(ratioOf(execMs, rawMs)), 2),
		]);
	}
	return {
		title: '1. Get Many, Return All',
		markdown: table(
			[
				'sessions N',
				'requests / ⌈N/100⌉ (node; 1.00 up to 100, then pages of 99 new sessions and one catch-up more)',
				'requests / ⌈N/100⌉ (raw)',
				'node, whole workflow (ms)',
				'node execute() (ms)',
				'raw fetch loop (ms)',
				'workflow / raw',
				'execute / raw',
			],
			rows,
		),
	};
}
