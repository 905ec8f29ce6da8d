/** 2. Upload File: wall time against a raw client, and peak memory above idle per byte in fresh processes (upload-child.ts). */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { MAX_UPLOAD_BYTES } from '../nodes/AirSign/helpers/constants';
import type { BenchContext, SectionResult } from './lib/context';
import { resetSandbox } from './lib/context';
import { isN8nInstalled } from './lib/n8n-nodes-base';
import { nodeVsRaw, uploadCase } from './lib/peer-cases';
import { fmtOf, log, record, rotate, table } from './lib/stats';
import type { ChildInput, ChildResult, Mode } from './upload-child';

/** Clients of the memory table, in its column order. */
const MEMORY_MODES: Mode[] = [
	'raw',
	'node-filesystem',
	'node-default',
	'peer-filesystem',
	'peer-default',
];

export function pdf(size: number): Buffer {
	const head = Buffer.from('%PDF-1.7\n');
	const tail = Buffer.from('\n%%EOF\n');
	return Buffer.concat([head, randomBytes(size - head.length - tail.length), tail]);
}

/** One measurement in a fresh process; `smallYoungGeneration`: a 1 MiB young generation, smaller than the file. */
async function child(
	ctx: BenchContext,
	input: Pick<ChildInput, 'mode' | 'count' | 'file' | 'warmFile'>,
	smallYoungGeneration: boolean,
): Promise<ChildResult> {
	const { baseUrl, demo } = ctx.sandbox;
	const childInput: ChildInput = { ...input, baseUrl, token: ctx.raw.token, ...demo };
	const young = smallYoungGeneration ? ['--max-semi-space-size=1'] : [];
	const script = path.join(__dirname, 'upload-child.ts');
	const args = ['--expose-gc', ...young, '--import', 'tsx', script];
	// The project's one process runner (plain ESM, imported at run time as run.ts imports the installer).
	const runner: string = '../e2e/lib/proc.mts';
	const { runCommand } = (await import(runner)) as {
		runCommand: (cmd: string, args: string[], o: object) => Promise<{ stdout: string }>;
	};
	const { stdout } = await runCommand(process.execPath, args, {
		cwd: path.join(__dirname, '..'),
		env: { ...process.env, BENCH_UPLOAD_CHILD: JSON.stringify(childInput) },
		label: `upload child (${input.mode})`,
	});
	// The sandbox keeps uploaded files: drop them between measurements.
	ctx.sandbox.files.clear();
	return JSON.parse(stdout.trim().split('\n').pop() ?? '') as ChildResult;
}

/** Peak resident memory above idle ÷ file size, `runs` fresh processes per mode (interleaved). */
async function peaksPerFile(
	ctx: BenchContext,
	modes: Mode[],
	input: { file: string; warmFile: string; bytes: number; count: number; runs: number },
	smallYoungGeneration: boolean,
): Promise<{ perMode: Map<Mode, number[]>; hwmReset: boolean }> {
	const perMode = new Map<Mode, number[]>(modes.map((mode) => [mode, []]));
	let hwmReset = true;
	for (let run = 0; run < input.runs; run++)
		for (const mode of modes) {
			const result = await child(ctx, { ...input, mode }, smallYoungGeneration);
			if (result.bytesSent !== input.bytes)
				throw new Error(`${mode}: the upload stored ${result.bytesSent} bytes`);
			hwmReset &&= result.hwmReset;
			perMode.get(mode)!.push((result.peak - result.idle) / input.bytes);
		}
	return { perMode, hwmReset };
}

export async function benchUpload(ctx: BenchContext): Promise<SectionResult> {
	resetSandbox(ctx);
	const sizes = ctx.smoke
		? [{ label: '256 KiB', key: '256KiB', bytes: 256 * 1024 }]
		: [
				{ label: '1 MiB', key: '1MiB', bytes: 1024 * 1024 },
				{ label: '7 MiB − 4 KiB (limit 7 MiB)', key: '7MiB', bytes: MAX_UPLOAD_BYTES - 4096 },
			];
	const timeRows: string[][] = [];
	const memoryRows: string[][] = [];
	let hwmResetEverywhere = true;
	const modes =
		isN8nInstalled() && !ctx.smoke
			? MEMORY_MODES
			: MEMORY_MODES.filter((m) => !m.startsWith('peer-'));
	const dir = mkdtempSync(path.join(tmpdir(), 'airsign-bench-'));
	const warmFile = path.join(dir, 'warm.pdf');
	writeFileSync(warmFile, pdf(16 * 1024));
	try {
		for (const size of sizes) {
			const file = path.join(dir, `bench-${size.bytes}.pdf`);
			writeFileSync(file, pdf(size.bytes));
			// Wall time, in this process.
			const upload = uploadCase(ctx, undefined, () => readFileSync(file));
			const times = await rotate(ctx.runs, { node: upload.ours, raw: upload.fetch }, true);
			const { nodeMs, rawMs, cells } = nodeVsRaw(times.node, times.raw);
			timeRows.push([size.label, size.bytes.toLocaleString('en-US'), ...cells]);
			log(`upload ${size.label}: node ${fmtOf(nodeMs)} ms, raw ${fmtOf(rawMs)} ms`);
			const base = { operation: 'upload', size: size.key, latencyMs: 0, measure: 'ms' };
			const unit = 'ms';
			record({ ...base, unit, mode: 'default', client: 'node' }, nodeMs);
			record({ ...base, unit, mode: 'default', client: 'raw' }, rawMs);

			// Peak memory, one fresh process per measurement.
			for (const count of ctx.smoke ? [1] : [1, 5])
				for (const small of ctx.smoke ? [true] : [true, false]) {
					const input = { file, warmFile, bytes: size.bytes, count, runs: ctx.smoke ? 1 : 3 };
					const { perMode, hwmReset } = await peaksPerFile(ctx, modes, input, small);
					hwmResetEverywhere &&= hwmReset;
					const young = small ? 'semi-space 1 MiB' : "V8's defaults";
					const cells = MEMORY_MODES.map((m) => (perMode.has(m) ? fmtOf(perMode.get(m)!, 2) : '–'));
					memoryRows.push([size.label, String(count), young, ...cells]);
					const measure = `peak-above-idle-per-file-size/${small ? 'semi1' : 'v8default'}`;
					for (const [mode, values] of perMode) {
						const [client, binaryMode = 'none'] = mode.split('-');
						const who = `${client === 'peer' ? 'httpRequest' : client}/x${count}`;
						record(
							{ ...base, mode: binaryMode, client: who, measure, unit: 'x file size' },
							values,
						);
					}
					log(
						`upload ${size.label} memory, ${count} at once, ${young}: ${[...perMode].map(([m, v]) => `${m} ${fmtOf(v, 2)}×`).join(', ')}`,
					);
				}
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
	return {
		title: '2. Upload File',
		markdown: [
			table(
				'file | bytes | node, whole workflow (ms) | node execute() (ms) | raw: read + base64 + POST (ms) | workflow / raw | execute / raw',
				timeRows,
			),
			'',
			'The whole workflow includes the harness input node turning the buffer into n8n binary data (`prepareBinaryData`, base64 in the default binary mode); `execute()` is the upload itself: read the binary, check it, encode, POST.',
			'',
			`Peak resident memory above idle, divided by the file size (one fresh process per measurement${ctx.smoke ? '' : ', 3 processes per cell'}; "at once": that many uploads in one execution, the node with Items at Once at that number, raw with as many in flight, HTTP Request with that many items). Young generation: \`node --max-semi-space-size=1\` (smaller than the file: chunks already sent are collected as the upload goes) and V8's defaults (they stay in RSS as garbage until the next scavenge):`,
			'',
			table(
				'file | at once | young generation | raw client (read, base64, POST) | node, filesystem mode (n8n 2 default) | node, default mode (n8n 1.x in-memory) | HTTP Request, filesystem mode (Extract From File → HTTP Request: 2 nodes) | HTTP Request, default mode (1 node, base64 by expression)',
				memoryRows,
			),
			'',
			hwmResetEverywhere
				? 'Measured as VmHWM − VmRSS from /proc/self/status, the high-water mark reset (clear_refs 5) after gc() at the idle point: for the node, first thing in its execute(), when n8n already holds the input item (in "default" mode its base64 text sits in the item); for the raw client, before it reads the file.'
				: 'Note: this kernel did not allow resetting the high-water mark (clear_refs), so peaks are lifetime peaks of the child: upper bounds.',
		].join('\n'),
	};
}
