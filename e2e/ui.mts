// `npm run test:ui`: the nodes in n8n's editor in headless chromium against `npm run dev`, both
// themes, the Community Nodes check beside it (CONTRIBUTING.md, "The UI tier", has the options).
//   npx tsx e2e/ui.mts [--tarball f.tgz] [--themes light,dark] [--keep] [--write-images]
//                      [--only 2,4|community] [--attach N8N_URL,SANDBOX_URL] [--community 1,2|none]
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { installN8n, N8N_PROFILES, REPO_ROOT } from './install-n8n.mts';
import { packPackage } from './lib/n8n.mts';
import { ensureVerdaccio } from './lib/registry.mts';
import { runChecks, type Theme } from './ui/checks.mts';
import { ensureChromium, launchChromium } from './ui/chromium.mts';
import { startDevServer } from './ui/devServer.mts';
import { prefixed, startProcess, tsx } from './lib/proc.mts';

const argv = process.argv.slice(2);
const valueOf = (name: string): string | undefined =>
	argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined;
const isTheme = (theme: string): theme is Theme => ['light', 'dark'].includes(theme);
const themeArgs = (valueOf('--themes') ?? 'light,dark').split(',');
for (const theme of themeArgs)
	if (!isTheme(theme)) throw new Error(`--themes: unknown theme ${theme}`);
const themes = themeArgs.filter(isTheme); // every one (checked above): the filter narrows the type
const tarballArg = valueOf('--tarball');
const tarball = tarballArg && path.resolve(tarballArg);
const keep = argv.includes('--keep');
const attach = valueOf('--attach')?.split(',');
const onlyList = valueOf('--only')?.split(',');
const only = onlyList?.filter((step) => step !== 'community');
const editorChecks = !only || only.length > 0;
const community = (
	valueOf('--community') ?? (!onlyList || onlyList.includes('community') ? '1,2' : 'none')
)
	.split(',')
	.filter((id) => id !== 'none');
/** The n8n profiles by the ids the command line gives ('1', '2'). */
const n8nProfiles: Record<string, { label: string }> = N8N_PROFILES;
for (const id of community)
	if (!n8nProfiles[id]) throw new Error(`--community: no n8n profile ${id}`);

/** Where the README's and docs' pictures live: written by `npm run screenshots` only. */
const IMAGES_DIR = path.join(REPO_ROOT, 'docs', 'images');
const writeImages = argv.includes('--write-images');
// A test run takes the same pictures, into a folder of its own: the tracked ones stay as they were.
const SCREENSHOT_DIR = writeImages
	? IMAGES_DIR
	: mkdtempSync(path.join(os.tmpdir(), 'airsign-ui-'));
if (!writeImages && !keep)
	process.on('exit', () => rmSync(SCREENSHOT_DIR, { recursive: true, force: true }));
export const FAILURE_DIR = path.join(REPO_ROOT, '.cache', 'ui-failures');

const t00 = Date.now();
const say = (msg: string) =>
	process.stdout.write(`[ui ${((Date.now() - t00) / 1000).toFixed(0).padStart(4)} s] ${msg}\n`);

async function main() {
	ensureChromium(say);
	// the n8n of npm run dev, and each n8n of the Community Nodes check: instant when cached
	const profiles = [...new Set([...(editorChecks ? ['2'] : []), ...community])];
	for (const installed of await Promise.all(profiles.map((profile) => installN8n({ profile }))))
		if (!installed.skipped)
			say(`${n8nProfiles[installed.profile].label} installed into ${installed.cacheDir}`);
	mkdirSync(SCREENSHOT_DIR, { recursive: true });
	let packed: string | undefined;
	if (!tarball && community.length) packed = (await packPackage()).tarball; // one pack for all
	const theTarball = tarball ?? packed;
	// installed here once: two checks installing it at once remove each other's folder mid-install
	if (community.length) await ensureVerdaccio();
	let failed = false;
	// The Community Nodes checks run beside the editor checks (each its own n8n, sandbox, registry
	// and browser): 1.x from the start, 2.x once dev's n8n is up (two n8n 2.x starting at once
	// would only slow each other). The tier then lasts about as long as the editor checks.
	const communityRuns: Promise<{ ok: boolean }>[] = [];
	const runCommunity = (id: string) =>
		community.includes(id) && communityRuns.push(communityCheck(id, theTarball));
	try {
		runCommunity('1');
		if (editorChecks) failed = !(await editorTier(theTarball, () => runCommunity('2')));
		else runCommunity('2');
		for (const result of await Promise.all(communityRuns)) failed ||= !result.ok;
	} finally {
		if (packed) rmSync(path.dirname(packed), { recursive: true, force: true });
		if (!writeImages && keep) say(`pictures kept in ${SCREENSHOT_DIR}`);
	}
	if (!failed) failed = !checkPictures();
	if (failed) process.exit(1);
	const parts = [
		editorChecks && `editor checks (${themes.join(' and ')} theme)`,
		community.length &&
			`Community Nodes on ${community.map((id) => n8nProfiles[id].label).join(' and ')}`,
	].filter(Boolean);
	say(`UI tier passed: ${parts.join(', ')} in ${((Date.now() - t00) / 1000).toFixed(0)} s`);
}

/** The editor checks against npm run dev on n8n 2.x; `onDevReady()` once dev is up. */
async function editorTier(
	devTarball: string | undefined,
	onDevReady: () => void,
): Promise<boolean> {
	const dev = attach
		? { n8nUrl: attach[0], sandboxUrl: attach[1], output: () => '', stop: async () => {} }
		: await startDevServer({ tarball: devTarball, keep, say });
	onDevReady();
	let browser: Browser | undefined;
	let failed = false;
	try {
		browser = await launchChromium();
		for (const theme of themes) {
			const result = await runChecks({
				browser,
				theme,
				dev,
				say: (msg) => say(`${theme}: ${msg}`),
				screenshotDir: SCREENSHOT_DIR,
				failureDir: FAILURE_DIR,
				only,
			});
			failed ||= !result.ok;
			if (!result.ok) break;
		}
	} finally {
		await browser?.close();
		await dev.stop();
	}
	if (failed)
		process.stderr.write(`[ui] FAILED (n8n's last output:)\n${dev.output().slice(-3000)}\n`);
	else say(`editor checks passed (${themes.join(' and ')} theme)`);
	return !failed;
}

/**
 * After a whole run (every step, both themes, Community Nodes on 2.x): each picture in docs/images/
 * was taken again, so `npm run screenshots` renews them all.
 */
function checkPictures(): boolean {
	// written by this run (in docs/images/, the others are the pictures of an earlier one)
	const taken = readdirSync(SCREENSHOT_DIR).filter(
		(f) => f.endsWith('.png') && statSync(path.join(SCREENSHOT_DIR, f)).mtimeMs >= t00,
	);
	const whole = !only && themes.length === 2 && community.includes('2');
	if (!whole) return true;
	const missing = readdirSync(IMAGES_DIR).filter((f) => f.endsWith('.png') && !taken.includes(f));
	if (missing.length)
		process.stderr.write(
			`[ui] FAILED: pictures in docs/images/ not taken: ${missing.join(', ')}\n`,
		);
	else
		say(
			`${taken.length} pictures taken${writeImages ? ' into docs/images/' : ' (npm run screenshots saves them into docs/images/)'}`,
		);
	return missing.length === 0;
}

/** ui/communityNodes.mts on profile `id`, in a child (the n8n helpers serve one profile). */
async function communityCheck(id: string, packageTarball?: string): Promise<{ ok: boolean }> {
	// main packs one whenever the check runs: the check only narrows the type
	if (packageTarball === undefined) throw new Error('the Community Nodes check has no tarball');
	const args = ['--tarball', packageTarball];
	if (id === '2') args.push('--shots', SCREENSHOT_DIR);
	if (keep) args.push('--keep');
	const file = path.join(import.meta.dirname, 'ui', 'communityNodes.mts');
	const { exitPromise } = startProcess(process.execPath, tsx(file, args), {
		cwd: REPO_ROOT,
		env: { ...process.env, AIRSIGN_E2E_N8N: id },
		onLine: prefixed(`n8n-${id}`),
	});
	const { code, signal, ms } = await exitPromise;
	say(
		`Community Nodes on ${n8nProfiles[id].label}: ${code === 0 ? 'passed' : `FAILED (exit ${code ?? signal})`} in ${(ms / 1000).toFixed(0)} s`,
	);
	return { ok: code === 0 };
}

main().catch((err) => {
	console.error(`[ui] FAILED: ${err.stack ?? err}`);
	process.exit(1);
});
