/**
 * 2. Upload File: wall time of the node vs a raw client (read, base64, POST) in this
 * process, and peak resident memory above idle per byte of file, one fresh process
 * per measurement (upload-child.ts).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { BenchContext, SectionResult } from './lib/context';
import { resetSandbox } from './lib/context';
import { binaryItem, runAirSign } from './lib/engine';
import { rawUpload } from './lib/raw';
import { isN8nInstalled } from './lib/n8n-nodes-base';
import { record } from './lib/results';
import { fmt, log, ratioOf, summarize, table, timed, inAlternatingOrder } from './lib/stats';

export const MAX_UPLOAD_BYTES = 7 * 1024 * 1024;

/** Clients of the memory table, in its column order. */
const MEMORY_MODES = [
	'raw',
	'node-filesystem',
	'node-default',
	'peer-filesystem',
	'peer-default',
] as const;

export function pdf(size: number): Buffer {
	const head = Buffer.from('%PDF-1.7\n');
	const tail = Buffer.from('\n%%EOF\n');
	return Buffer.concat([head, randomBytes(size - head.length - tail.length), tail]);
}

/**
 * `peer-default`: the HTTP Request workflow (bench/peer.ts) in 1.x's default binary mode (the
 * expression reads the item's base64); `peer-filesystem`: on n8n 2, Extract From File, then
 * HTTP Request (bench/lib/peer-workflows.ts, peerUploadFromStorage).
 */
export type Mode = 'raw' | 'node-default' | 'node-filesystem' | 'peer-default' | 'peer-filesystem';

export interface ChildOptions {
	/** Uploads at once. */
	count?: number;
	/** Young generation of 1 MiB (`--max-semi-space-size=1`), smaller than the file. */
	smallYoungGeneration?: boolean;
}

export interface ChildResult {
	idle: number;
	peak: number;
	hwmReset: boolean;
	bytesSent: number;
}

export function child(
	ctx: BenchContext,
	mode: Mode,
	file: string,
	warmFile: string,
	options: ChildOptions = {},
): Promise<ChildResult> {
	return new Promise((resolve, reject) => {
		const proc = spawn(
			process.execPath,
			[
				'--expose-gc',
				...(options.smallYoungGeneration ? ['--max-semi-space-size=1'] : []),
				'--import',
				'tsx',
				path.join(__dirname, 'upload-child.ts'),
			],
			{
				cwd: path.join(__dirname, '..'),
				env: {
					...process.env,
					BENCH_UPLOAD_CHILD: JSON.stringify({
						mode,
						count: options.count ?? 1,
						file,
						warmFile,
						baseUrl: ctx.sandbox.baseUrl,
						token: ctx.raw.token,
						clientId: ctx.sandbox.demo.clientId,
						clientSecret: ctx.sandbox.demo.clientSecret,
					}),
				},
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		let out = '';
		let err = '';
		const timer = setTimeout(() => proc.kill('SIGKILL'), 120_000);
		proc.stdout.on('data', (chunk) => (out += chunk));
		proc.stderr.on('data', (chunk) => (err += chunk));
		proc.on('close', (code) => {
			clearTimeout(timer);
			// The sandbox keeps uploaded files: drop them between measurements.
			ctx.sandbox.files.clear();
			const line = out.trim().split('\n').pop() ?? '';
			if (code !== 0 || !line.startsWith('{')) {
				reject(new Error(`upload child (${mode}) failed with ${code}: ${err.slice(-2000)}`));
				return;
			}
			resolve(JSON.parse(line) as ChildResult);
		});
	});
}

export async function benchUpload(ctx: BenchContext): Promise<SectionResult> {
	resetSandbox(ctx);
	const dir = mkdtempSync(path.join(tmpdir(), 'airsign-bench-'));
	const sizes = ctx.smoke
		? [{ label: '256 KiB', key: '256KiB', bytes: 256 * 1024 }]
		: [
				{ label: '1 MiB', key: '1MiB', bytes: 1024 * 1024 },
				{ label: '7 MiB − 4 KiB (limit 7 MiB)', key: '7MiB', bytes: MAX_UPLOAD_BYTES - 4096 },
			];
	const warmFile = path.join(dir, 'warm.pdf');
	writeFileSync(warmFile, pdf(16 * 1024));
	const timeRows: string[][] = [];
	const memoryRows: string[][] = [];
	let hwmResetEverywhere = true;
	try {
		for (const size of sizes) {
			const file = path.join(dir, `bench-${size.bytes}.pdf`);
			writeFileSync(file, pdf(size.bytes));

			// Wall time, in this process.
			const parameters = { resource: 'file', operation: 'upload', binaryPropertyName: 'data' };
			const node = async () => {
				const bytes = readFileSync(file);
				const result = await runAirSign(ctx.engine, {
					parameters,
					input: [binaryItem(bytes, { fileName: 'bench.pdf', mimeType: 'application/pdf' })],
				});
				if (result.items[0]?.json.sizeBytes !== size.bytes)
					throw new Error('node upload: wrong size stored');
				ctx.sandbox.files.clear();
				return result;
			};
			const raw = async () => {
				const uploaded = await rawUpload(ctx.raw, 'bench.pdf', readFileSync(file));
				if (uploaded.sizeBytes !== size.bytes) throw new Error('raw upload: wrong size stored');
				ctx.sandbox.files.clear();
			};
			await node();
			await raw();
			const nodeMs: number[] = [];
			const execMs: number[] = [];
			const rawMs: number[] = [];
			for (let run = 0; run < ctx.runs; run++) {
				const measureNode = async () => {
					const { ms, value } = await timed(node);
					nodeMs.push(ms);
					execMs.push(value.executeMs);
				};
				const measureRaw = async () => rawMs.push((await timed(raw)).ms);
				await inAlternatingOrder(run, measureNode, measureRaw);
			}
			timeRows.push([
				size.label,
				size.bytes.toLocaleString('en-US'),
				fmt(summarize(nodeMs)),
				fmt(summarize(execMs)),
				fmt(summarize(rawMs)),
				fmt(summarize(ratioOf(nodeMs, rawMs)), 2),
				fmt(summarize(ratioOf(execMs, rawMs)), 2),
			]);
			log(
				`upload ${size.label}: node ${fmt(summarize(nodeMs))} ms, raw ${fmt(summarize(rawMs))} ms`,
			);

			record(
				{
					operation: 'upload',
					mode: 'default',
					size: size.key,
					latencyMs: 0,
					client: 'node',
					measure: 'ms',
					unit: 'ms',
				},
				summarize(nodeMs),
			);
			record(
				{
					operation: 'upload',
					mode: 'default',
					size: size.key,
					latencyMs: 0,
					client: 'raw',
					measure: 'ms',
					unit: 'ms',
				},
				summarize(rawMs),
			);

			// Peak memory, one fresh process per measurement.
			const memoryRuns = ctx.smoke ? 1 : 3;
			const modes: Mode[] =
				isN8nInstalled() && !ctx.smoke
					? [...MEMORY_MODES]
					: MEMORY_MODES.filter((m) => !m.startsWith('peer-'));
			for (const count of ctx.smoke ? [1] : [1, 5]) {
				for (const smallYoungGeneration of ctx.smoke ? [true] : [true, false]) {
					const perMode = new Map<Mode, number[]>();
					for (let run = 0; run < memoryRuns; run++) {
						for (const mode of modes) {
							const result = await child(ctx, mode, file, warmFile, {
								count,
								smallYoungGeneration,
							});
							if (result.bytesSent !== size.bytes)
								throw new Error(`${mode}: the upload stored ${result.bytesSent} bytes`);
							hwmResetEverywhere &&= result.hwmReset;
							const list = perMode.get(mode) ?? [];
							list.push((result.peak - result.idle) / size.bytes);
							perMode.set(mode, list);
						}
					}
					const young = smallYoungGeneration ? 'semi-space 1 MiB' : "V8's defaults";
					memoryRows.push([
						size.label,
						String(count),
						young,
						...MEMORY_MODES.map((mode) =>
							perMode.has(mode) ? fmt(summarize(perMode.get(mode)!), 2) : '–',
						),
					]);
					for (const [mode, values] of perMode) {
						const [client, binaryMode] = mode.split('-');
						record(
							{
								operation: 'upload',
								mode: binaryMode ?? 'none',
								size: size.key,
								latencyMs: 0,
								client: `${client === 'peer' ? 'httpRequest' : client}/x${count}`,
								measure: `peak-above-idle-per-file-size/${smallYoungGeneration ? 'semi1' : 'v8default'}`,
								unit: 'x file size',
							},
							summarize(values),
						);
					}
					log(
						`upload ${size.label} memory, ${count} at once, ${young}: ${[...perMode].map(([m, v]) => `${m} ${fmt(summarize(v), 2)}×`).join(', ')}`,
					);
				}
			}
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
	return {
		title: '2. Upload File',
		markdown: [
			table(
				[
					'file',
					'bytes',
					'node, whole workflow (ms)',
					'node execute() (ms)',
					'raw: read + base64 + POST (ms)',
					'workflow / raw',
					'execute / raw',
				],
				timeRows,
			),
			'',
			'The whole workflow includes the harness input node turning the buffer into n8n binary data (`prepareBinaryData`, base64 in the default binary mode); `execute()` is the upload itself: read the binary, check it, encode, POST.',
			'',
			`Peak resident memory above idle, divided by the file size (one fresh process per measurement${ctx.smoke ? '' : ', 3 processes per cell'}; "at once": that many uploads in one execution, the node with Items at Once at that number, raw with as many in flight, HTTP Request with that many items). Young generation: \`node --max-semi-space-size=1\` (smaller than the file: chunks already sent are collected as the upload goes) and V8's defaults (they stay in RSS as garbage until the next scavenge):`,
			'',
			table(
				[
					'file',
					'at once',
					'young generation',
					'raw client (read, base64, POST)',
					'node, filesystem mode (n8n 2 default)',
					'node, default mode (n8n 1.x in-memory)',
					'HTTP Request, filesystem mode (Extract From File → HTTP Request: 2 nodes)',
					'HTTP Request, default mode (1 node, base64 by expression)',
				],
				memoryRows,
			),
			'',
			hwmResetEverywhere
				? 'Measured as VmHWM − VmRSS from /proc/self/status, the high-water mark reset (clear_refs 5) after gc() at the idle point: for the node, first thing in its execute(), when n8n already holds the input item (in "default" mode its base64 text sits in the item); for the raw client, before it reads the file.'
				: 'Note: this kernel did not allow resetting the high-water mark (clear_refs), so peaks are lifetime peaks of the child: upper bounds.',
		].join('\n'),
	};
}
