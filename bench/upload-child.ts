/**
 * One upload's memory in a fresh process (--expose-gc), one JSON line out. Idle: after a warm-up,
 * right before the measured work; gc(), then the high-water mark reset (/proc/self/clear_refs "5").
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** `peer-default`: HTTP Request with the base64 by expression (1.x's mode); `peer-filesystem`: n8n 2's two nodes. */
export type Mode = 'raw' | 'node-default' | 'node-filesystem' | 'peer-default' | 'peer-filesystem';

export interface ChildInput {
	mode: Mode;
	/** Uploads at once: the node with Items at Once at this, raw with as many in flight. */
	count: number;
	file: string;
	warmFile: string;
	baseUrl: string;
	token: string;
	clientId: string;
	clientSecret: string;
}

export interface ChildResult {
	idle: number;
	peak: number;
	hwmReset: boolean;
	bytesSent: number;
}

function status(field: 'VmRSS' | 'VmHWM'): number {
	const kB = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'));
	return kB ? Number(kB[1]) * 1024 : Number.NaN;
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

/** `count` uploads of `file`, warmed up with `warmFile`; the smallest size stored. */
async function uploads(input: ChildInput): Promise<number> {
	const { count } = input;
	if (input.mode === 'raw') {
		const { rawUpload } = await import('./lib/raw');
		const client = { baseUrl: input.baseUrl, token: input.token };
		const upload = (file: string) => rawUpload(client, 'bench.pdf', readFileSync(file));
		await upload(input.warmFile);
		markIdle();
		const uploaded = await Promise.all(Array.from({ length: count }, () => upload(input.file)));
		return Math.min(...uploaded.map((u) => Number(u.sizeBytes)));
	}
	const { createEngine, runAirSign, runChain, binaryItem } = await import('./lib/engine');
	const engine = await createEngine(input.baseUrl, input.clientId, input.clientSecret);
	const binaryDataMode = input.mode.endsWith('-filesystem') ? 'filesystem' : 'default';
	const items = (file: string) =>
		Array.from({ length: count }, () =>
			binaryItem(readFileSync(file), { fileName: 'bench.pdf', mimeType: 'application/pdf' }),
		);
	let run: (
		file: string,
		onStart?: () => void,
	) => Promise<Array<{ json: { sizeBytes?: unknown } }>>;
	if (input.mode.startsWith('peer-')) {
		// The HTTP Request workflow, idle taken in a pass-through node right before it.
		const workflows = await import('./lib/peer-workflows');
		const peer = await workflows.peerEnvironment(engine, input.token, input.baseUrl);
		const build =
			binaryDataMode === 'filesystem' ? workflows.peerUploadFromStorage : workflows.peerUpload;
		const { chain } = build(peer);
		run = async (file, onStart) => {
			const marker = workflows.benchNode('Mark', async function () {
				onStart?.();
				return [this.getInputData()];
			});
			return await runChain(engine.env, [marker, ...chain], items(file), binaryDataMode);
		};
	} else {
		const parameters = {
			resource: 'file',
			operation: 'upload',
			binaryPropertyName: 'data',
			options: { itemsAtOnce: count },
		};
		run = async (file, onStart) =>
			(await runAirSign(engine, { parameters, binaryDataMode, input: items(file) }, onStart)).items;
	}
	await run(input.warmFile);
	const result = await run(input.file, markIdle);
	return Math.min(...result.map((item) => Number(item.json.sizeBytes)));
}

const input = JSON.parse(process.env.BENCH_UPLOAD_CHILD ?? '{}') as ChildInput;
uploads(input).then(
	(bytesSent) => {
		const peak = status('VmHWM');
		process.stdout.write(`${JSON.stringify({ idle, peak, hwmReset, bytesSent })}\n`);
	},
	(error) => {
		process.stderr.write(`${error?.stack ?? error}\n`);
		process.exitCode = 1;
	},
);
