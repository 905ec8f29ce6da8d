/** 6. Against the HTTP Request workflow and raw fetch and axios loops, with a `latency` fault. */
import { countRequests, sessions, withLatency, type BenchContext } from './lib/context';
import type { SectionResult } from './lib/context';
import { runAirSign, runChain } from './lib/engine';
import { isN8nInstalled } from './lib/n8n-nodes-base';
import * as cases from './lib/peer-cases';
import type { Case, Contestant, Measured } from './lib/peer-cases';
import * as wf from './lib/peer-workflows';
import type { PeerEnvironment } from './lib/peer-workflows';
import { fmt, fmtOf, log, ratioOf, rotate, summarize, table } from './lib/stats';
import { record, recordedFigure } from './lib/stats';
import { pdf } from './upload';
import { MAX_UPLOAD_BYTES } from '../nodes/AirSign/helpers/constants';

export const PEER_SIZES = {
	latenciesMs: [0, 100, 250],
	sessions: 1_000,
	items: 100,
	uploadBytes: MAX_UPLOAD_BYTES - 4096,
};
export type PeerSizes = typeof PEER_SIZES;
export const PEER_SMOKE_SIZES: PeerSizes = {
	latenciesMs: [0, 20],
	sessions: 150,
	items: 5,
	uploadBytes: 64 * 1024,
};

/** At a latency of 250 ms one Send run is 25 s per client: fewer runs there (still a median). */
const MAX_RUNS_WITH_LATENCY = 3;
/** The AirSign credential's fields a user fills in (Client ID, Client Secret). */
const AIRSIGN_CREDENTIAL_FIELDS = 2;

type Results = Record<string, Measured[]>;
const msOf = (results: Results, c: string) => (results[c] ?? []).map((m) => m.ms);

/** Keeps a case's figures for results.json (operation key, e.g. `send`, `upload`). */
function recordCase(operation: string, size: string, latencyMs: number, results: Results): void {
	const names: Record<string, string> = {
		ours: 'node',
		peer: 'httpRequest',
		oursAtOnce: `node-x${cases.CAPPED_ITEMS_AT_ONCE}`,
		fetchAtOnce: `fetch-x${cases.SEND_AT_ONCE}`,
	};
	const base = { operation, mode: 'default', size, latencyMs, measure: 'ms', unit: 'ms' };
	for (const key of Object.keys(results))
		record({ ...base, client: names[key] ?? key }, msOf(results, key));
	for (const [to, other] of Object.entries({ fetch: 'fetch', httpRequest: 'peer' }))
		record(
			{ ...base, client: 'node', measure: `ratio-to-${to}`, unit: 'ratio' },
			ratioOf(msOf(results, 'ours'), msOf(results, other)),
		);
}

function row(label: string, results: Results, digits = 1): string[] {
	const ms = (c: Contestant) => msOf(results, c);
	const requests = (c: Contestant) => summarize(results[c].map((m) => m.requests)).median;
	return [
		label,
		`${requests('ours')} / ${requests('peer')} / ${requests('fetch')}`,
		...(['ours', 'peer', 'fetch', 'axios'] as const).map((c) => fmtOf(ms(c), digits)),
		fmtOf(ratioOf(ms('ours'), ms('fetch')), 3),
		fmtOf(ratioOf(ms('ours'), ms('axios')), 3),
		fmtOf(ratioOf(ms('axios'), ms('fetch')), 3),
		fmtOf(ratioOf(ms('peer'), ms('ours')), 3),
	];
}

/** A 429 (Retry-After: 1 s) answering the second page of Return All: who still returns every session? */
async function rateLimitProbe(
	ctx: BenchContext,
	peer: PeerEnvironment,
	n: number,
): Promise<string[][]> {
	await withLatency(ctx, 0);
	sessions(ctx, n);
	const fault = {
		kind: 'rateLimit',
		path: '/api/v1/Sessions',
		skip: 1,
		count: 1,
		retryAfter: 1,
	} as const;
	const outcome = async (work: () => Promise<unknown[]>) => {
		ctx.sandbox.injectFault(fault);
		ctx.sandbox.clearRequests();
		try {
			const count = (await work()).length;
			return `${count} of ${n} sessions, ${countRequests(ctx.sandbox, '/api/v1/Sessions')} requests`;
		} catch (error) {
			const [first] = String((error as Error).message).split('\n');
			return `the run fails: "${first.slice(0, 90)}"`;
		} finally {
			ctx.sandbox.clearFaults();
		}
	};
	const parameters = cases.RETURN_ALL;
	return [
		[
			'AirSign node (Return All)',
			await outcome(async () => (await runAirSign(ctx.engine, { parameters })).items),
		],
		[
			'HTTP Request with pagination (Retry On Fail off, the default)',
			await outcome(() => runChain(ctx.engine.env, wf.peerListAll(peer).chain)),
		],
	];
}

/** Case names: `list@0`, `send@100`, `upload@250`, `poll@0` (case@latency); `extras`: the other tables. */
export async function benchPeer(
	ctx: BenchContext,
	sizes: PeerSizes,
	wantsCase: (name: string) => boolean,
): Promise<SectionResult> {
	const title = `6. Against the HTTP Request node, at ${sizes.latenciesMs.join(', ')} ms per request`;
	if (!isN8nInstalled())
		return {
			title,
			markdown:
				'Skipped: n8n 2.41.3 is not installed in `.cache/n8n` (its n8n-nodes-base holds the HTTP Request node). `npm run bench` installs it with `npx tsx e2e/install-n8n.mts --n8n 2`; the smoke run only uses it when it is there.',
		};
	const peer = await wf.peerEnvironment(ctx.engine, ctx.raw.token, ctx.sandbox.baseUrl);
	const bytes = pdf(sizes.uploadBytes);
	const mib = `${(sizes.uploadBytes / 1024 / 1024).toFixed(2)} MiB`;
	const header =
		'case | API requests: AirSign node / HTTP Request / raw | AirSign node (ms) | HTTP Request workflow (ms) | raw fetch (ms) | raw axios (ms) | node / fetch | node / axios | axios / fetch | HTTP Request / node';
	const parts: string[] = [];
	const sendAtOnceRows: string[][] = [];
	const uploadRuns = ctx.runs * cases.UPLOAD_RUNS_FACTOR;
	for (const latency of sizes.latenciesMs) {
		const runs = latency === 0 ? ctx.runs : Math.min(ctx.runs, MAX_RUNS_WITH_LATENCY);
		// Warm-up (JIT, connections) at latency 0 only: at 25 s a Send run, a warm round at 250 ms
		// would double the section's time and warm nothing that latency 0 has not warmed already.
		const compare = async (contestants: Case, upload = false) =>
			(await rotate(upload ? uploadRuns : runs, contestants, upload || latency === 0)) as Results;
		const rows: string[][] = [];
		const wants = (name: string) => wantsCase(`${name}@${latency}`);
		if (wants('list')) {
			await withLatency(ctx, latency);
			const list = await compare(await cases.listCase(ctx, peer, sizes.sessions));
			rows.push(row(`Return All, ${sizes.sessions.toLocaleString('en-US')} sessions`, list));
		}
		if (wants('send')) {
			await withLatency(ctx, latency);
			const send = await compare(cases.sendCase(ctx, peer, sizes.items));
			recordCase('send', `${sizes.items}items`, latency, send);
			rows.push(row(`Send, ${sizes.items} items`, send));
			sendAtOnceRows.push([
				`${latency} ms`,
				...['ours', 'fetch', 'oursAtOnce', 'fetchAtOnce', 'peer'].map((c) =>
					fmtOf(msOf(send, c), 0),
				),
				fmtOf(ratioOf(msOf(send, 'ours'), msOf(send, 'peer')), 2),
				fmtOf(ratioOf(msOf(send, 'fetch'), msOf(send, 'ours')), 2),
			]);
		}
		if (wants('upload')) {
			await withLatency(ctx, latency);
			// Every latency gets the upload runs and a warm-up.
			const upload = await compare(
				cases.uploadCase(ctx, peer, () => bytes),
				true,
			);
			recordCase('upload', mib.replace(' ', ''), latency, upload);
			rows.push(row(`Upload, ${mib} (raw: node:http)`, upload));
		}
		if (wants('poll')) {
			await withLatency(ctx, latency);
			const poll = await compare(await cases.idlePollCase(ctx, peer));
			rows.push(row('Idle trigger poll (HTTP Request: one GET)', poll, 2));
		}
		log(`peer at ${latency} ms: done (${runs} runs)`);
		parts.push(
			`### ${latency} ms per request (${runs} measured run${runs === 1 ? '' : 's'}; Upload ${uploadRuns})`,
			'',
			table(header, rows),
			'',
		);
	}

	const workflows = [
		['Return All', wf.peerListAll(peer), cases.RETURN_ALL],
		['Send', wf.peerSend(peer), { resource: 'session', operation: 'send', sessionId: '' }],
		['Upload', wf.peerUpload(peer), { resource: 'file', operation: 'upload' }],
		['Poll for changes', wf.peerPoll(peer, ''), { event: '' }],
	] as const;
	parts.push(
		`Send over ${sizes.items} items: the AirSign node with its defaults (Items at Once unset) and at Items at Once ${cases.CAPPED_ITEMS_AT_ONCE}, raw fetch one at a time and ${cases.SEND_AT_ONCE} at once, the HTTP Request node (every item's request at once), ms; same runs as above:`,
		'',
		table(
			`latency | AirSign node, defaults | raw fetch, one at a time | AirSign node, Items at Once ${cases.CAPPED_ITEMS_AT_ONCE} | raw fetch, ${cases.SEND_AT_ONCE} at once | HTTP Request (all at once) | node defaults / HTTP Request | raw one at a time / node defaults`,
			sendAtOnceRows,
		),
		'',
	);
	if (!wantsCase('extras')) return { title, markdown: parts.join('\n') };
	parts.push(
		'What the user configures (nodes added; fields set, credential included: Client ID + Client Secret for AirSign, Name + Value for Header Auth):',
		'',
		table(
			['workflow', 'AirSign: nodes, fields', 'HTTP Request: nodes, fields'],
			workflows.map(([label, workflow, ours]) => [
				label,
				`1, ${wf.configuredFields(ours) + AIRSIGN_CREDENTIAL_FIELDS}`,
				`${workflow.nodes}, ${workflow.fields}`,
			]),
		),
		'',
		'A 429 with `Retry-After: 1` answering the second page of Return All (latency 0):',
		'',
		table(['workflow', 'outcome'], await rateLimitProbe(ctx, peer, Math.min(sizes.sessions, 300))),
		'',
	);
	// Section 2 measures these (7 MiB − 4 KiB, one upload, V8's defaults): read, not measured again.
	const memoryRows = [
		['AirSign node', 'default/7MiB/0ms/node'],
		['HTTP Request workflow', 'default/7MiB/0ms/httpRequest'],
		['raw node:http', 'none/7MiB/0ms/raw'],
	].map(([label, name]) => {
		const figure = recordedFigure(`upload/${name}/x1/peak-above-idle-per-file-size/v8default`);
		return [label, figure ? fmt(figure, 2) : ''];
	});
	if (memoryRows.every(([, cell]) => cell))
		parts.push(
			`Peak resident memory above idle ÷ file size, ${mib} upload, n8n's default binary mode (section 2's figures: fresh process each, 3 per cell, V8's defaults; the HTTP Request side's idle point right before the HTTP Request node runs):`,
			'',
			table(['client', 'peak above idle ÷ file size'], memoryRows),
			'',
		);
	return { title, markdown: parts.join('\n') };
}
