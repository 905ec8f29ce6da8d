#!/usr/bin/env node
// `npm run test:ui`: the nodes in n8n's editor, in a real browser (Debian's chromium driven by
// playwright-core, headless), against the n8n of `npm run dev`, in the light and the dark theme.
// See e2e/README.md ("UI tier").
//
//   node e2e/ui.mjs [--tarball f.tgz] [--themes light,dark] [--keep]
//     --tarball  install this packed tarball (npm run check passes the real-n8n tier's); default:
//                dev builds and packs
//     --themes   which themes to run (default both)
//     --keep     keep the temporary n8n user folder
//     --only 2,4 run only these steps (and the login); screenshots of skipped steps stay as they were
//     --attach N8N_URL,SANDBOX_URL
//                run the checks against an `npm run dev` already running (it adds a draft and
//                credentials there) instead of starting one
//
// Screenshots of the node panel, the credential dialog and an output go to docs/images/ (shown in
// the README); when a step fails, a screenshot of the page and its console errors go to
// .cache/ui-failures/ and the tier exits 1.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { installN8n, REPO_ROOT } from './install-n8n.mjs';
import { runChecks } from './ui/checks.mjs';
import { ensureChromium, launchChromium } from './ui/chromium.mjs';
import { startDevServer } from './ui/devServer.mjs';

const argv = process.argv.slice(2);
const valueOf = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const themes = (valueOf('--themes') ?? 'light,dark').split(',');
for (const theme of themes)
	if (!['light', 'dark'].includes(theme)) throw new Error(`--themes: unknown theme ${theme}`);
const tarball = valueOf('--tarball') && path.resolve(valueOf('--tarball'));
const keep = argv.includes('--keep');
const attach = valueOf('--attach')?.split(',');
const only = valueOf('--only')?.split(',');

export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'docs', 'images');
export const FAILURE_DIR = path.join(REPO_ROOT, '.cache', 'ui-failures');

const t00 = Date.now();
const say = (msg) =>
	process.stdout.write(`[ui ${((Date.now() - t00) / 1000).toFixed(0).padStart(4)} s] ${msg}\n`);

async function main() {
	ensureChromium(say);
	const installed = await installN8n(); // the n8n of npm run dev: instant when cached
	if (!installed.skipped) say('n8n installed into .cache/n8n');
	mkdirSync(SCREENSHOT_DIR, { recursive: true });
	const dev = attach
		? { n8nUrl: attach[0], sandboxUrl: attach[1], output: () => '', stop: async () => {} }
		: await startDevServer({ tarball, keep, say });
	let browser;
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
	if (failed) {
		process.stderr.write(`[ui] FAILED (n8n's last output:)\n${dev.output().slice(-3000)}\n`);
		process.exit(1);
	}
	say(
		`UI tier passed (${themes.join(' and ')} theme) in ${((Date.now() - t00) / 1000).toFixed(0)} s`,
	);
}

main().catch((err) => {
	console.error(`[ui] FAILED: ${err.stack ?? err}`);
	process.exit(1);
});
