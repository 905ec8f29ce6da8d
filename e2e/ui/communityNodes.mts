// The UI tier's community-package check: the package installed the way n8n users install it, in
// Settings → Community Nodes, from a real npm registry (Verdaccio on loopback), on the n8n of
// AIRSIGN_E2E_N8N (1 or 2). Install → the nodes in the nodes panel → a workflow runs against the
// sandbox → 0.1.1 published → n8n offers the update and installs it → the workflow still runs →
// uninstall → the nodes are gone and the workflow's node says it is not installed.
//
//   [AIRSIGN_E2E_N8N=1|2] npx tsx e2e/ui/communityNodes.mts --tarball f.tgz [--shots DIR] [--keep]
//     --shots  save the install and update dialogs there, light and dark (the UI tier: n8n 2.x)
//
// n8n runs as a user's does, with its default registry https://registry.npmjs.org: its npm reaches
// that host through lib/npmjsRoute.mts (the route the queue-mode tier installs by), which hands
// it to the local registry. See e2e/README.md ("Community Nodes").
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { DEV_OWNER, sandboxCredential } from '../lib/fixtures.mts';
import {
	PACKAGE_NAME,
	PROFILE,
	getFreePort,
	makeUserFolder,
	removeUserFolder,
	setupOwner,
	startN8n,
} from '../lib/n8n.mts';
import { routeNpmjsTo, tarballFetched, type NpmjsRoute } from '../lib/npmjsRoute.mts';
import { startRegistry, type Registry } from '../lib/registry.mts';
import { runCommand } from '../lib/proc.mts';
import { startSandboxProcess } from '../lib/sandbox.mts';
import { launchChromium, newContext } from './chromium.mts';
import { UI_TIMEOUT_MS } from './editor.mts';
import { communitySteps } from './communityPage.mts';

const argv = process.argv.slice(2);
const valueOf = (name: string): string | undefined =>
	argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined;
// (valueOf returns the same string both times)
const tarball = valueOf('--tarball') && path.resolve(valueOf('--tarball') as string);
const shotsDir = valueOf('--shots') && path.resolve(valueOf('--shots') as string);
const keep = argv.includes('--keep');
const FAILURE_DIR = path.resolve(import.meta.dirname, '..', '..', '.cache', 'ui-failures');

const t00 = Date.now();
const say = (msg: string) =>
	process.stdout.write(
		`[community ${((Date.now() - t00) / 1000).toFixed(0).padStart(4)} s] ${msg}\n`,
	);

/** The same package as `tarball` with another version: unpacked, version set, packed again. */
async function repackWithVersion(
	source: string,
	version: string,
): Promise<{ dir: string; tarball: string }> {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'airsign-repack-'));
	execFileSync('tar', ['-xzf', source, '-C', dir]);
	const manifest = path.join(dir, 'package', 'package.json');
	const json = JSON.parse(readFileSync(manifest, 'utf8'));
	json.version = version;
	writeFileSync(manifest, `${JSON.stringify(json, null, '\t')}\n`);
	const { stdout } = await runCommand(
		'npm',
		['pack', '--json', '--ignore-scripts', '--pack-destination', dir],
		{ cwd: path.join(dir, 'package'), timeoutMs: 120_000, label: 'npm pack (repacked)' },
	);
	return {
		dir,
		tarball: path.join(dir, JSON.parse(stdout.slice(stdout.indexOf('[')))[0].filename),
	};
}

/** n8n's npm fetched each version's tarball from "registry.npmjs.org", i.e. through the route. */
function assertTarballsRouted(route: NpmjsRoute, versions: string[]): void {
	const missing = versions.filter((version) => !tarballFetched(route, PACKAGE_NAME, version));
	if (missing.length)
		throw new Error(
			`no tarball of ${missing.join(', ')} through the route: ${JSON.stringify(route.requests())}; refused: ${JSON.stringify(route.refused())}`,
		);
	// what else n8n asked for: the refused hosts are its calls to api.n8n.io, unreachable here
	const asked = route.requests().map((r) => `${r.method} ${r.path} ${r.status}`);
	say(`route: ${asked.join(', ')}; refused: ${route.refused().join(', ') || 'none'}`);
}

type SandboxProcess = Awaited<ReturnType<typeof startSandboxProcess>>;

async function main(): Promise<void> {
	if (!tarball) throw new Error('--tarball f.tgz is required (npm pack of the package)');
	const current: string = JSON.parse(
		execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
	).version;
	const next = current.replace(/\d+$/, (patch) => String(Number(patch) + 1));
	const cleanups: (() => unknown)[] = [];
	let browser: Browser | undefined;
	let n8n: Awaited<ReturnType<typeof startN8n>> | undefined;
	try {
		const started = await Promise.allSettled([
			startRegistry(),
			getFreePort().then((port) => startSandboxProcess({ port })),
		]);
		for (const r of started) {
			const value = r.status === 'fulfilled' ? r.value : undefined;
			if (value) cleanups.push(() => value.stop());
		}
		const [registry, sandbox] = started.map((r) => {
			if (r.status === 'rejected') throw r.reason;
			return r.value;
		}) as [Registry, SandboxProcess];
		await registry.publish(tarball);
		const route = await routeNpmjsTo(registry.url);
		cleanups.push(() => route.stop());
		const repacked = await repackWithVersion(tarball, next);
		cleanups.push(() => rmSync(repacked.dir, { recursive: true, force: true }));
		say(`registry ${registry.url}: ${PACKAGE_NAME}@${current} published (${next} packed)`);

		const userFolder = makeUserFolder('airsign-community-');
		cleanups.push(() => !keep && removeUserFolder(userFolder));
		// n8n 1.x runs its update check (`npm outdated` in the nodes folder) with only PATH and
		// NODE_PATH of its environment: there npm finds the route in that folder's .npmrc.
		const nodesDir = path.join(userFolder, '.n8n', 'nodes');
		mkdirSync(nodesDir, { recursive: true });
		writeFileSync(path.join(nodesDir, '.npmrc'), route.npmrc);
		n8n = await startN8n({ userFolder, env: route.env });
		say(`${PROFILE.label} ready on ${n8n.url} (${(n8n.startMs / 1000).toFixed(0)} s)`);
		const { cookie } = await setupOwner(n8n.url, DEV_OWNER);
		browser = await launchChromium();
		const context = await newContext(browser, { viewport: { width: 1280, height: 800 } });
		context.setDefaultTimeout(UI_TIMEOUT_MS);
		const page = await context.newPage();
		const consoleErrors: string[] = [];
		page.on('pageerror', (e: Error) => consoleErrors.push(String(e.stack ?? e)));
		const steps = communitySteps({
			page,
			n8n,
			cookie,
			sandbox,
			userFolder,
			credential: sandboxCredential(sandbox.url),
			versions: { current, next },
			publishNext: () => registry.publish(repacked.tarball),
			shotsDir,
		});
		steps.push([
			`${steps.length + 1}. both tarballs came through the registry.npmjs.org route`,
			() => assertTarballsRouted(route, [current, next]),
		]);
		for (const [label, run] of steps) {
			const t0 = Date.now();
			try {
				await run();
				say(`ok   ${label} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
			} catch (error) {
				mkdirSync(FAILURE_DIR, { recursive: true });
				const file = path.join(
					FAILURE_DIR,
					`community-n8n${PROFILE.id}-step-${label.split('.')[0]}.png`,
				);
				await page.screenshot({ path: file, fullPage: true }).catch(() => {});
				say(`FAIL ${label}: ${error.stack ?? error}`);
				say(`     screenshot: ${file}; page URL: ${page.url()}`);
				say(`     page errors: ${consoleErrors.map((e) => e.slice(0, 300)).join('\n       ')}`);
				say(`     n8n's last output:\n${n8n.output().slice(-3000)}`);
				say(`     route's requests: ${JSON.stringify(route.requests())}`);
				say(`     registry's last output:\n${registry.output().slice(-1500)}`);
				process.exitCode = 1;
				return;
			}
		}
		say(
			`community nodes on ${PROFILE.label} passed in ${((Date.now() - t00) / 1000).toFixed(0)} s`,
		);
	} finally {
		await browser?.close();
		await n8n?.stop();
		for (const cleanup of cleanups.reverse()) await cleanup();
	}
}

main().catch((err) => {
	console.error(`[community] FAILED: ${err.stack ?? err}`);
	process.exit(1);
});
