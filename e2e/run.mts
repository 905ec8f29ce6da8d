// `npm run test:e2e`: the end-to-end tier against a real n8n (see e2e/README.md).
//
//   npx tsx e2e/run.mts [--keep] [--tarball f.tgz]
//
// 1. installs the pinned n8n versions (e2e/n8n-profiles.mts) into .cache/n8n and .cache/n8n-1,
//    side by side (once; reused afterwards)
// 2. builds and packs this package once (the tarball npm users get); --tarball: this one instead
//    (npm run check packs once for all its tiers)
// 3. runs, side by side, each in its own process with its own n8n user folders, sandboxes and free
//    ports:
//      scenarios   e2e/scenarios.mts on n8n 2.41.3: the example workflows against the sandbox,
//                  checks a–q (k, l, q: the trigger's events, on the v2 examples)
//      n8n 1.x     the same on n8n 1.123.81 (AIRSIGN_E2E_N8N=1)
//      scheduler   e2e/scenarios.mts --scheduler on n8n 2.41.3: check d on the database-backed
//                  poll scheduler with durable cursors
//      agent       e2e/agent.mts on n8n 2.41.3, then on n8n 1.123.81: the node as an AI agent's
//                  tool against a scripted OpenAI-compatible server, and the contract assistant
//      machinery   e2e/smoke.mts: built-in nodes, CLI activation of a polling trigger
//      npm run dev scripts/dev.mts --smoke, twice in one fresh folder: the second start must
//                  reuse the installed package and the imports
//    The four chains mostly wait for minute polls; every wait is bounded generously enough for a
//    busy machine.
// 4. prints a summary with timings; exits 1 if anything failed.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { N8N_PROFILES, installN8n, REPO_ROOT } from './install-n8n.mts';
import { getFreePort, packPackage } from './lib/n8n.mts';
import { describeExit, killTree } from './lib/proc.mts';

const here = path.dirname(fileURLToPath(import.meta.url));
const keep = process.argv.includes('--keep');
const tarballArg = process.argv.includes('--tarball')
	? path.resolve(process.argv[process.argv.indexOf('--tarball') + 1])
	: undefined;
// hard stop for any child, to catch a hang (each bounds itself below this; four chains and the
// other tiers share the machine)
const TIER_TIMEOUT_MS = 20 * 60_000;
const t00 = Date.now();
const secs = (ms: number) => (ms / 1000).toFixed(1);

/** One line of the tier's summary. */
interface SummaryRow {
	name: string;
	ok: boolean;
	s: number;
	note?: string;
}

/** How a child ended, its whole output (stdout and stderr) and its time. */
interface ChildResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	out: string;
	ms: number;
}

// Ctrl-C or SIGTERM: this process exits at once, and proc.mts's exit hook ends every process below
// it, the chains' n8n and sandboxes too.
const summary: SummaryRow[] = [];

/**
 * Runs `node <file> <args>` with each output line prefixed; resolves { code, signal, out, ms }.
 * The n8n profile is the child's AIRSIGN_E2E_N8N (default 2, whatever the tier itself got).
 */
function runChild(
	name: string,
	file: string,
	args: string[],
	env: Record<string, string> = { AIRSIGN_E2E_N8N: '2' },
): Promise<ChildResult> {
	return new Promise((resolve) => {
		const t0 = Date.now();
		const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
			cwd: REPO_ROOT,
			env: { ...process.env, ...env },
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		let out = '';
		const pipe = (stream: Readable, dest: NodeJS.WriteStream) => {
			let partial = '';
			stream.on('data', (chunk: Buffer) => {
				out += chunk;
				const lines = (partial + chunk).split('\n');
				partial = lines.pop()!; // split gives at least one
				for (const l of lines) dest.write(`${name.padEnd(10)}| ${l}\n`);
			});
			stream.on('end', () => partial && dest.write(`${name.padEnd(10)}| ${partial}\n`));
		};
		pipe(child.stdout, process.stdout);
		pipe(child.stderr, process.stderr);
		const timer = setTimeout(() => {
			process.stdout.write(
				`${name.padEnd(10)}| TIMEOUT after ${TIER_TIMEOUT_MS / 1000} s: killing it\n`,
			);
			killTree(child, 'SIGTERM');
			setTimeout(() => killTree(child, 'SIGKILL'), 20_000).unref();
		}, TIER_TIMEOUT_MS);
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			if (code !== 0)
				process.stdout.write(`${name.padEnd(10)}| ended: ${describeExit({ code, signal })}\n`);
			resolve({ code, signal, out, ms: Date.now() - t0 });
		});
	});
}

async function devTwice(tarball: string) {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'airsign-dev-e2e-'));
	try {
		// the same ports both times, as with the default 5678/8787 (another sandbox port would rightly
		// re-import the credential, whose Base URL names it)
		const ports = [
			'--port',
			String(await getFreePort()),
			'--sandbox-port',
			String(await getFreePort()),
			'--model-port',
			String(await getFreePort()),
		];
		const args = async () => ['--smoke', '--dir', dir, '--tarball', tarball, ...ports];
		const first = await runChild('dev#1', path.join(REPO_ROOT, 'scripts', 'dev.mts'), await args());
		summary.push({
			name: 'npm run dev --smoke, first start (install + imports + owner)',
			ok: first.code === 0,
			s: first.ms / 1000,
		});
		if (first.code !== 0) return;
		const second = await runChild(
			'dev#2',
			path.join(REPO_ROOT, 'scripts', 'dev.mts'),
			await args(),
		);
		const reused =
			/package unchanged/.test(second.out) &&
			/credential .* already imported/.test(second.out) &&
			/example workflows already imported/.test(second.out);
		summary.push({
			name: 'npm run dev --smoke, second start (reuses package + imports)',
			ok: second.code === 0 && reused,
			s: second.ms / 1000,
			note: reused ? '' : 'the second start reinstalled or re-imported',
		});
	} finally {
		if (keep) console.log(`[e2e] kept ${dir}`);
		else rmSync(dir, { recursive: true, force: true });
	}
}

let packDir: string | undefined;
try {
	await Promise.all(
		Object.keys(N8N_PROFILES).map(async (profile) => {
			const t0 = Date.now();
			const installed = await installN8n({ profile });
			summary.push({
				name: `install ${N8N_PROFILES[profile as '1' | '2'].label} into ${path.relative(REPO_ROOT, installed.cacheDir)}${installed.skipped ? ' (cached)' : ''}`,
				ok: true,
				s: (Date.now() - t0) / 1000,
			});
		}),
	);
	const t0 = Date.now();
	// a given tarball's files as npm pack lists them (tar's paths lose their `package/`)
	const { tarball, files } = tarballArg
		? {
				tarball: tarballArg,
				files: execFileSync('tar', ['-tzf', tarballArg], { encoding: 'utf8' })
					.trim()
					.split('\n')
					.map((f) => f.replace(/^package\//, '')),
			}
		: await packPackage();
	if (!tarballArg) packDir = path.dirname(tarball);
	const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
	const missing = [...pkg.n8n.credentials, ...pkg.n8n.nodes].filter(
		(f: string) => !files.includes(f),
	);
	summary.push({
		name: tarballArg ? `the given ${path.basename(tarball)}` : 'npm run build + npm pack',
		ok: !missing.length,
		s: (Date.now() - t0) / 1000,
		note: missing.length ? `tarball lacks ${missing.join(', ')}` : `${files.length} files`,
	});
	if (!missing.length) {
		const extra = keep ? ['--keep'] : [];
		const scenarios = (name: string, label: string, args: string[], env: Record<string, string>) =>
			runChild(
				name,
				path.join(here, 'scenarios.mts'),
				['--tarball', tarball, ...args, ...extra],
				env,
			).then((r) => summary.push({ name: label, ok: r.code === 0, s: r.ms / 1000 }));
		await Promise.all([
			scenarios(
				'scenarios',
				`scenarios a–l and q on ${N8N_PROFILES[2].label} (summary above)`,
				[],
				{
					AIRSIGN_E2E_N8N: '2',
				},
			),
			scenarios('n8n-1', `scenarios a–l and q on ${N8N_PROFILES[1].label} (summary above)`, [], {
				AIRSIGN_E2E_N8N: '1',
			}),
			scenarios(
				'scheduler',
				`scenario d on ${N8N_PROFILES[2].label}'s database-backed poll scheduler (summary above)`,
				['--scheduler'],
				{ AIRSIGN_E2E_N8N: '2' },
			),
			(async () => {
				// one after the other: each is about a minute, mostly n8n starting
				for (const profile of ['2', '1'] as const) {
					const r = await runChild(
						`agent-${profile}`,
						path.join(here, 'agent.mts'),
						['--tarball', tarball, ...extra],
						{ AIRSIGN_E2E_N8N: profile },
					);
					summary.push({
						name: `agent checks n, o, p, r, s on ${N8N_PROFILES[profile].label} (e2e/agent.mts)`,
						ok: r.code === 0,
						s: r.ms / 1000,
					});
				}
			})(),
			(async () => {
				const r = await runChild('machinery', path.join(here, 'smoke.mts'), [
					'--tarball',
					tarball,
					...extra,
				]);
				summary.push({
					name: 'machinery smoke (e2e/smoke.mts)',
					ok: r.code === 0 && !/package steps skipped|NOT loaded/.test(r.out),
					s: r.ms / 1000,
				});
				await devTwice(tarball);
			})(),
		]);
	}
} catch (err) {
	summary.push({ name: 'setup', ok: false, s: 0, note: String(err.stack ?? err) });
} finally {
	if (packDir) rmSync(packDir, { recursive: true, force: true });
}

console.log('\n[e2e] tier summary');
for (const r of summary)
	console.log(
		`  ${r.ok ? 'PASS' : 'FAIL'}  ${secs(r.s * 1000).padStart(6)} s  ${r.name}${r.note ? `  (${r.note})` : ''}`,
	);
// installs (2), build + pack, three scenario runs, two agent runs, machinery, dev twice
const failed = summary.some((r) => !r.ok) || summary.length < 11;
console.log(`  ${failed ? 'FAILED' : 'ALL PASSED'} in ${secs(Date.now() - t00)} s`);
process.exit(failed ? 1 : 0);
