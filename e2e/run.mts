// `npm run test:e2e`: the end-to-end tier against a real n8n (e2e/README.md says what each part
// checks). Installs both n8n versions when missing, packs once (or takes --tarball), then runs its
// parts side by side, each a child process with its own n8n user folders, sandboxes and ports, and
// prints a summary with times; exits 1 if anything failed.
//
//   npx tsx e2e/run.mts [--keep] [--tarball f.tgz]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { N8N_PROFILES, installN8n, REPO_ROOT } from './install-n8n.mts';
import { packageTarball } from './lib/fixtures.mts';
import { getFreePort } from './lib/n8n.mts';
import { describeExit, prefixed, startProcess, tsx } from './lib/proc.mts';

const keep = process.argv.includes('--keep');
const extra = keep ? ['--keep'] : [];
const tarballArg = process.argv.includes('--tarball')
	? process.argv[process.argv.indexOf('--tarball') + 1]
	: undefined;
const t00 = Date.now();
const secs = (ms: number) => (ms / 1000).toFixed(1);

/** The tier's summary, one line each: whether it passed, its time, a note. */
const summary: { name: string; ok: boolean; ms: number; note?: string }[] = [];

/**
 * `node <file> <args>` (a file of e2e/ or scripts/) on n8n `profile`, each output line prefixed with
 * `name`, and its line in the summary: passed if it exited 0 and `fault(output)` finds nothing.
 * Stopped after 20 minutes, a hang: each part bounds its own waits below that.
 */
async function part(
	label: string,
	[name, file, ...args]: string[],
	{ profile = '2', fault }: { profile?: string; fault?: (out: string) => string | undefined } = {},
): Promise<boolean> {
	const run = startProcess(process.execPath, tsx(path.join(REPO_ROOT, file), args), {
		cwd: REPO_ROOT,
		env: { ...process.env, AIRSIGN_E2E_N8N: profile },
		keep: Infinity,
		onLine: prefixed(name),
		timeoutMs: 20 * 60_000,
		graceMs: 20_000,
	});
	await run.process; // its output whole
	const { code, signal, ms } = await run.exitPromise;
	if (code !== 0) prefixed(name)(`ended: ${describeExit({ code, signal })}`);
	const note = fault?.(run.output());
	summary.push({ name: label, ok: code === 0 && !note, ms, note });
	return code === 0 && !note;
}

/** `npm run dev --smoke` in a new folder, then `--setup-only` there: it must reuse that setup. */
async function devTwice(tarball: string) {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'airsign-dev-e2e-'));
	try {
		// the same ports both times, as with the default 5678/8787 (another sandbox port would rightly
		// re-import the credential, whose Base URL names it)
		const args = ['scripts/dev.mts', '--dir', dir, '--tarball', tarball];
		for (const option of ['--port', '--sandbox-port', '--model-port'])
			args.push(option, String(await getFreePort()));
		const dev = (name: string, mode: string) => [name, ...args, mode];
		const first = 'npm run dev --smoke, first start (install + imports + owner)';
		if (!(await part(first, dev('dev#1', '--smoke')))) return;
		// n8n ran on this very state in the first start, which also logged in as a later start does
		const second = 'npm run dev --setup-only, second start (reuses package + imports)';
		await part(second, dev('dev#2', '--setup-only'), {
			fault: (out) =>
				/package unchanged/.test(out) &&
				/credential .* already imported/.test(out) &&
				/example workflows already imported/.test(out)
					? undefined
					: 'the second start reinstalled or re-imported',
		});
	} finally {
		if (keep) console.log(`[e2e] kept ${dir}`);
		else rmSync(dir, { recursive: true, force: true });
	}
}

let cleanup: (() => void) | undefined;
try {
	await Promise.all(
		Object.keys(N8N_PROFILES).map(async (profile) => {
			const t0 = Date.now();
			const { cacheDir, skipped } = await installN8n({ profile });
			summary.push({
				name: `install ${N8N_PROFILES[profile as '1' | '2'].label} into ${path.relative(REPO_ROOT, cacheDir)}${skipped ? ' (cached)' : ''}`,
				ok: true,
				ms: Date.now() - t0,
			});
		}),
	);
	const t0 = Date.now();
	const { tarball, files, ...packed } = await packageTarball(tarballArg);
	cleanup = packed.cleanup;
	summary.push({
		name: tarballArg ? `the given ${path.basename(tarball)}` : 'npm run build + npm pack',
		ok: true,
		ms: Date.now() - t0,
		note: `${files.length} files`,
	});
	const e2e = (name: string, file: string, ...args: string[]) => [
		name,
		`e2e/${file}`,
		'--tarball',
		tarball,
		...args,
		...extra,
	];
	const [v1, v2] = [N8N_PROFILES[1].label, N8N_PROFILES[2].label];
	const scenarios = (v: string) => `scenarios a–l, q and agent checks n–s on ${v} (summary above)`;
	await Promise.all([
		part(scenarios(v2), e2e('scenarios', 'scenarios.mts')),
		part(scenarios(v1), e2e('n8n-1', 'scenarios.mts'), { profile: '1' }),
		part(
			`scenario d on ${v2}'s database-backed poll scheduler (summary above)`,
			e2e('scheduler', 'scenarios.mts', '--scheduler'),
		),
		devTwice(tarball),
	]);
} catch (err) {
	summary.push({ name: 'setup', ok: false, ms: 0, note: String(err.stack ?? err) });
} finally {
	cleanup?.();
}

console.log('\n[e2e] tier summary');
for (const r of summary)
	console.log(
		`  ${r.ok ? 'PASS' : 'FAIL'}  ${secs(r.ms).padStart(6)} s  ${r.name}${r.note ? `  (${r.note})` : ''}`,
	);
// installs (2), build + pack, three scenario runs, dev twice
const failed = summary.some((r) => !r.ok) || summary.length < 8;
console.log(`  ${failed ? 'FAILED' : 'ALL PASSED'} in ${secs(Date.now() - t00)} s`);
process.exit(failed ? 1 : 0);
