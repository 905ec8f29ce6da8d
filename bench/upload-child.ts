/**
 * One memory measurement of an upload in a fresh process (spawned by upload.ts with
 * --expose-gc). Prints one JSON line: idle and peak resident memory in bytes.
 *
 * Idle: after loading everything and one small warm-up upload, right before the
 * measured work (for the node: first thing in its execute(), when n8n already holds
 * the input item); gc() first, then the kernel's high-water mark is reset
 * (/proc/self/clear_refs "5"), so the peak that follows is the measured work's own.
 */
import { readFileSync, writeFileSync } from 'node:fs';

interface ChildInput {
	mode: 'raw' | 'node-default' | 'node-filesystem' | 'peer-default' | 'peer-filesystem';
	/** Uploads at once: the node with Items at Once at this, raw with as many in flight. */
	count: number;
	file: string;
	warmFile: string;
	baseUrl: string;
	token: string;
	clientId: string;
	clientSecret: string;
}

function status(field: 'VmRSS' | 'VmHWM'): number {
	const match = readFileSync('/proc/self/status', 'utf8').match(
		new RegExp(`${field}:\\s+(\\d+) kB`),
	);
	return match ? Number(match[1]) * 1024 : Number.NaN;
}

let idle = Number.NaN;
let hwmReset = false;
function markIdle(): void {
	(globalThis as { gc?: () => void }).gc?.();
	try {
		writeFileSync('/proc/self/clear_refs', '5');
		hwmReset = true;
	} catch {
		hwmReset = false;
	}
	idle = status('VmRSS');
}

async function main(): Promise<void> {
	const input = JSON.parse(process.env.BENCH_UPLOAD_CHILD ?? '{}') as ChildInput;
	let bytesSent = 0;
	const count = input.count ?? 1;
	if (input.mode === 'raw') {
		const { rawUpload } = await import('./lib/raw');
		const client = { baseUrl: input.baseUrl, token: input.token };
		await rawUpload(client, 'warm.pdf', readFileSync(input.warmFile));
		markIdle();
		const uploaded = await Promise.all(
			Array.from({ length: count }, async () =>
				rawUpload(client, 'bench.pdf', readFileSync(input.file)),
			),
		);
		bytesSent = Math.min(...uploaded.map((u) => Number(u.sizeBytes)));
	} else if (input.mode.startsWith('peer-')) {
		bytesSent = await peerUpload(input, count);
	} else {
		const engineModule = await import('./lib/engine');
		const { createEngine, runAirSign, binaryItem } = engineModule;
		const engine = await createEngine(input.baseUrl, input.clientId, input.clientSecret);
		const binaryDataMode = input.mode === 'node-filesystem' ? 'filesystem' : 'default';
		const parameters = {
			resource: 'file',
			operation: 'upload',
			binaryPropertyName: 'data',
			options: { itemsAtOnce: count },
		};
		const run = async (file: string, items: number, onStart?: () => void) =>
			await runAirSign(
				engine,
				{
					parameters,
					binaryDataMode,
					input: Array.from({ length: items }, () =>
						binaryItem(readFileSync(file), { fileName: 'bench.pdf', mimeType: 'application/pdf' }),
					),
				},
				onStart,
			);
		await run(input.warmFile, count);
		const result = await run(input.file, count, markIdle);
		bytesSent = Math.min(...result.items.map((item) => Number(item.json.sizeBytes)));
	}
	const peak = status('VmHWM');
	process.stdout.write(`${JSON.stringify({ idle, peak, hwmReset, bytesSent })}\n`);
}

/** The HTTP Request workflow, idle taken in a pass-through node right before it. */
async function peerUpload(input: ChildInput, count: number): Promise<number> {
	const { createEngine, binaryItem } = await import('./lib/engine');
	const { peerEnvironment, markerNode } = await import('./lib/peer-env');
	const workflows = await import('./lib/peer-workflows');
	const { runChain } = await import('./lib/workflow');
	const engine = await createEngine(input.baseUrl, input.clientId, input.clientSecret);
	const peer = await peerEnvironment(engine, input.token);
	const filesystem = input.mode === 'peer-filesystem';
	const { chain } = (filesystem ? workflows.peerUploadFromStorage : workflows.peerUpload)(
		peer.base,
		peer.credential,
		input.baseUrl,
	);
	const run = async (file: string, onStart?: () => void) =>
		await runChain(
			engine.env,
			[...(onStart ? [markerNode(onStart)] : []), ...chain],
			Array.from({ length: count }, () =>
				binaryItem(readFileSync(file), { fileName: 'bench.pdf', mimeType: 'application/pdf' }),
			),
			filesystem ? 'filesystem' : 'default',
		);
	await run(input.warmFile);
	const result = await run(input.file, markIdle);
	return Math.min(...result.items.map((item) => Number(item.json.sizeBytes)));
}

main().catch((error) => {
	process.stderr.write(`${error?.stack ?? error}\n`);
	process.exitCode = 1;
});
