/**
 * 7. Many items: Send over 100 and 1,000 items at 100 and 250 ms per request, the AirSign node
 * with its defaults (Items at Once unset) and at Items at Once 100 (the default before issue 50), against
 * n8n's HTTP Request node (every item's request at once); then the same under a burst limit
 * (the sandbox's burstLimit: a small budget per few seconds, 429 with Retry-After), counting
 * the items each client sent and failed.
 */
import type { BenchContext, SectionResult } from './lib/context';
import { countRequests, resetSandbox } from './lib/context';
import { runAirSign } from './lib/engine';
import { isN8nInstalled } from './lib/n8n-nodes-base';
import { peerEnvironment } from './lib/peer-env';
import { peerSend } from './lib/peer-workflows';
import { record } from './lib/results';
import { fmt, log, ratioOf, summarize, table } from './lib/stats';
import { runChain } from './lib/workflow';
import { CAPPED_ITEMS_AT_ONCE } from './lib/peer-cases';

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

type Client = 'nodeDefault' | 'nodeCapped' | 'httpRequest';
const CLIENTS: Client[] = ['nodeDefault', 'nodeCapped', 'httpRequest'];
const LABEL: Record<Client, string> = {
	nodeDefault: 'AirSign node, defaults',
	nodeCapped: `AirSign node, Items at Once ${CAPPED_ITEMS_AT_ONCE}`,
	httpRequest: 'HTTP Request node',
};

function drafts(ctx: BenchContext, count: number): string[] {
	return Array.from(
		{ length: count },
		(_, i) =>
			ctx.sandbox.createSession({
				name: `Bench bulk ${i}`,
				recipients: [{ name: `Signer ${i}`, email: `signer${i}@example.com` }],
			}).sessionId,
	);
}

interface Outcome {
	ms: number;
	sent: number;
	failed: number;
	requests: number;
	runFailed: boolean;
}

export async function benchBulk(ctx: BenchContext, sizes: BulkSizes): Promise<SectionResult> {
	const title = `7. Many items: Send at ${sizes.latenciesMs.join(' and ')} ms per request, and under a burst limit`;
	const peer = isN8nInstalled() ? await peerEnvironment(ctx.engine, ctx.raw.token) : undefined;
	const clients = CLIENTS.filter((c) => c !== 'httpRequest' || peer);
	const workflow = peer && peerSend(peer.base, peer.credential, ctx.sandbox.baseUrl);

	const sendAll = async (client: Client, count: number): Promise<Outcome> => {
		const ids = drafts(ctx, count);
		const input = ids.map((sessionId) => ({ json: { sessionId } }));
		ctx.sandbox.clearRequests();
		const start = performance.now();
		let runFailed = false;
		if (client === 'httpRequest') {
			try {
				await runChain(ctx.engine.env, workflow!.chain, input);
			} catch {
				runFailed = true;
			}
		} else {
			const result = await runAirSign(ctx.engine, {
				parameters: {
					resource: 'session',
					operation: 'send',
					sessionId: '={{ $json.sessionId }}',
					...(client === 'nodeCapped' && { options: { itemsAtOnce: CAPPED_ITEMS_AT_ONCE } }),
				},
				input,
			});
			runFailed = result.error !== undefined;
			if (!runFailed && !result.items.every((item, i) => item.json.sessionId === ids[i]))
				throw new Error(`${client}: Send did not give one item per input, in order`);
		}
		const ms = performance.now() - start;
		const sent = ids.filter((id) => ctx.sandbox.getSession(id)?.status === 'pending').length;
		return {
			ms,
			sent,
			failed: count - sent,
			requests: countRequests(ctx.sandbox, '/api/v1/Session/'),
			runFailed,
		};
	};

	const runs = ctx.smoke ? 1 : Math.min(ctx.runs, 3);
	const speedRows: string[][] = [];
	for (const latencyMs of sizes.latenciesMs) {
		for (const count of sizes.items) {
			resetSandbox(ctx);
			ctx.sandbox.injectFault({
				kind: 'latency',
				delayMs: latencyMs,
				count: Number.MAX_SAFE_INTEGER,
			});
			// n8n's token, fetched once before the measured runs.
			await runAirSign(ctx.engine, {
				parameters: { resource: 'session', operation: 'getMany', returnAll: false, limit: 1 },
			});
			const ms: Record<Client, number[]> = { nodeDefault: [], nodeCapped: [], httpRequest: [] };
			for (let run = 0; run < runs; run++) {
				for (let i = 0; i < clients.length; i++) {
					const client = clients[(run + i) % clients.length];
					const outcome = await sendAll(client, count);
					if (outcome.failed > 0 || outcome.runFailed)
						throw new Error(`${client}: ${outcome.failed} of ${count} Sends failed`);
					ms[client].push(outcome.ms);
				}
			}
			for (const client of clients) {
				record(
					{
						operation: 'send',
						mode: 'plain',
						size: `${count}items`,
						latencyMs,
						client,
						measure: 'ms',
						unit: 'ms',
					},
					summarize(ms[client]),
				);
			}
			const peerMs = ms.httpRequest;
			const vsPeer = (client: Client) =>
				peerMs.length ? fmt(summarize(ratioOf(ms[client], peerMs)), 2) : 'n/a';
			for (const client of ['nodeDefault', 'nodeCapped'] as Client[]) {
				if (peerMs.length)
					record(
						{
							operation: 'send',
							mode: 'plain',
							size: `${count}items`,
							latencyMs,
							client,
							measure: 'ratio-to-httpRequest',
							unit: 'ratio',
						},
						summarize(ratioOf(ms[client], peerMs)),
					);
			}
			speedRows.push([
				`${latencyMs} ms`,
				count.toLocaleString('en-US'),
				fmt(summarize(ms.nodeDefault), 0),
				fmt(summarize(ms.nodeCapped), 0),
				peerMs.length ? fmt(summarize(peerMs), 0) : 'n/a',
				vsPeer('nodeDefault'),
				vsPeer('nodeCapped'),
			]);
			log(
				`bulk send ${count} at ${latencyMs} ms: ${clients.map((c) => `${c} ${fmt(summarize(ms[c]), 0)}`).join(', ')}`,
			);
		}
	}

	const { burst } = sizes;
	resetSandbox(ctx);
	ctx.sandbox.injectFault({
		kind: 'latency',
		delayMs: burst.latencyMs,
		count: Number.MAX_SAFE_INTEGER,
	});
	await runAirSign(ctx.engine, {
		parameters: { resource: 'session', operation: 'getMany', returnAll: false, limit: 1 },
	});
	ctx.sandbox.config.burstLimit = burst.limit;
	ctx.sandbox.config.burstWindowSeconds = burst.windowSeconds;
	const burstRows: string[][] = [];
	for (const client of clients) {
		const outcomes: Outcome[] = [];
		for (let run = 0; run < runs; run++) {
			// A fresh window for every run: each client meets the same limit.
			await new Promise((resolve) => setTimeout(resolve, burst.windowSeconds * 1000 + 100));
			outcomes.push(await sendAll(client, burst.items));
		}
		const of = (pick: (o: Outcome) => number) => summarize(outcomes.map(pick));
		const parts = {
			operation: 'send',
			mode: 'burst',
			size: `${burst.items}items`,
			latencyMs: burst.latencyMs,
			client,
		};
		record(
			{ ...parts, measure: 'ms', unit: 'ms' },
			of((o) => o.ms),
		);
		record(
			{ ...parts, measure: 'sent', unit: 'items' },
			of((o) => o.sent),
		);
		record(
			{ ...parts, measure: 'failed', unit: 'items' },
			of((o) => o.failed),
		);
		record(
			{ ...parts, measure: 'requests', unit: 'requests' },
			of((o) => o.requests),
		);
		burstRows.push([
			LABEL[client],
			fmt(
				of((o) => o.sent),
				0,
			),
			fmt(
				of((o) => o.failed),
				0,
			),
			fmt(
				of((o) => o.requests),
				0,
			),
			fmt(
				of((o) => o.ms),
				0,
			),
			outcomes.some((o) => o.runFailed) ? 'the execution fails' : 'succeeds',
		]);
	}
	ctx.sandbox.config.burstLimit = 0;
	log('bulk send under a burst limit: done');

	return {
		title,
		markdown: [
			`Send over many items, ms for the whole workflow (median (min–max) of ${runs} run${runs === 1 ? '' : 's'}, clients in rotating order). The HTTP Request node sends every item's request at once.`,
			'',
			table(
				[
					'latency',
					'items',
					LABEL.nodeDefault,
					LABEL.nodeCapped,
					LABEL.httpRequest,
					'defaults / HTTP Request',
					`Items at Once ${CAPPED_ITEMS_AT_ONCE} / HTTP Request`,
				],
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
