/**
 * `npx tsx bench/triggerMemory.ts [--smoke]`: the Trigger's static data for 1,000 and 10,000
 * sessions in flight as JSON bytes, its stringify and parse medians. Fails only on wrong results.
 */
import './lib/engine'; // first: n8n's environment before anything else loads n8n-core

import { startSandbox } from '../sandbox';
import { createEngine, triggerHarness } from './lib/engine';
import { fmtOf, table } from './lib/stats';

const smoke = process.argv.includes('--smoke');
const SIZES = smoke ? [100] : [1_000, 10_000];
const RUNS = smoke ? 3 : 41;
const RECIPIENTS = [
	{ name: 'Ann Signer', email: 'ann@example.com' },
	{ name: 'Bob Signer', email: 'bob@example.com' },
];

/** Medians of RUNS timings of `work`, 3 decimals. */
function costOf(work: () => unknown): string {
	const ms = Array.from({ length: RUNS }, () => {
		const started = performance.now();
		work();
		return performance.now() - started;
	});
	return fmtOf(ms, 3);
}

async function main() {
	const sandbox = await startSandbox({ seedDemoData: false, rateLimitPerHour: 1_000_000_000 });
	try {
		sandbox.clock.freeze();
		const { baseUrl, demo } = sandbox;
		const engine = await createEngine(baseUrl, demo.clientId, demo.clientSecret);
		const rows: string[][] = [];
		for (const size of SIZES) {
			sandbox.reset();
			sandbox.clock.freeze();
			const statuses = ['draft', 'pending', 'inProgress'] as const;
			const ids = Array.from({ length: size }, (_, i) => {
				const createdAt = sandbox.clock.now() - 3_600_000 + i;
				const status = statuses[i % 3];
				const name = `In flight ${i}`;
				return sandbox.createSession({ name, status, recipients: RECIPIENTS, createdAt }).sessionId;
			});
			sandbox.clock.advance(60_000);
			const trigger = triggerHarness(engine, {
				events: ['sessionCompleted', 'recipientStatusChanged'],
			});
			sandbox.clearRequests();
			const activation = await trigger.poll();
			if (activation.error) throw activation.error;
			let pictureRequests = 0;
			for (let poll = 0; poll < 200; poll++) {
				pictureRequests += sandbox.requests.filter((r) => r.query.sortBy === 'createdAt').length;
				if (!trigger.nodeStaticData.picture) break;
				sandbox.clock.advance(60_000);
				sandbox.clearRequests();
				const result = await trigger.poll();
				if (result.error) throw result.error;
			}
			sandbox.clock.advance(60_000);
			// Ten sent sessions (not drafts: every third is one) get a signature.
			const sent = ids.filter((_, i) => i % 3 !== 0);
			for (const id of sent.slice(0, 10)) sandbox.signRecipient(id);
			sandbox.clock.advance(5_000);
			const emitting = await trigger.poll();
			if (emitting.error) throw emitting.error;
			if (emitting.items.length !== 10)
				throw new Error(`expected 10 recipient items, got ${emitting.items.length}`);

			const text = JSON.stringify(trigger.nodeStaticData);
			const bytes = Buffer.byteLength(text);
			rows.push([
				size.toLocaleString('en'),
				`${bytes.toLocaleString('en')} B (${(bytes / 1024).toFixed(1)} KiB)`,
				`${(bytes / size).toFixed(1)}`,
				String(pictureRequests),
				costOf(() => JSON.stringify(trigger.nodeStaticData)),
				costOf(() => JSON.parse(text)),
			]);
		}
		console.log(
			table(
				'sessions in flight | static data | bytes per session | picture requests | stringify ms | parse ms',
				rows,
			),
		);
		console.log(`(medians of ${RUNS} runs; node ${process.version})`);
	} finally {
		await sandbox.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
