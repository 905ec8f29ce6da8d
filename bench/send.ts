/** 3. Send Session over many items: the node (one workflow, N items) vs a raw loop of POSTs. */
import type { BenchContext, SectionResult } from './lib/context';
import { countRequests, resetSandbox } from './lib/context';
import { runAirSign } from './lib/engine';
import { rawSend } from './lib/raw';
import { fmt, log, ratioOf, summarize, table, timed, inAlternatingOrder } from './lib/stats';

function drafts(ctx: BenchContext, count: number): string[] {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		ids.push(
			ctx.sandbox.createSession({
				name: `Bench send ${i}`,
				recipients: [{ name: `Signer ${i}`, email: `signer${i}@example.com` }],
			}).sessionId,
		);
	}
	return ids;
}

export async function benchSend(ctx: BenchContext, items: number): Promise<SectionResult> {
	resetSandbox(ctx);
	const parameters = {
		resource: 'session',
		operation: 'send',
		sessionId: '={{ $json.sessionId }}',
	};
	const node = async (ids: string[]) => {
		const result = await runAirSign(ctx.engine, {
			parameters,
			input: ids.map((sessionId) => ({ json: { sessionId } })),
		});
		if (result.items.length !== ids.length)
			throw new Error(`Send gave ${result.items.length} items`);
		return result;
	};
	const raw = async (ids: string[]) => {
		for (const id of ids) await rawSend(ctx.raw, id);
	};
	await node(drafts(ctx, Math.min(items, 50)));
	await raw(drafts(ctx, Math.min(items, 50)));

	const nodeMs: number[] = [];
	const execMs: number[] = [];
	const rawMs: number[] = [];
	const nodeRequests: number[] = [];
	for (let run = 0; run < ctx.runs; run++) {
		const measureNode = async () => {
			const ids = drafts(ctx, items);
			ctx.sandbox.clearRequests();
			const { ms, value } = await timed(() => node(ids));
			nodeMs.push(ms / items);
			execMs.push(value.executeMs / items);
			nodeRequests.push(countRequests(ctx.sandbox, '/api/v1/') / items);
		};
		const measureRaw = async () => {
			const ids = drafts(ctx, items);
			const { ms } = await timed(() => raw(ids));
			rawMs.push(ms / items);
		};
		await inAlternatingOrder(run, measureNode, measureRaw);
	}
	log(
		`send ${items} items: node ${fmt(summarize(nodeMs), 3)} ms/item, raw ${fmt(summarize(rawMs), 3)} ms/item`,
	);
	return {
		title: `3. Send Session, ${items.toLocaleString('en-US')} items`,
		markdown: table(
			[
				'items',
				'API requests per item (node)',
				'node, whole workflow (ms/item)',
				'node execute() (ms/item)',
				'raw fetch loop (ms/item)',
				'workflow / raw',
				'execute / raw',
			],
			[
				[
					items.toLocaleString('en-US'),
					fmt(summarize(nodeRequests), 2),
					fmt(summarize(nodeMs), 3),
					fmt(summarize(execMs), 3),
					fmt(summarize(rawMs), 3),
					fmt(summarize(ratioOf(nodeMs, rawMs)), 2),
					fmt(summarize(ratioOf(execMs, rawMs)), 2),
				],
			],
		),
	};
}
