/** 7. Many items: Send at 100 and 250 ms, AirSign node against HTTP Request; a burst limit. */
import { setTimeout as sleep } from 'node:timers/promises';

import type { BenchContext, SectionResult } from './lib/context';
import { withLatency } from './lib/context';
import { isN8nInstalled } from './lib/n8n-nodes-base';
import type { SendClient, SendOutcome } from './lib/peer-cases';
import { CAPPED_ITEMS_AT_ONCE, sendDrafts } from './lib/peer-cases';
import { peerEnvironment } from './lib/peer-workflows';
import { fmtOf, log, ratioOf, record, rotate, table } from './lib/stats';

export interface BulkSizes {
	latenciesMs: number[];
	items: number[];
	burst: { items: number; limit: number; windowSeconds: number; latencyMs: number };
}

export const BULK_SIZES: BulkSizes = {
	latenciesMs: [100, 250],
	items: [100, 1_000],
	burst: { items: 100, limit: 20, windowSeconds: 2, latencyMs: 100 },
};
export const BULK_SMOKE_SIZES: BulkSizes = {
	latenciesMs: [20],
	items: [30],
	burst: { items: 30, limit: 10, windowSeconds: 1, latencyMs: 20 },
};

const LABEL = {
	nodeDefault: 'AirSign node, defaults',
	nodeCapped: `AirSign node, Items at Once ${CAPPED_ITEMS_AT_ONCE}`,
	httpRequest: 'HTTP Request node',
};
type Client = keyof typeof LABEL & SendClient;

export async function benchBulk(
	ctx: BenchContext,
	sizes: BulkSizes,
	/** Case names: `1000@250` (items@latency), `burst`. */
	wantsCase: (name: string) => boolean,
): Promise<SectionResult> {
	const title = `7. Many items: Send at ${sizes.latenciesMs.join(' and ')} ms per request, and under a burst limit`;
	const peer = isN8nInstalled()
		? await peerEnvironment(ctx.engine, ctx.raw.token, ctx.sandbox.baseUrl)
		: undefined;
	const clients = (Object.keys(LABEL) as Client[]).filter((c) => c !== 'httpRequest' || peer);
	const sendAll = (client: Client, count: number) => () => sendDrafts(ctx, peer, client, count);
	const runs = ctx.smoke ? 1 : Math.min(ctx.runs, 3);
	const speedRows: string[][] = [];
	for (const latencyMs of sizes.latenciesMs)
		for (const count of sizes.items) {
			if (!wantsCase(`${count}@${latencyMs}`)) continue;
			await withLatency(ctx, latencyMs);
			const contestants = Object.fromEntries(clients.map((c) => [c, sendAll(c, count)]));
			const outcomes: Record<string, SendOutcome[]> = await rotate(runs, contestants);
			const ms = (client: Client) => (outcomes[client] ?? []).map((o) => o.ms);
			const all = Object.values(outcomes).flat();
			if (all.some((o) => o.failed > 0 || o.runFailed))
				throw new Error(`some Sends of ${count} failed`);
			const base = { operation: 'send', mode: 'plain', size: `${count}items`, latencyMs };
			for (const client of clients)
				record({ ...base, client, measure: 'ms', unit: 'ms' }, ms(client));
			const vsPeer = (client: Client) => (peer ? ratioOf(ms(client), ms('httpRequest')) : []);
			const ratio = { measure: 'ratio-to-httpRequest', unit: 'ratio' };
			if (peer)
				for (const client of ['nodeDefault', 'nodeCapped'] as const)
					record({ ...base, ...ratio, client }, vsPeer(client));
			speedRows.push([
				`${latencyMs} ms`,
				count.toLocaleString('en-US'),
				...(['nodeDefault', 'nodeCapped', 'httpRequest'] as const).map((c) => fmtOf(ms(c), 0)),
				...(['nodeDefault', 'nodeCapped'] as const).map((c) => fmtOf(vsPeer(c), 2)),
			]);
			const each = clients.map((c) => `${c} ${fmtOf(ms(c), 0)}`).join(', ');
			log(`bulk send ${count} at ${latencyMs} ms: ${each}`);
		}

	const { burst } = sizes;
	const burstRows: string[][] = [];
	if (wantsCase('burst')) {
		await withLatency(ctx, burst.latencyMs);
		ctx.sandbox.config.burstLimit = burst.limit;
		ctx.sandbox.config.burstWindowSeconds = burst.windowSeconds;
		for (const client of clients) {
			const outcomes: SendOutcome[] = [];
			for (let run = 0; run < runs; run++) {
				// A fresh window for every run: each client meets the same limit.
				await sleep(burst.windowSeconds * 1000 + 100);
				outcomes.push(await sendAll(client, burst.items)());
			}
			const base = { operation: 'send', mode: 'burst', size: `${burst.items}items` };
			const units = { sent: 'items', failed: 'items', requests: 'requests', ms: 'ms' } as const;
			const cells = Object.entries(units).map(([measure, unit]) => {
				const values = outcomes.map((o) => o[measure as keyof typeof units]);
				record({ ...base, latencyMs: burst.latencyMs, client, measure, unit }, values);
				return fmtOf(values, 0);
			});
			burstRows.push([
				LABEL[client],
				...cells,
				outcomes.some((o) => o.runFailed) ? 'the execution fails' : 'succeeds',
			]);
		}
		ctx.sandbox.config.burstLimit = 0;
		log('bulk send under a burst limit: done');
	}

	return {
		title,
		markdown: [
			`Send over many items, ms for the whole workflow (median (min–max) of ${runs} run${runs === 1 ? '' : 's'}, clients in rotating order). The HTTP Request node sends every item's request at once.`,
			'',
			table(
				`latency | items | ${LABEL.nodeDefault} | ${LABEL.nodeCapped} | ${LABEL.httpRequest} | defaults / HTTP Request | Items at Once ${CAPPED_ITEMS_AT_ONCE} / HTTP Request`,
				speedRows,
			),
			'',
			`Under a burst limit: the sandbox accepts ${burst.limit} requests per ${burst.windowSeconds} s, states that window in its rate-limit headers while it is the tighter one, and answers the rest 429 with Retry-After (its \`burstLimit\` option); ${burst.items} Sends at ${burst.latencyMs} ms. Sent and failed: sessions the run moved to "pending" and those it left as drafts. The HTTP Request node as a user adds it (Retry On Fail off, On Error: stop).`,
			'',
			table(
				['client', 'items sent', 'items failed', 'Send requests (429s included)', 'ms', 'run'],
				burstRows,
			),
		].join('\n'),
	};
}
