// `npm run test:ui`: the nodes in n8n's editor in headless chromium against `npm run dev`, both
// themes, the Community Nodes check beside it (CONTRIBUTING.md, "The UI tier", has the options).
//   npx tsx e2e/ui.mts [--tarball f.tgz] [--themes light,dark] [--keep] [--write-images]
//                      [--only 2,4|community] [--attach N8N_URL,SANDBOX_URL] [--community 1,2|none]
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { installN8n, N8N_PROFILES, REPO_ROOT } from './install-n8n.mts';
import { DEV_OWNER, packageTarball } from './lib/fixtures.mts';
import { getFreePort, makeUserFolder } from './lib/n8n.mts';
import { prefixed, startProcess, startServer, tsx } from './lib/proc.mts';
import { ensureVerdaccio } from './lib/registry.mts';
import { sandboxClient } from './lib/sandbox.mts';
import { ensureChromium, launchChromium } from './ui/chromium.mts';
import {
	fail,
	logIn,
	newPage,
	runSteps,
	stopwatch,
	type DevUrls,
	type Shot,
	type Step,
	type Theme,
} from './ui/editor.mts';
import { agentTool, agentWorkflowPicture, nodePanel } from './ui/nodePanel.mts';
import { credentialDialog, sendEveryDraft } from './ui/sandboxSteps.mts';
import { fetchTestEvent, pickTriggerEvent, schemaBeforeRun } from './ui/triggerSteps.mts';

const argv = process.argv.slice(2);
const valueOf = (name: string): string | undefined =>
	argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined;
const isTheme = (theme: string): theme is Theme => ['light', 'dark'].includes(theme);
const themes = (valueOf('--themes') ?? 'light,dark')
	.split(',')
	.map((theme) => (isTheme(theme) ? theme : fail(`--themes: unknown theme ${theme}`)));
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
const say = stopwatch('ui');

async function main() {
	ensureChromium(say);
	// the n8n of npm run dev, and each n8n of the Community Nodes check: instant when cached
	const profiles = [...new Set([...(editorChecks ? ['2'] : []), ...community])];
	for (const installed of await Promise.all(profiles.map((profile) => installN8n({ profile }))))
		if (!installed.skipped)
			say(`${n8nProfiles[installed.profile].label} installed into ${installed.cacheDir}`);
	mkdirSync(SCREENSHOT_DIR, { recursive: true });
	// one pack for all (without a --tarball, dev alone builds its own)
	const given = valueOf('--tarball');
	const packed = given || community.length ? await packageTarball(given) : undefined;
	// installed here once: two checks installing it at once remove each other's folder mid-install
	if (community.length) await ensureVerdaccio();
	let failed = false;
	// The Community Nodes checks run beside the editor checks (each its own n8n, sandbox, registry
	// and browser): 1.x from the start, 2.x once dev's n8n is up (two n8n 2.x starting at once
	// would only slow each other). The tier then lasts about as long as the editor checks.
	const communityRuns: Promise<boolean>[] = [];
	const runCommunity = (id: string) =>
		community.includes(id) && communityRuns.push(communityCheck(id, packed!.tarball));
	try {
		runCommunity('1');
		if (editorChecks) failed = !(await editorTier(packed?.tarball, () => runCommunity('2')));
		else runCommunity('2');
		failed ||= (await Promise.all(communityRuns)).includes(false);
	} finally {
		packed?.cleanup();
		if (!writeImages && keep) say(`pictures kept in ${SCREENSHOT_DIR}`);
	}
	if (!failed) failed = !checkPictures();
	if (failed) process.exit(1);
	const parts = [
		editorChecks && `editor checks (${themes.join(' and ')} theme)`,
		community.length &&
			`Community Nodes on ${community.map((id) => n8nProfiles[id].label).join(' and ')}`,
	].filter(Boolean);
	say(`UI tier passed: ${parts.join(', ')} in ${say.seconds()} s`);
}

/** The editor checks against npm run dev on n8n 2.x; `onDevReady()` once dev is up. */
async function editorTier(
	devTarball: string | undefined,
	onDevReady: () => void,
): Promise<boolean> {
	const dev = attach
		? { n8nUrl: attach[0], sandboxUrl: attach[1], output: () => '', stop: async () => {} }
		: await startDevServer(devTarball);
	onDevReady();
	let browser: Browser | undefined;
	let failed = false;
	try {
		browser = await launchChromium();
		for (const theme of themes) {
			failed = !(await runChecks(browser, theme, dev, (msg) => say(`${theme}: ${msg}`)));
			if (failed) break;
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

/** The checks in one theme: what a new user does with the AirSign nodes in n8n's editor. */
async function runChecks(browser: Browser, theme: Theme, dev: DevUrls, say: (msg: string) => void) {
	const page = await newPage(browser, { viewport: { width: 1440, height: 900 }, theme });
	const sandbox = sandboxClient(dev.sandboxUrl);
	// animations finished at once: a panel sliding in is pictured as it ends up
	const shot: Shot = (name) =>
		page.screenshot({
			path: path.join(SCREENSHOT_DIR, `${name}-${theme}.png`),
			animations: 'disabled',
		});

	const steps: Step[] = [
		['1. log in with the dev owner account', () => logIn(page, dev.n8nUrl, DEV_OWNER)],
		['theme applied', () => expectTheme(page, theme)],
		[
			'2. the AirSign node from the nodes panel: every operation, its fields, hints and notices',
			() => nodePanel(page, dev, theme, shot, say),
		],
		[
			'3. the credential dialog: both methods, Test against the sandbox, wrong secret and URL',
			() => credentialDialog(page, dev, sandbox, shot),
		],
		[
			'4. "AirSign: send every draft" run from the editor: invitations and mapped errors',
			() => sendEveryDraft(page, dev, sandbox, theme, shot),
		],
		["5. the trigger's Fetch Test Event shows a sample session", () => fetchTestEvent(page, dev)],
		["6. the AirSign tool in an AI Agent's tool list", () => agentTool(page, dev, shot)],
		[
			'7. the AI agent example on the canvas (picture)',
			() => agentWorkflowPicture(page, dev, shot),
		],
		[
			"8. the trigger's events: every event offered, one more picked, shown and saved",
			() => pickTriggerEvent(page, dev, theme),
		],
		[
			"9. before any run, a node's input shows the fields of the node before it (output schemas)",
			() => schemaBeforeRun(page, dev, theme),
		],
	];
	// --only: those steps, the login and the theme
	const chosen = steps.filter(
		([label]) => !only || /^(1|theme)/.test(label) || only.includes(label.split('.')[0]),
	);
	const ok = await runSteps(page, chosen, say, { name: theme });
	await page.context().close();
	return ok;
}

async function expectTheme(page: Page, theme: Theme): Promise<void> {
	const applied = await page.evaluate(
		() =>
			document.body.getAttribute('data-theme') ??
			document.documentElement.getAttribute('data-theme'),
	);
	if (applied !== theme) fail(`the editor shows theme ${applied}, not ${theme}`);
}

/**
 * Bounds a hung start only: dev's first start installs the package and imports (13–19 s idle), then
 * waits up to 10 minutes for n8n.
 */
const DEV_START_TIMEOUT_MS = 900_000;

/**
 * scripts/dev.mts (with `tarball` instead of its own build) on its own temporary user folder and
 * free ports, so that it never meets a developer's or another tier's; SIGTERM stops it gracefully.
 */
async function startDevServer(tarball: string | undefined) {
	const userFolder = makeUserFolder('airsign-ui-');
	const ports = new Set<number>();
	while (ports.size < 3) ports.add(await getFreePort());
	const [n8nPort, sandboxPort, modelPort] = [...ports].map(String);
	const server = await startServer(
		'npm run dev',
		process.execPath,
		tsx(path.join(REPO_ROOT, 'scripts', 'dev.mts'), [
			...['--dir', userFolder, '--port', n8nPort, '--sandbox-port', sandboxPort],
			...['--model-port', modelPort, ...(tarball ? ['--tarball', tarball] : [])],
		]),
		{
			cwd: REPO_ROOT,
			env: { ...process.env, AIRSIGN_DEV_SMOKE: '' },
			keep: 100_000,
			dir: keep ? undefined : userFolder,
			graceMs: 30_000,
			probe: async ({ output }) => /\[dev\] ready in /.test(output()),
			timeoutMs: DEV_START_TIMEOUT_MS,
		},
	);
	const urls = {
		n8nUrl: `http://127.0.0.1:${n8nPort}`,
		sandboxUrl: `http://127.0.0.1:${sandboxPort}`,
	};
	say(`npm run dev ready: n8n ${urls.n8nUrl}, sandbox ${urls.sandboxUrl}`);
	return { ...urls, output: server.output, stop: () => server.stop() };
}

/**
 * After a whole run (every step, both themes, Community Nodes on 2.x): each picture in docs/images/
 * was taken again, so `npm run screenshots` renews them all.
 */
function checkPictures(): boolean {
	if (only || themes.length !== 2 || !community.includes('2')) return true;
	// written by this run (in docs/images/, the others are the pictures of an earlier one)
	const taken = readdirSync(SCREENSHOT_DIR).filter(
		(f) => f.endsWith('.png') && statSync(path.join(SCREENSHOT_DIR, f)).mtimeMs >= say.t0,
	);
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
async function communityCheck(id: string, tarball: string): Promise<boolean> {
	const args = ['--tarball', tarball];
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
	return code === 0;
}

main().catch((err) => {
	console.error(`[ui] FAILED: ${err.stack ?? err}`);
	process.exit(1);
});
