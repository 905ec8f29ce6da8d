/**
 * `npm run bench`: the node against raw HTTP clients and n8n's HTTP Request node, in one process
 * against the in-process sandbox; writes bench/RESULTS.md and bench/results.json. Options:
 * --smoke (or BENCH_SMOKE=1: tiny, one run, nothing written), --only=list,upload,send,trigger,
 * package,peer,bulk (merged into results.json), --cases=upload@100,1000@250,extras,burst (printed
 * only), --runs=N (default 5), --docs (docs/performance.md and the README's lines from results.json).
 * Nothing asserts timings; only wrong results fail.
 */
import './lib/engine'; // first: n8n's environment before anything else loads n8n-core

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { startSandbox } from '../sandbox';
import type { BenchContext, SectionResult } from './lib/context';
import { createEngine } from './lib/engine';
import { ANALYSIS } from './lib/notes';
import { log, recordedFigures, type Figure } from './lib/stats';
import { benchBulk, BULK_SIZES, BULK_SMOKE_SIZES } from './bulk';
import { benchList, benchSend } from './nodeVsRaw';
import { writePerformanceDocs } from './lib/performance-doc';
import { benchPackage } from './package';
import { benchPeer, PEER_SIZES, PEER_SMOKE_SIZES } from './peer';
import { benchTrigger } from './trigger';
import { benchUpload } from './upload';

const args = process.argv.slice(2);
const smoke =
	args.includes('--smoke') || ['1', 'true'].includes(String(process.env.BENCH_SMOKE ?? ''));
const option = (name: string) =>
	args.find((a) => a.startsWith(`--${name}=`))?.slice(`--${name}=`.length);
const only = option('only')?.split(',');
const cases = option('cases')?.split(',');
const wantsCase = (name: string) => !cases || cases.includes(name);
const runsArg = Number(option('runs'));
const runs = smoke ? 1 : Number.isInteger(runsArg) && runsArg > 0 ? runsArg : 5;
const wants = (name: string) => !only || only.includes(name);

const command = `npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`;
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
/** The machine's 1-minute load average when the bench starts: the figures depend on it. */
const loadAtStart = os.loadavg()[0];

async function main(): Promise<void> {
	const started = performance.now();
	if (args.includes('--docs')) {
		const results = JSON.parse(readFileSync(path.join(__dirname, 'results.json'), 'utf8'));
		return writePerformanceDocs(results as Parameters<typeof writePerformanceDocs>[0]);
	}
	if (!smoke && wants('peer')) {
		// Plain ESM without types (the e2e tier's installer); a no-op when the install is there.
		const installer: string = '../e2e/install-n8n.mts';
		const { installN8n } = (await import(installer)) as {
			installN8n: (options: { profile: string }) => Promise<unknown>;
		};
		await installN8n({ profile: '2' });
	}
	const sandbox = await startSandbox({ seedDemoData: false, rateLimitPerHour: 1_000_000_000 });
	const { baseUrl, demo } = sandbox;
	const engine = await createEngine(baseUrl, demo.clientId, demo.clientSecret);
	const raw = { baseUrl, token: demo.accessToken };
	const ctx: BenchContext = { sandbox, engine, raw, runs, smoke };
	const all: Record<string, () => Promise<SectionResult>> = {
		list: () => benchList(ctx, smoke ? [100, 250] : [100, 1_000, 10_000]),
		upload: () => benchUpload(ctx),
		send: () => benchSend(ctx, smoke ? 20 : 1_000),
		trigger: () => benchTrigger(ctx, smoke ? [250] : [1_000, 10_000]),
		package: () => benchPackage(ctx),
		peer: () => benchPeer(ctx, smoke ? PEER_SMOKE_SIZES : PEER_SIZES, wantsCase),
		bulk: () => benchBulk(ctx, smoke ? BULK_SMOKE_SIZES : BULK_SIZES, wantsCase),
	};
	const sections: SectionResult[] = [];
	try {
		for (const [name, section] of Object.entries(all))
			if (wants(name)) sections.push(await section());
	} finally {
		await sandbox.close();
	}
	const seconds = (performance.now() - started) / 1000;
	const report = render(sections, seconds);
	process.stdout.write(`${report}\n`);
	if (!smoke && !only && !cases) {
		writeFileSync(path.join(__dirname, 'RESULTS.md'), `${report}\n`);
		log('wrote bench/RESULTS.md');
	}
	if (!smoke && !cases) writeResults(seconds);
	log(`done in ${seconds.toFixed(1)} s${smoke ? ' (smoke)' : ''}`);
}

/** Every figure by name; a run of some sections replaces only its own figures. */
function writeResults(seconds: number): void {
	const file = path.join(__dirname, 'results.json');
	const previous =
		only && existsSync(file)
			? (JSON.parse(readFileSync(file, 'utf8')) as { figures: Figure[] }).figures
			: [];
	const fresh = recordedFigures();
	const names = new Set(fresh.map((figure) => figure.name));
	const figures = [...previous.filter((figure) => !names.has(figure.name)), ...fresh].sort((a, b) =>
		a.name.localeCompare(b.name),
	);
	const results = {
		date: new Date().toISOString(),
		command,
		machine: `${os.availableParallelism()} cores, ${cpu}, Node ${process.version}, load average ${loadAtStart.toFixed(1)} at the start and ${os.loadavg()[0].toFixed(1)} at the end`,
		runs,
		seconds: Math.round(seconds),
		figures,
	};
	writeFileSync(file, `${JSON.stringify(results, null, '\t')}\n`);
	log(`wrote bench/results.json (${figures.length} figures)`);
	writePerformanceDocs(results);
	log('wrote docs/performance.md and the Performance lines of README.md');
}

function render(sections: SectionResult[], seconds: number): string {
	return [
		'# Benchmarks',
		'',
		`- date: ${new Date().toISOString().slice(0, 10)}`,
		`- machine: ${os.cpus().length} cores (nproc ${os.availableParallelism()}), ${cpu}, Node ${process.version}, ${os.platform()} ${os.release()}; 1-minute load average ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end`,
		`- reproduce: \`${command}\` (${runs} measured run${runs === 1 ? '' : 's'} per case after a warm-up; the whole bench took ${seconds.toFixed(0)} s)`,
		'- cells: median (min–max) over the runs. Ratios are taken within a run (node and raw side by side, order alternating), then summarised.',
		'- "node, whole workflow": n8n-core `WorkflowExecute` running a two-node workflow (input node → AirSign); "execute()": the AirSign node\'s own `execute()` inside that run. "raw": Node\'s `fetch` (Upload: `node:http`) doing the same HTTP calls in the same process against the same in-process sandbox.',
		'',
		...sections.flatMap((section) => [`## ${section.title}`, '', section.markdown, '']),
		...(only ? [] : [ANALYSIS]),
	].join('\n');
}

// Exit explicitly: n8n-core's runtime may keep timers or sockets alive after the work is done.
main().then(
	() => process.exit(process.exitCode ?? 0),
	(error) => {
		process.stderr.write(`${error?.stack ?? error}\n`);
		process.exit(1);
	},
);
