/** 5. Package: sizes of `dist` and of what npm publishes; require times in fresh processes. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

import type { BenchContext, SectionResult } from './lib/context';
import { fmt, fmtOf, log, summarize, table } from './lib/stats';

const ROOT = path.join(__dirname, '..');

const walk = (dir: string): string[] =>
	readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((entry) => !entry.isDirectory())
		.map((entry) => path.join(entry.parentPath, entry.name));

const newestMtime = (dirs: string[]) =>
	Math.max(0, ...dirs.flatMap((dir) => walk(path.join(ROOT, dir))).map((f) => statSync(f).mtimeMs));

type Command = { name: string; script: string };

/** Wall times (ms) of each command, by spawns interleaved so drift on a noisy machine hits all alike. */
function withSpawns(commands: Command[], runs: number, warmup: number): number[][] {
	const timings = commands.map(() => [] as number[]);
	for (let run = -warmup; run < runs; run++)
		commands.forEach((command, i) => {
			const start = performance.now();
			const options = { cwd: ROOT, stdio: 'ignore', timeout: 60_000 } as const;
			const result = spawnSync(process.execPath, ['-e', command.script], options);
			if (result.status !== 0) throw new Error(`"${command.script}" failed`);
			if (run >= 0) timings[i].push(performance.now() - start);
		});
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
	const kinds: Array<[string, (f: string) => boolean]> = [
		['total (all of dist)', () => true],
		[
			'published (without .d.ts and .map: package.json "files")',
			(f) => !f.endsWith('.map') && !f.endsWith('.d.ts'),
		],
		['.js', (f) => f.endsWith('.js')],
		['.js.map', (f) => f.endsWith('.map')],
		['.d.ts', (f) => f.endsWith('.d.ts')],
		['icons, node JSON', (f) => !/\.(js|map|d\.ts)$/.test(f)],
	];
	const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
	const sizeRows = kinds.map(([label, filter]) => {
		const chosen = files.filter(filter);
		const bytes = chosen.reduce((sum, f) => sum + statSync(f).size, 0);
		return [label, String(chosen.length), `${bytes.toLocaleString('en-US')} (${kb(bytes)})`];
	});

	const modules = [
		['AirSign.node.js', './dist/nodes/AirSign/AirSign.node.js'],
		['AirSignTrigger.node.js', './dist/nodes/AirSign/AirSignTrigger.node.js'],
		['AirSignApi.credentials.js', './dist/credentials/AirSignApi.credentials.js'],
	];
	const commands = [
		{ name: 'node -e 0 (baseline)', script: '0' },
		{ name: "require('n8n-workflow')", script: "require('n8n-workflow')" },
		...modules.map(([name, file]) => ({ name, script: `require('${file}')` })),
	];
	const runs = ctx.smoke ? 2 : 20;
	const warmup = ctx.smoke ? 1 : 3;
	const timings = withSpawns(commands, runs, warmup);
	const baseline = summarize(timings[0]).median;
	const loadRows = timings.map((ms, i) => [
		commands[i].name,
		fmtOf(ms),
		i === 0 ? '–' : (summarize(ms).median - baseline).toFixed(1),
	]);

	// The package's own share, timed inside each fresh process: n8n has n8n-workflow
	// loaded before it loads a community node, so that is required first and apart.
	const own = modules.map(([name, file]) => {
		const now = 'process.hrtime.bigint()';
		const script = `const t0 = ${now}; require('n8n-workflow'); const t1 = ${now}; require('${file}'); const t2 = ${now}; console.log(JSON.stringify([Number(t1 - t0) / 1e6, Number(t2 - t1) / 1e6]));`;
		const workflowMs: number[] = [];
		const moduleMs: number[] = [];
		for (let run = 0; run < runs; run++) {
			const options = { cwd: ROOT, encoding: 'utf8', timeout: 60_000 } as const;
			const result = spawnSync(process.execPath, ['-e', script], options);
			if (result.status !== 0) throw new Error(`${name}: ${result.stderr}`);
			const [a, b] = JSON.parse(result.stdout.trim()) as [number, number];
			workflowMs.push(a);
			moduleMs.push(b);
		}
		return [name, fmtOf(moduleMs), fmtOf(workflowMs)];
	});
	log(
		`package: published ${sizeRows[1][2]}, AirSign.node.js load ${fmt(summarize(timings[2]))} ms`,
	);
	return {
		title: '5. Package',
		markdown: [
			table(['dist', 'files', 'bytes'], sizeRows),
			'',
			`Fresh \`node -e "require(…)"\` processes from the repository root, ${runs} runs each (repeated spawns, interleaved, ${warmup} warm-up rounds):`,
			'',
			table(['process', 'wall time (ms)', 'minus baseline `node -e 0` (ms)'], loadRows),
			'',
			`The package's own share, timed with \`process.hrtime\` inside fresh processes (${runs} each) that require \`n8n-workflow\` first, as n8n has it loaded before it loads a community node:`,
			'',
			table(
				['module', 'require() after n8n-workflow (ms)', "require('n8n-workflow') itself (ms)"],
				own,
			),
			...notes.flatMap((note) => ['', note]),
		].join('\n'),
	};
}
