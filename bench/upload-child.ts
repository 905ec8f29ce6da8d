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
	mode: 'raw' | 'node-default' | 'node-filesystem' | 'peer-default';
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
	if (input.mode === 'raw') {
		const { rawUpload } = await import('./lib/raw');
		const client = { baseUrl: input.baseUrl, token: input.token };
		await rawUpload(client, 'warm.pdf', readFileSync(input.warmFile));
		markIdle();
		const bytes = readFileSync(input.file);
		const uploaded = await rawUpload(client, 'bench.pdf', bytes);
		bytesSent = uploaded.sizeBytes;
	} else if (input.mode === 'peer-default') {
		bytesSent = await peerUpload(input);
	} else {
		const engineModule = await import('./lib/engine');
		const { createEngine, runAirSign, binaryItem } = engineModule;
		const engine = await createEngine(input.baseUrl, input.clientId, input.clientSecret);
		const binaryDataMode = input.mode === 'node-filesystem' ? 'filesystem' : 'default';
		const parameters = { resource: 'file', operation: 'upload', binaryPropertyName: 'data' };
		const run = async (file: string, onStart?: () => void) =>
			await runAirSign(
				engine,
				{
					parameters,
					binaryDataMode,
					input: [
						binaryItem(readFileSync(file), { fileName: 'bench.pdf', mimeType: 'application/pdf' }),
					],
				},
				onStart,
			);
		await run(input.warmFile);
		const result = await run(input.file, markIdle);
		bytesSent = Number(result.items[0]?.json.sizeBytes);
	}
	const peak = status('VmHWM');
	process.stdout.write(`${JSON.stringify({ idle, peak, hwmReset, bytesSent })}\n`);
}

/** The HTTP Request workflow, idle taken in a pass-through node right before HTTP Request. */
async function peerUpload(input: ChildInput): Promise<number> {
	const { createEngine, binaryItem } = await import('./lib/engine');
	const { peerEnvironment, markerNode } = await import('./lib/peer-env');
	const { peerUpload: workflow } = await import('./lib/peer-workflows');
	const { runChain } = await import('./lib/workflow');
	const engine = await createEngine(input.baseUrl, input.clientId, input.clientSecret);
	const peer = await peerEnvironment(engine, input.token);
	const { chain } = workflow(peer.base, peer.credential, input.baseUrl);
	const run = async (file: string, onStart?: () => void) =>
		await runChain(
			engine.env,
			[...(onStart ? [markerNode(onStart)] : []), ...chain],
			[binaryItem(readFileSync(file), { fileName: 'bench.pdf', mimeType: 'application/pdf' })],
		);
	await run(input.warmFile);
	const result = await run(input.file, markIdle);
	return Number(result.items[0]?.json.sizeBytes);
}

main().catch((error) => {
	process.stderr.write(`${error?.stack ?? error}\n`);
	process.exitCode = 1;
});
