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
import { fmt, log, ratioOf, summarize, table, timed, inAlternatingOrder } from './lib/stats';

export const MAX_UPLOAD_BYTES = 7 * 1024 * 1024;

export function pdf(size: number): Buffer {
	const head = Buffer.from('%PDF-1.7\n');
	const tail = Buffer.from('\n%%EOF\n');
	return Buffer.concat([head, randomBytes(size - head.length - tail.length), tail]);
}

/** `peer-default`: the HTTP Request workflow (bench/peer.ts) in n8n's default binary mode. */
export type Mode = 'raw' | 'node-default' | 'node-filesystem' | 'peer-default';

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
): Promise<ChildResult> {
	return new Promise((resolve, reject) => {
		const proc = spawn(
			process.execPath,
			['--expose-gc', '--import', 'tsx', path.join(__dirname, 'upload-child.ts')],
			{
				cwd: path.join(__dirname, '..'),
				env: {
					...process.env,
					BENCH_UPLOAD_CHILD: JSON.stringify({
						mode,
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
		? [{ label: '256 KiB', bytes: 256 * 1024 }]
		: [
				{ label: '1 MiB', bytes: 1024 * 1024 },
				{ label: '7 MiB − 4 KiB (limit 7 MiB)', bytes: MAX_UPLOAD_BYTES - 4096 },
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

			// Peak memory, one fresh process per measurement.
			const memoryRuns = ctx.smoke ? 1 : 3;
			const perMode = new Map<Mode, number[]>();
			for (let run = 0; run < memoryRuns; run++) {
				for (const mode of ['raw', 'node-default', 'node-filesystem'] as Mode[]) {
					const result = await child(ctx, mode, file, warmFile);
					if (result.bytesSent !== size.bytes)
						throw new Error(`${mode}: the upload stored ${result.bytesSent} bytes`);
					hwmResetEverywhere &&= result.hwmReset;
					const list = perMode.get(mode) ?? [];
					list.push((result.peak - result.idle) / size.bytes);
					perMode.set(mode, list);
				}
			}
			const rawPeak = perMode.get('raw')!;
			memoryRows.push([
				size.label,
				fmt(summarize(rawPeak), 2),
				fmt(summarize(perMode.get('node-default')!), 2),
				fmt(summarize(perMode.get('node-filesystem')!), 2),
				fmt(summarize(ratioOf(perMode.get('node-default')!, rawPeak)), 2),
				fmt(summarize(ratioOf(perMode.get('node-filesystem')!, rawPeak)), 2),
			]);
			log(
				`upload ${size.label} memory: raw ${fmt(summarize(rawPeak), 2)}×, node ${fmt(summarize(perMode.get('node-default')!), 2)}×`,
			);
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
			`Peak resident memory above idle, divided by the file size (floor ≈ 2.3×: bytes + base64 text; one fresh process per measurement${ctx.smoke ? '' : ', 3 processes per cell'}):`,
			'',
			table(
				[
					'file',
					'raw client',
					'node, n8n binary mode "default"',
					'node, binary mode "filesystem"',
					'node default / raw',
					'node filesystem / raw',
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
