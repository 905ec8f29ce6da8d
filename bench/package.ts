/**
 * 5. Package: size of `dist` and of what npm publishes from it (package.json "files") and
 * the time a fresh Node process needs to require the node and credential modules.
 * hyperfine when installed (`apt-get install -y hyperfine`), else repeated spawns.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { BenchContext, SectionResult } from './lib/context';
import { fmt, log, summarize, table } from './lib/stats';

const ROOT = path.join(__dirname, '..');

function walk(dir: string, out: string[] = []): string[] {
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) walk(full, out);
		else out.push(full);
	}
	return out;
}

function newestMtime(dirs: string[]): number {
	let newest = 0;
	for (const dir of dirs) {
		for (const file of walk(path.join(ROOT, dir)))
			newest = Math.max(newest, statSync(file).mtimeMs);
	}
	return newest;
}

function hasHyperfine(): boolean {
	return spawnSync('hyperfine', ['--version'], { stdio: 'ignore' }).status === 0;
}

interface Timing {
	name: string;
	ms: number[];
}

function withHyperfine(
	commands: Array<{ name: string; script: string }>,
	runs: number,
	warmup: number,
): Timing[] {
	const dir = mkdtempSync(path.join(tmpdir(), 'airsign-bench-hf-'));
	const json = path.join(dir, 'hyperfine.json');
	try {
		const args = [
			'-N',
			'--warmup',
			String(warmup),
			'--runs',
			String(runs),
			'--export-json',
			json,
			'--style',
			'none',
		];
		for (const command of commands)
			args.push('-n', command.name, `${process.execPath} -e "${command.script}"`);
		const result = spawnSync('hyperfine', args, { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
		if (result.status !== 0) throw new Error(`hyperfine failed: ${result.stderr}`);
		const parsed = JSON.parse(readFileSync(json, 'utf8')) as {
			results: Array<{ command: string; times: number[] }>;
		};
		return parsed.results.map((r) => ({ name: r.command, ms: r.times.map((s) => s * 1000) }));
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

function withSpawns(
	commands: Array<{ name: string; script: string }>,
	runs: number,
	warmup: number,
): Timing[] {
	const timings = commands.map((c) => ({ name: c.name, ms: [] as number[] }));
	// Interleaved, so drift on a noisy machine hits every command alike.
	for (let run = -warmup; run < runs; run++) {
		commands.forEach((command, i) => {
			const start = performance.now();
			const result = spawnSync(process.execPath, ['-e', command.script], {
				cwd: ROOT,
				stdio: 'ignore',
				timeout: 60_000,
			});
			const ms = performance.now() - start;
			if (result.status !== 0) throw new Error(`"${command.script}" failed`);
			if (run >= 0) timings[i].ms.push(ms);
		});
	}
	return timings;
}

export async function benchPackage(ctx: BenchContext): Promise<SectionResult> {
	const dist = path.join(ROOT, 'dist');
	const notes: string[] = [];
	if (!existsSync(path.join(dist, 'nodes/AirSign/AirSign.node.js'))) {
		log('dist is missing: npm run build');
		const build = spawnSync('npm', ['run', 'build'], {
			cwd: ROOT,
			stdio: 'inherit',
			timeout: 300_000,
		});
		if (build.status !== 0) throw new Error('npm run build failed');
	} else if (newestMtime(['nodes', 'credentials']) > newestMtime(['dist'])) {
		notes.push(
			'Note: some source file is newer than `dist`; run `npm run build` first for figures of the current code.',
		);
	}

	const files = walk(dist);
	const sizeOf = (filter: (f: string) => boolean) =>
		files.filter(filter).reduce((sum, f) => sum + statSync(f).size, 0);
	const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
	const total = sizeOf(() => true);
	const js = sizeOf((f) => f.endsWith('.js'));
	const maps = sizeOf((f) => f.endsWith('.map'));
	const dts = sizeOf((f) => f.endsWith('.d.ts'));
	const other = total - js - maps - dts;
	const sizeTable = table(
		['dist', 'files', 'bytes'],
		[
			[
				'total (all of dist)',
				String(files.length),
				`${total.toLocaleString('en-US')} (${kb(total)})`,
			],
			[
				'published (without .d.ts and .map: package.json "files")',
				String(files.filter((f) => !f.endsWith('.map') && !f.endsWith('.d.ts')).length),
				`${(js + other).toLocaleString('en-US')} (${kb(js + other)})`,
			],
			[
				'.js',
				String(files.filter((f) => f.endsWith('.js')).length),
				`${js.toLocaleString('en-US')} (${kb(js)})`,
			],
			[
				'.js.map',
				String(files.filter((f) => f.endsWith('.map')).length),
				`${maps.toLocaleString('en-US')} (${kb(maps)})`,
			],
			[
				'.d.ts',
				String(files.filter((f) => f.endsWith('.d.ts')).length),
				`${dts.toLocaleString('en-US')} (${kb(dts)})`,
			],
			[
				'icons, node JSON',
				String(files.length - files.filter((f) => /\.(js|map|d\.ts)$/.test(f)).length),
				`${other.toLocaleString('en-US')} (${kb(other)})`,
			],
		],
	);

	const commands = [
		{ name: 'node -e 0 (baseline)', script: '0' },
		{ name: "require('n8n-workflow')", script: "require('n8n-workflow')" },
		{ name: 'AirSign.node.js', script: "require('./dist/nodes/AirSign/AirSign.node.js')" },
		{
			name: 'AirSignTrigger.node.js',
			script: "require('./dist/nodes/AirSign/AirSignTrigger.node.js')",
		},
		{
			name: 'AirSignApi.credentials.js',
			script: "require('./dist/credentials/AirSignApi.credentials.js')",
		},
	];
	const runs = ctx.smoke ? 2 : 20;
	const warmup = ctx.smoke ? 1 : 3;
	const hyperfine = hasHyperfine();
	if (!hyperfine) {
		log(
			'hyperfine not found (Debian/Ubuntu: apt-get install -y hyperfine); timing with repeated spawns instead',
		);
	}
	const timings = hyperfine
		? withHyperfine(commands, runs, warmup)
		: withSpawns(commands, runs, warmup);
	const baseline = summarize(timings[0].ms).median;
	const loadRows = timings.map((t, i) => {
		const s = summarize(t.ms);
		return [t.name, fmt(s), i === 0 ? '–' : (s.median - baseline).toFixed(1)];
	});

	// The package's own share, timed inside each fresh process: n8n has n8n-workflow
	// loaded before it loads a community node, so that is required first and apart.
	const own = commands.slice(2).map((command) => {
		const module = command.script.match(/require\('([^']+)'\)/)![1];
		const script = [
			'const t0 = process.hrtime.bigint();',
			"require('n8n-workflow');",
			'const t1 = process.hrtime.bigint();',
			`require('${module}');`,
			'const t2 = process.hrtime.bigint();',
			'console.log(JSON.stringify([Number(t1 - t0) / 1e6, Number(t2 - t1) / 1e6]));',
		].join('');
		const workflowMs: number[] = [];
		const moduleMs: number[] = [];
		for (let run = 0; run < runs; run++) {
			const result = spawnSync(process.execPath, ['-e', script], {
				cwd: ROOT,
				encoding: 'utf8',
				timeout: 60_000,
			});
			if (result.status !== 0) throw new Error(`${command.name}: ${result.stderr}`);
			const [a, b] = JSON.parse(result.stdout.trim()) as [number, number];
			workflowMs.push(a);
			moduleMs.push(b);
		}
		return [command.name, fmt(summarize(moduleMs)), fmt(summarize(workflowMs))];
	});
	log(
		`package: published ${kb(js + other)}, AirSign.node.js load ${fmt(summarize(timings[2].ms))} ms`,
	);
	return {
		title: '5. Package',
		markdown: [
			sizeTable,
			'',
			`Fresh \`node -e "require(…)"\` processes from the repository root, ${runs} runs each (${hyperfine ? `hyperfine -N, ${warmup} warm-up runs` : `repeated spawns, interleaved, ${warmup} warm-up rounds; install hyperfine for finer figures: apt-get install -y hyperfine`}):`,
			'',
			table(['process', 'wall time (ms)', 'minus baseline `node -e 0` (ms)'], loadRows),
			'',
			`The package's own share, timed with \`process.hrtime\` inside fresh processes (${runs} each) that require \`n8n-workflow\` first, as n8n has it loaded before it loads a community node:`,
			'',
			table(
				['module', 'require() after n8n-workflow (ms)', "require('n8n-workflow') itself (ms)"],
				own,
			),
			...(notes.length ? ['', ...notes] : []),
		].join('\n'),
	};
}
