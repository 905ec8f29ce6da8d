/**
 * 6. Against the peer users would build instead (n8n's HTTP Request node) and on a realistic
 * network: the AirSign node, the HTTP Request workflows (bench/lib/peer-workflows.ts), and raw
 * loops with fetch and with axios, in the same run, against the sandbox with an injected latency
 * on every request (a `latency` fault that never runs out).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { BenchContext, SectionResult } from './lib/context';
import { countRequests, resetSandbox } from './lib/context';
import { runAirSign } from './lib/engine';
import { isN8nInstalled } from './lib/n8n-nodes-base';
import type { PeerEnvironment } from './lib/peer-env';
import { peerEnvironment } from './lib/peer-env';
import type { PeerWorkflow } from './lib/peer-workflows';
import {
	configuredFields,
	peerListAll,
	peerPoll,
	peerSend,
	peerUpload,
} from './lib/peer-workflows';
import { fmt, log, ratioOf, summarize, table } from './lib/stats';
import { runChain } from './lib/workflow';
import { child, MAX_UPLOAD_BYTES, pdf } from './upload';
import { record } from './lib/results';
import type { Case, Contestant, Measured, Results } from './lib/peer-cases';
import {
	CAPPED_ITEMS_AT_ONCE,
	idlePollCase,
	listCase,
	sendCase,
	SEND_AT_ONCE,
	uploadCase,
} from './lib/peer-cases';

export interface PeerSizes {
	latenciesMs: number[];
	sessions: number;
	items: number;
	uploadBytes: number;
	/** Peak memory children (fresh processes); off in smoke runs. */
	memory: boolean;
}

export const PEER_SIZES: PeerSizes = {
	latenciesMs: [0, 100, 250],
	sessions: 1_000,
	items: 100,
	uploadBytes: MAX_UPLOAD_BYTES - 4096,
	memory: true,
};
export const PEER_SMOKE_SIZES: PeerSizes = {
	latenciesMs: [0, 20],
	sessions: 150,
	items: 5,
	uploadBytes: 64 * 1024,
	memory: false,
};

/** At a latency of 250 ms one Send run is 25 s per client: fewer runs there (still a median). */
const MAX_RUNS_WITH_LATENCY = 3;
/** The AirSign credential's fields a user fills in (Client ID, Client Secret). */
const AIRSIGN_CREDENTIAL_FIELDS = 2;

/**
 * An empty sandbox whose every request (token endpoint included) waits `delayMs` first, and n8n's
 * client-credentials token fetched anew (the reset revoked it), so that no measured run pays it.
 */
async function withLatency(ctx: BenchContext, delayMs: number): Promise<void> {
	resetSandbox(ctx);
	if (delayMs > 0)
		ctx.sandbox.injectFault({ kind: 'latency', delayMs, count: Number.MAX_SAFE_INTEGER });
	await runAirSign(ctx.engine, {
		parameters: { resource: 'session', operation: 'getMany', returnAll: false, limit: 1 },
	});
}

/** Runs every contestant once per run, rotating who goes first; one warm-up round first. */
async function compare(runs: number, warmUp: boolean, contestants: Case): Promise<Results> {
	const names = Object.keys(contestants) as Array<keyof Case>;
	const results = Object.fromEntries(names.map((c) => [c, [] as Measured[]])) as Results;
	// Warm-up (JIT, connections) at latency 0 only: at 25 s a Send run, a warm round at 250 ms
	// would double the section's time and warm nothing that latency 0 has not warmed already.
	if (warmUp) for (const c of names) await contestants[c]!();
	for (let run = 0; run < runs; run++) {
		for (let i = 0; i < names.length; i++) {
			const c = names[(run + i) % names.length];
			results[c]!.push(await contestants[c]!());
		}
	}
	return results;
}

/** Keeps a case's figures for results.json (operation key, e.g. `send`, `upload`). */
function recordCase(operation: string, size: string, latencyMs: number, results: Results): void {
	const names: Record<string, string> = {
		ours: 'node',
		peer: 'httpRequest',
		fetch: 'fetch',
		axios: 'axios',
		oursAtOnce: `node-x${CAPPED_ITEMS_AT_ONCE}`,
		fetchAtOnce: `fetch-x${SEND_AT_ONCE}`,
	};
	const base = { operation, mode: 'default', size, latencyMs, measure: 'ms', unit: 'ms' };
	for (const [key, measured] of Object.entries(results) as Array<[string, Measured[]]>)
		record({ ...base, client: names[key] ?? key }, summarize(measured.map((m) => m.ms)));
	const ratio = (a: Measured[], b: Measured[]) =>
		summarize(
			ratioOf(
				a.map((m) => m.ms),
				b.map((m) => m.ms),
			),
		);
	record(
		{ ...base, client: 'node', measure: 'ratio-to-fetch', unit: 'ratio' },
		ratio(results.ours, results.fetch),
	);
	record(
		{ ...base, client: 'node', measure: 'ratio-to-httpRequest', unit: 'ratio' },
		ratio(results.ours, results.peer),
	);
}

function row(label: string, results: Results, digits = 1): string[] {
	const ms = (c: Contestant) => results[c].map((m) => m.ms);
	const requests = (c: Contestant) => summarize(results[c].map((m) => m.requests)).median;
	return [
		label,
		`${requests('ours')} / ${requests('peer')} / ${requests('fetch')}`,
		fmt(summarize(ms('ours')), digits),
		fmt(summarize(ms('peer')), digits),
		fmt(summarize(ms('fetch')), digits),
		fmt(summarize(ms('axios')), digits),
		fmt(summarize(ratioOf(ms('ours'), ms('fetch'))), 3),
		fmt(summarize(ratioOf(ms('ours'), ms('axios'))), 3),
		fmt(summarize(ratioOf(ms('axios'), ms('fetch'))), 3),
		fmt(summarize(ratioOf(ms('peer'), ms('ours'))), 3),
	];
}

/** A 429 (Retry-After: 1 s) answering the second page of Return All: who still returns every session? */
async function rateLimitProbe(
	ctx: BenchContext,
	peer: PeerEnvironment,
	n: number,
): Promise<string[][]> {
	await withLatency(ctx, 0);
	for (let i = 0; i < n; i++) ctx.sandbox.createSession({ name: `Bench peer 429 ${i}` });
	const outcome = async (work: () => Promise<number>) => {
		ctx.sandbox.injectFault({
			kind: 'rateLimit',
			path: '/api/v1/Sessions',
			skip: 1,
			count: 1,
			retryAfter: 1,
		});
		ctx.sandbox.clearRequests();
		try {
			const count = await work();
			return `${count} of ${n} sessions, ${countRequests(ctx.sandbox, '/api/v1/Sessions')} requests`;
		} catch (error) {
			return `the run fails: "${String((error as Error).message)
				.split('\n')[0]
				.slice(0, 90)}"`;
		} finally {
			ctx.sandbox.clearFaults();
		}
	};
	const workflow = peerListAll(peer.base, peer.credential, ctx.sandbox.baseUrl);
	return [
		[
			'AirSign node (Return All)',
			await outcome(
				async () =>
					(
						await runAirSign(ctx.engine, {
							parameters: { resource: 'session', operation: 'getMany', returnAll: true },
						})
					).items.length,
			),
		],
		[
			'HTTP Request with pagination (Retry On Fail off, the default)',
			await outcome(async () => (await runChain(ctx.engine.env, workflow.chain)).items.length),
		],
	];
}

async function memoryRows(ctx: BenchContext, bytes: number): Promise<string[][]> {
	await withLatency(ctx, 0);
	const dir = mkdtempSync(path.join(tmpdir(), 'airsign-bench-peer-'));
	try {
		const file = path.join(dir, 'bench.pdf');
		const warmFile = path.join(dir, 'warm.pdf');
		writeFileSync(file, pdf(bytes));
		writeFileSync(warmFile, pdf(16 * 1024));
		const modes = [
			['AirSign node', 'node-default'],
			['HTTP Request workflow', 'peer-default'],
			['raw node:http', 'raw'],
		] as const;
		const perFile: Record<string, number[]> = {};
		for (let i = 0; i < 3; i++) {
			for (const [label, mode] of modes) {
				const result = await child(ctx, mode, file, warmFile);
				if (result.bytesSent !== bytes)
					throw new Error(`${mode}: the upload stored ${result.bytesSent} bytes`);
				(perFile[label] ??= []).push((result.peak - result.idle) / bytes);
			}
		}
		return modes.map(([label]) => [label, fmt(summarize(perFile[label]), 2)]);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

export async function benchPeer(ctx: BenchContext, sizes: PeerSizes): Promise<SectionResult> {
	const title = `6. Against the HTTP Request node, at ${sizes.latenciesMs.join(', ')} ms per request`;
	if (!isN8nInstalled())
		return {
			title,
			markdown:
				'Skipped: n8n 2.41.3 is not installed in `.cache/n8n` (its n8n-nodes-base holds the HTTP Request node). `npm run bench` installs it with `npx tsx e2e/install-n8n.mts --n8n 2`; the smoke run only uses it when it is there.',
		};
	const peer = await peerEnvironment(ctx.engine, ctx.raw.token);
	const bytes = pdf(sizes.uploadBytes);
	const header = [
		'case',
		'API requests: AirSign node / HTTP Request / raw',
		'AirSign node (ms)',
		'HTTP Request workflow (ms)',
		'raw fetch (ms)',
		'raw axios (ms)',
		'node / fetch',
		'node / axios',
		'axios / fetch',
		'HTTP Request / node',
	];
	const parts: string[] = [];
	const sendAtOnceRows: string[][] = [];
	for (const latency of sizes.latenciesMs) {
		const runs = latency === 0 ? ctx.runs : Math.min(ctx.runs, MAX_RUNS_WITH_LATENCY);
		const rows: string[][] = [];
		await withLatency(ctx, latency);
		rows.push(
			row(
				`Return All, ${sizes.sessions.toLocaleString('en-US')} sessions`,
				await compare(runs, latency === 0, await listCase(ctx, peer, sizes.sessions)),
			),
		);
		await withLatency(ctx, latency);
		const send = await compare(runs, latency === 0, sendCase(ctx, peer, sizes.items));
		recordCase('send', `${sizes.items}items`, latency, send);
		rows.push(row(`Send, ${sizes.items} items`, send));
		const sendMs = (results: Measured[] | undefined) => (results ?? []).map((m) => m.ms);
		sendAtOnceRows.push([
			`${latency} ms`,
			fmt(summarize(sendMs(send.ours)), 0),
			fmt(summarize(sendMs(send.fetch)), 0),
			fmt(summarize(sendMs(send.oursAtOnce)), 0),
			fmt(summarize(sendMs(send.fetchAtOnce)), 0),
			fmt(summarize(sendMs(send.peer)), 0),
			fmt(summarize(ratioOf(sendMs(send.ours), sendMs(send.peer))), 2),
			fmt(summarize(ratioOf(sendMs(send.fetch), sendMs(send.ours))), 2),
		]);
		await withLatency(ctx, latency);
		// An upload run takes a fraction of a second: every latency gets the full runs and a warm-up.
		const upload = await compare(ctx.runs, true, uploadCase(ctx, peer, bytes));
		recordCase('upload', `${(sizes.uploadBytes / 1024 / 1024).toFixed(2)}MiB`, latency, upload);
		rows.push(
			row(`Upload, ${(sizes.uploadBytes / 1024 / 1024).toFixed(2)} MiB (raw: node:http)`, upload),
		);
		await withLatency(ctx, latency);
		rows.push(
			row(
				'Idle trigger poll (HTTP Request: one GET)',
				await compare(runs, latency === 0, await idlePollCase(ctx, peer)),
				2,
			),
		);
		log(`peer at ${latency} ms: done (${runs} runs)`);
		parts.push(
			`### ${latency} ms per request (${runs} measured run${runs === 1 ? '' : 's'}; Upload ${ctx.runs})`,
			'',
			table(header, rows),
			'',
		);
	}

	parts.push(
		`Send over ${sizes.items} items: the AirSign node with its defaults (Items at Once unset) and at Items at Once ${CAPPED_ITEMS_AT_ONCE}, raw fetch one at a time and ${SEND_AT_ONCE} at once, the HTTP Request node (every item's request at once), ms; same runs as above:`,
		'',
		table(
			[
				'latency',
				'AirSign node, defaults',
				'raw fetch, one at a time',
				`AirSign node, Items at Once ${CAPPED_ITEMS_AT_ONCE}`,
				`raw fetch, ${SEND_AT_ONCE} at once`,
				'HTTP Request (all at once)',
				'node defaults / HTTP Request',
				'raw one at a time / node defaults',
			],
			sendAtOnceRows,
		),
		'',
	);
	const workflows: Array<[string, PeerWorkflow, number]> = [
		[
			'Return All',
			peerListAll(peer.base, peer.credential, ctx.sandbox.baseUrl),
			configuredFields({ resource: 'session', operation: 'getMany', returnAll: true }),
		],
		[
			'Send',
			peerSend(peer.base, peer.credential, ctx.sandbox.baseUrl),
			configuredFields({ resource: 'session', operation: 'send', sessionId: '' }),
		],
		[
			'Upload',
			peerUpload(peer.base, peer.credential, ctx.sandbox.baseUrl),
			configuredFields({ resource: 'file', operation: 'upload' }),
		],
		[
			'Poll for changes',
			peerPoll(peer.base, peer.credential, ctx.sandbox.baseUrl, ''),
			configuredFields({ event: '' }),
		],
	];
	parts.push(
		'What the user configures (nodes added; fields set, credential included: Client ID + Client Secret for AirSign, Name + Value for Header Auth):',
		'',
		table(
			['workflow', 'AirSign: nodes, fields', 'HTTP Request: nodes, fields'],
			workflows.map(([label, workflow, ours]) => [
				label,
				`1, ${ours + AIRSIGN_CREDENTIAL_FIELDS}`,
				`${workflow.nodes}, ${workflow.fields}`,
			]),
		),
		'',
		'A 429 with `Retry-After: 1` answering the second page of Return All (latency 0):',
		'',
		table(['workflow', 'outcome'], await rateLimitProbe(ctx, peer, Math.min(sizes.sessions, 300))),
		'',
	);
	if (sizes.memory)
		parts.push(
			`Peak resident memory above idle ÷ file size, ${(sizes.uploadBytes / 1024 / 1024).toFixed(2)} MiB upload, n8n's default binary mode (fresh process each, 3 per cell; measured as in section 2, the HTTP Request side's idle point right before the HTTP Request node runs):`,
			'',
			table(['client', 'peak above idle ÷ file size'], await memoryRows(ctx, sizes.uploadBytes)),
			'',
		);
	return { title, markdown: parts.join('\n') };
}
