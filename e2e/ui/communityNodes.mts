// The UI tier's Community Nodes check on the n8n of AIRSIGN_E2E_N8N (1 or 2): install from a local
// registry (through lib/registry.mts's route), run, update, uninstall (e2e/README.md, "Community Nodes").
//   [AIRSIGN_E2E_N8N=1|2] npx tsx e2e/ui/communityNodes.mts --tarball f.tgz [--shots DIR] [--keep]
// --shots: the install and update dialogs pictured there. Locators as in n8n's own page objects.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator } from 'playwright-core';
import { DEV_OWNER, chainWorkflow, sandboxCredential } from '../lib/fixtures.mts';
import {
	PACKAGE_NAME,
	PROFILE,
	getExecution,
	getFreePort,
	installedPackageDir,
	makeUserFolder,
	n8nFetch,
	removeUserFolder,
	restGet,
	restPost,
	setupOwner,
	startN8n,
	tarballManifest,
	waitForExecutions,
} from '../lib/n8n.mts';
import { routeNpmjsTo, startRegistry, tarballFetched } from '../lib/registry.mts';
import { startSandboxProcess } from '../lib/sandbox.mts';
import { launchChromium } from './chromium.mts';
import {
	THEME_STORAGE_KEY,
	byTestId,
	canvasNode,
	createWorkflow,
	fail,
	MANUAL_TRIGGER,
	logIn,
	newPage,
	openNode,
	openNodeCreatorFrom,
	openWorkflow,
	runSteps,
	stopwatch,
	type Step,
} from './editor.mts';
import { schemaBeforeRunOnN8n1 } from './triggerSteps.mts';

const argv = process.argv.slice(2);
const valueOf = (name: string): string | undefined =>
	argv.includes(name) ? path.resolve(argv[argv.indexOf(name) + 1]) : undefined;
const tarball = valueOf('--tarball');
const shotsDir = valueOf('--shots');
const keep = argv.includes('--keep');
/** Bounds an install, update or uninstall: npm pack + npm install through the local registry. */
const PACKAGE_CHANGE_TIMEOUT_MS = 300_000;
const FIND_DRAFTS = 'Find drafts';
const WORKFLOW_NAME = 'Community install: find drafts';

const say = stopwatch('community');

/** The same package as `source` with another version, unpacked into `dir` (npm publishes a folder). */
function withVersion(source: string, version: string) {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'airsign-repack-'));
	execFileSync('tar', ['-xzf', source, '-C', dir]);
	const manifest = path.join(dir, 'package', 'package.json');
	writeFileSync(
		manifest,
		JSON.stringify({ ...JSON.parse(readFileSync(manifest, 'utf8')), version }),
	);
	return { dir, folder: path.dirname(manifest) };
}

async function main(): Promise<void> {
	if (!tarball) throw new Error('--tarball f.tgz is required (npm pack of the package)');
	const current = tarballManifest(tarball).version;
	const next = current.replace(/\d+$/, (patch) => String(Number(patch) + 1));
	const cleanups: (() => unknown)[] = [];
	let browser: Browser | undefined;
	let n8n: Awaited<ReturnType<typeof startN8n>> | undefined;
	try {
		// one after the other: this check takes less time than the editor checks beside it
		const registry = await startRegistry();
		cleanups.push(() => registry.stop());
		const sandbox = await startSandboxProcess({ port: await getFreePort() });
		cleanups.push(() => sandbox.stop());
		await registry.publish(tarball);
		const route = await routeNpmjsTo(registry.url);
		cleanups.push(() => route.stop());
		const repacked = withVersion(tarball, next);
		cleanups.push(() => rmSync(repacked.dir, { recursive: true, force: true }));
		say(`registry ${registry.url}: ${PACKAGE_NAME}@${current} published (${next} ready)`);

		const userFolder = makeUserFolder('airsign-community-');
		cleanups.push(() => !keep && removeUserFolder(userFolder));
		// n8n 1.x runs its update check (`npm outdated` in the nodes folder) with only PATH and
		// NODE_PATH of its environment: there npm finds the route in that folder's .npmrc.
		const nodesDir = path.join(userFolder, '.n8n', 'nodes');
		mkdirSync(nodesDir, { recursive: true });
		writeFileSync(path.join(nodesDir, '.npmrc'), route.npmrc);
		n8n = await startN8n({ userFolder, env: route.env });
		const url = n8n.url;
		say(`${PROFILE.label} ready on ${url} (${(n8n.startMs / 1000).toFixed(0)} s)`);
		const { cookie } = await setupOwner(url, DEV_OWNER);
		browser = await launchChromium();
		const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });

		const settingsUrl = `${url}/settings/community-nodes`;
		const card = () =>
			byTestId(page, 'community-package-card').filter({ hasText: PACKAGE_NAME }).first();
		/** The package as GET /rest/community-packages lists it. */
		const listed = async () =>
			(
				await restGet<{
					data: { packageName: string; installedVersion: string; updateAvailable?: string }[];
				}>(url, '/rest/community-packages', cookie)
			).data.find((p) => p.packageName === PACKAGE_NAME);
		const expectInstalled = async (version: string) => {
			const installed = (await listed())?.installedVersion;
			if (installed !== version) fail(`installed version ${installed}, not ${version}`);
		};
		const setTheme = async (theme: string) => {
			await page.evaluate(([k, v]) => localStorage.setItem(k, v), [THEME_STORAGE_KEY, theme]);
			await page.goto(settingsUrl, { waitUntil: 'domcontentloaded' });
			await page
				.locator(`body[data-theme="${theme}"], html[data-theme="${theme}"]`)
				.first()
				.waitFor({ state: 'attached' });
		};
		/** With --shots: `open`'s dialog pictured in both themes, then the light theme back. */
		const shootDialog = async (name: string, open: () => Promise<Locator>) => {
			if (!shotsDir) return;
			for (const theme of ['light', 'dark']) {
				await setTheme(theme);
				await open();
				// animations finished at once: a dialog fading in is pictured as it ends up
				await page.screenshot({
					path: path.join(shotsDir, `community-nodes-${name}-${theme}.png`),
					animations: 'disabled',
				});
			}
			await setTheme('light');
		};
		const openInstallDialog = async () => {
			await page.goto(settingsUrl, { waitUntil: 'domcontentloaded' });
			// the empty page's "Install a community node" (the only package is installed once)
			await page
				.getByRole('button', { name: /^Install/ })
				.first()
				.click();
			const modal = byTestId(page, 'communityPackageInstall-modal');
			await modal.locator('input').first().fill(PACKAGE_NAME);
			const agreement = byTestId(page, 'user-agreement-checkbox');
			await agreement.click();
			// ticked as n8n renders it (1.x: element-plus, 2.x: its own checkbox)
			await page.waitForFunction(
				(el: Element) =>
					[el, ...Array.from(el.querySelectorAll('*'))].some(
						(e) =>
							(e as HTMLInputElement).checked === true ||
							e.getAttribute('aria-checked') === 'true' ||
							e.getAttribute('data-state') === 'checked' ||
							e.classList.contains('is-checked'),
					),
				await agreement.elementHandle(),
			);
			return modal;
		};
		const openUpdateDialog = async () => {
			await page.goto(settingsUrl, { waitUntil: 'domcontentloaded' });
			// the card offers the update once n8n's `npm outdated` sees the new version
			await card()
				.getByRole('button', { name: /update/i })
				.click();
			const modal = byTestId(page, 'communityPackageManageConfirm-modal');
			await modal.getByText('Update node package').waitFor();
			await modal.getByText(WORKFLOW_NAME).waitFor(); // the workflows the update touches
			return modal;
		};
		let workflowId = '';
		let savedCredential: { id: string; name: string } | undefined;
		let runs = 0;
		/** Runs the workflow with the editor's Execute workflow; checks the drafts it read. */
		const runFromEditor = async () => {
			const added = await sandbox.createSession({
				name: `Community install run ${runs + 1}`,
				recipients: [{ name: 'Ann Example', email: 'ann@example.com' }],
			});
			const drafts = await sandbox.listSessions({ status: 'draft' });
			await openWorkflow(page, url, workflowId);
			await byTestId(page, 'execute-workflow-button').click();
			await byTestId(canvasNode(page, FIND_DRAFTS), 'canvas-node-status-success').waitFor();
			runs += 1;
			// listed and ended (waitForExecutions): only then is its status read
			const list = await waitForExecutions(url, cookie, (l) => l.length >= runs, { workflowId });
			const exec = await getExecution(url, cookie, list[0].id);
			if (exec.status !== 'success') fail(`execution ${exec.id}: ${exec.status}`);
			const items = exec.data.resultData.runData[FIND_DRAFTS][0].data!.main![0]!;
			const got = items.map((i) => i.json.sessionId).sort();
			const want = drafts.map((d) => d.sessionId).sort();
			if (JSON.stringify(got) !== JSON.stringify(want) || !got.includes(added.sessionId))
				fail(`"${FIND_DRAFTS}" output ${JSON.stringify(got)}, the drafts ${JSON.stringify(want)}`);
		};

		const steps: Step[] = [
			['1. log in', () => logIn(page, url, DEV_OWNER)],
			[
				`2. Settings → Community Nodes: install ${PACKAGE_NAME} (risks ticked)`,
				async () => {
					await shootDialog('install', openInstallDialog);
					const modal = await openInstallDialog();
					await byTestId(page, 'install-community-package-button').click();
					await modal.waitFor({ state: 'hidden', timeout: PACKAGE_CHANGE_TIMEOUT_MS });
					await card().getByText(PACKAGE_NAME).first().waitFor();
					await expectInstalled(current);
				},
			],
			[
				'3. the nodes in the nodes panel',
				async () => {
					const res = await n8nFetch(`${url}/types/nodes.json`, {
						headers: { cookie, 'browser-id': 'e2e' },
					});
					if (!res.ok) fail(`GET /types/nodes.json: ${res.status}`);
					const types = (await res.json()).map((t: { name: string }) => t.name);
					for (const name of ['airSign', 'airSignTrigger'])
						if (!types.includes(`${PACKAGE_NAME}.${name}`)) fail(`types/nodes.json lacks ${name}`);
					// the credential type exists only now: the AirSign API credential, in the sandbox
					const { name, type, data: secret } = sandboxCredential(sandbox.url);
					const { data: saved } = await restPost<{ data: { id: string; name: string } }>(
						url,
						'/rest/credentials',
						cookie,
						{ name, type, data: secret },
					);
					savedCredential = { id: saved.id, name: saved.name };
					const findDrafts = {
						name: FIND_DRAFTS,
						type: `${PACKAGE_NAME}.airSign`,
						typeVersion: 1,
						parameters: {
							resource: 'session',
							operation: 'getMany',
							returnAll: true,
							filters: { status: ['draft'] },
							options: {},
						},
						credentials: { airSignApi: savedCredential },
					};
					const workflow = chainWorkflow({ name: WORKFLOW_NAME }, [MANUAL_TRIGGER, findDrafts]);
					workflowId = await createWorkflow(page, url, workflow);
					await openWorkflow(page, url, workflowId);
					const creator = await openNodeCreatorFrom(page, FIND_DRAFTS);
					await byTestId(creator, 'node-creator-search-bar').fill('AirSign');
					await byTestId(creator, 'node-creator-item-name')
						.getByText('AirSign', { exact: true })
						.first()
						.waitFor();
				},
			],
			['4. the workflow runs against the sandbox (Execute workflow)', runFromEditor],
			[
				`5. ${next} published: n8n offers the update and installs it`,
				async () => {
					await registry.publish(repacked.folder);
					// what the card's Update button stands for: `npm outdated` in n8n's nodes folder
					const offered = (await listed())?.updateAvailable;
					if (offered !== next) fail(`n8n offers update ${offered}, not ${next}`);
					await shootDialog('update', openUpdateDialog);
					const modal = await openUpdateDialog();
					await modal.getByRole('button', { name: 'Confirm update' }).click();
					await modal.waitFor({ state: 'hidden', timeout: PACKAGE_CHANGE_TIMEOUT_MS });
					await card().getByText(next).first().waitFor({ timeout: PACKAGE_CHANGE_TIMEOUT_MS });
					await expectInstalled(next);
					// and the files n8n loads are the new version's
					const manifest = path.join(installedPackageDir(userFolder), 'package.json');
					const onDisk = JSON.parse(readFileSync(manifest, 'utf8')).version;
					if (onDisk !== next) fail(`${manifest} has version ${onDisk}`);
				},
			],
			['6. the workflow still runs', runFromEditor],
			// n8n 1.x's editor also previews a trigger's fields (2.41's refuses): checked here, where
			// n8n installed the package, rather than in an n8n 1.x of its own.
			...(PROFILE.id === '1'
				? [
						[
							"6b. before any run, a node's input shows the fields of the node before it (output schemas)",
							() => schemaBeforeRunOnN8n1(page, url, savedCredential!),
						] satisfies Step,
					]
				: []),
			[
				'7. uninstall: n8n names the workflow that uses the nodes',
				async () => {
					await page.goto(settingsUrl, { waitUntil: 'domcontentloaded' });
					await byTestId(card(), 'action-toggle').click();
					await byTestId(page, 'action-uninstall').click();
					const modal = byTestId(page, 'communityPackageManageConfirm-modal');
					// what happens to them, in n8n's words (it names them, or says they won't run)
					await modal
						.getByText(/The following workflows will be effected|won't be able to run/)
						.waitFor();
					await modal.getByText(WORKFLOW_NAME).waitFor();
					await modal.getByRole('button', { name: 'Confirm uninstall' }).click();
					await modal.waitFor({ state: 'hidden', timeout: PACKAGE_CHANGE_TIMEOUT_MS });
					await card().waitFor({ state: 'detached' });
					if ((await listed()) !== undefined) fail('n8n still lists the package');
				},
			],
			[
				"8. the nodes are gone; the workflow's node says it is not installed",
				async () => {
					await openWorkflow(page, url, workflowId);
					// the canvas's + (the trigger's output is taken): the whole nodes panel
					await byTestId(page, 'node-creator-plus-button').click();
					const creator = byTestId(page, 'node-creator');
					await byTestId(creator, 'node-creator-search-bar').fill('AirSign');
					await byTestId(creator, 'node-creator-no-results').waitFor();
					await openWorkflow(page, url, workflowId); // the panel closed, the canvas as opened
					const ndv = await openNode(page, FIND_DRAFTS);
					await ndv.getByText('Install this node to use it').waitFor();
					await ndv.getByText(`part of the ${PACKAGE_NAME} community package`).waitFor();
				},
			],
		];
		steps.push([
			`${steps.length + 1}. both tarballs came through the registry.npmjs.org route`,
			() => {
				const missing = [current, next].filter((v) => !tarballFetched(route, PACKAGE_NAME, v));
				if (missing.length)
					fail(
						`no tarball of ${missing.join(', ')} through the route: ${JSON.stringify(route.requests())}; refused: ${JSON.stringify(route.refused())}`,
					);
				// what else n8n asked for: the refused hosts are its calls to api.n8n.io, unreachable here
				const asked = route.requests().map((r) => `${r.method} ${r.path} ${r.status}`);
				say(`route: ${asked.join(', ')}; refused: ${route.refused().join(', ') || 'none'}`);
			},
		]);
		const ok = await runSteps(page, steps, say, {
			name: `community-n8n${PROFILE.id}`,
			details: () => [
				`n8n's last output:\n${n8n!.output().slice(-3000)}`,
				`route's requests: ${JSON.stringify(route.requests())}`,
				`registry's last output:\n${registry.output().slice(-1500)}`,
			],
		});
		if (!ok) process.exitCode = 1;
		else say(`community nodes on ${PROFILE.label} passed in ${say.seconds()} s`);
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
