// The steps of the community-package check (communityNodes.mts) in n8n's editor: Settings →
// Community Nodes (the locators of n8n's own Playwright page object, the same on 1.123.81 and
// 2.41.3), the nodes panel, a run from the editor, and what n8n shows once the package is gone.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { DEV_OWNER, type sandboxCredential } from '../lib/fixtures.mts';
import {
	PACKAGE_NAME,
	getExecution,
	installedPackageDir,
	n8nFetch,
	restGet,
	restPost,
	waitForExecutions,
} from '../lib/n8n.mts';
import type { sandboxClient } from '../lib/sandbox.mts';
import { PROFILE } from '../install-n8n.mts';
import {
	byTestId,
	canvasNode,
	logIn,
	openNode,
	openNodeCreatorFrom,
	openWorkflow,
} from './editor.mts';
import { schemaBeforeRunOnN8n1 } from './schemaCheck.mts';

/** Bounds an install, update or uninstall: npm pack + npm install through the local registry. */
const PACKAGE_CHANGE_TIMEOUT_MS = 300_000;
const THEME_STORAGE_KEY = 'N8N_THEME';
const TRIGGER = {
	id: 'c0ffee00-0000-4000-8000-000000000001',
	name: 'When clicking ‘Execute workflow’',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const FIND_DRAFTS = 'Find drafts';
const WORKFLOW_NAME = 'Community install: find drafts';

function fail(message: string): never {
	throw new Error(message);
}

/** A step of the check: its label ("N. what it shows") and what it does. */
type CommunityStep = [label: string, run: () => void | Promise<void>];

/** What the steps work with (communityNodes.mts starts it all). */
interface CommunityStepsOptions {
	page: Page;
	/** The running n8n (lib/n8n.mts startN8n). */
	n8n: { url: string };
	/** The owner's session cookie (setupOwner). */
	cookie: string;
	sandbox: ReturnType<typeof sandboxClient>;
	/** n8n's user folder: its nodes folder holds the installed package. */
	userFolder: string;
	credential: ReturnType<typeof sandboxCredential>;
	/** The version published first and the one published for the update. */
	versions: { current: string; next: string };
	publishNext: () => Promise<void>;
	/** Where the dialogs' pictures go; none without --shots. */
	shotsDir: string | undefined;
}

/** A community package as n8n's REST API lists it (GET /rest/community-packages). */
interface InstalledPackage {
	packageName: string;
	installedVersion: string;
	updateAvailable?: string;
}

/** [label, run] pairs, run in order by communityNodes.mts. */
export function communitySteps({
	page,
	n8n,
	cookie,
	sandbox,
	userFolder,
	credential,
	versions,
	publishNext,
	shotsDir,
}: CommunityStepsOptions): CommunityStep[] {
	const settingsUrl = `${n8n.url}/settings/community-nodes`;
	const card = () =>
		byTestId(page, 'community-package-card').filter({ hasText: PACKAGE_NAME }).first();
	const shot = (name: string, theme: string) =>
		// animations finished at once: a dialog fading in is pictured as it ends up
		page.screenshot({
			// taken only with --shots
			path: path.join(shotsDir as string, `community-nodes-${name}-${theme}.png`),
			animations: 'disabled',
		});
	let workflowId: string | undefined;
	let savedCredential: { id: string; name: string } | undefined;
	let runs = 0;

	async function setTheme(theme: string): Promise<void> {
		await page.evaluate(
			([key, value]) => localStorage.setItem(key, value),
			[THEME_STORAGE_KEY, theme],
		);
		await page.goto(settingsUrl, { waitUntil: 'domcontentloaded' });
		await page
			.locator(`body[data-theme="${theme}"], html[data-theme="${theme}"]`)
			.first()
			.waitFor({ state: 'attached' });
	}

	async function openInstallDialog(): Promise<Locator> {
		await page.goto(settingsUrl, { waitUntil: 'domcontentloaded' });
		// The empty page's "Install a community node" (the only package is installed once).
		await page
			.getByRole('button', { name: /^Install/ })
			.first()
			.click();
		const modal = byTestId(page, 'communityPackageInstall-modal');
		await modal.locator('input').first().fill(PACKAGE_NAME);
		const agreement = byTestId(page, 'user-agreement-checkbox');
		await agreement.click();
		// Ticked as n8n renders it (1.x: element-plus, 2.x: its own checkbox).
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
	}

	async function openUpdateDialog(): Promise<Locator> {
		await page.goto(settingsUrl, { waitUntil: 'domcontentloaded' });
		// The card offers the update once n8n's `npm outdated` sees the new version.
		await card()
			.getByRole('button', { name: /update/i })
			.click();
		const modal = byTestId(page, 'communityPackageManageConfirm-modal');
		await modal.getByText('Update node package').waitFor();
		await modal.getByText(WORKFLOW_NAME).waitFor(); // the workflows the update touches
		return modal;
	}

	/** Runs the workflow with the editor's Execute workflow; checks the drafts it read. */
	async function runFromEditor(): Promise<void> {
		const added = await sandbox.createSession({
			name: `Community install run ${runs + 1}`,
			recipients: [{ name: 'Ann Example', email: 'ann@example.com' }],
		});
		const drafts = await sandbox.listSessions({ status: 'draft' });
		await openWorkflow(page, n8n.url, workflowId!);
		await byTestId(page, 'execute-workflow-button').click();
		await byTestId(canvasNode(page, FIND_DRAFTS), 'canvas-node-status-success').waitFor();
		runs += 1;
		const list = await waitForExecutions(n8n.url, cookie, (l) => l.length >= runs, {
			workflowId: workflowId!,
		});
		const exec = await getExecution(n8n.url, cookie, list[0].id);
		if (exec.status !== 'success') fail(`execution ${exec.id}: ${exec.status}`);
		const items = exec.data.resultData.runData[FIND_DRAFTS][0].data!.main![0]!.map((i) => i.json);
		const got = items.map((i) => i.sessionId).sort();
		const want = drafts.map((d) => d.sessionId).sort();
		if (JSON.stringify(got) !== JSON.stringify(want) || !got.includes(added.sessionId))
			fail(
				`"${FIND_DRAFTS}" output ${JSON.stringify(got)}, the sandbox's drafts ${JSON.stringify(want)}`,
			);
	}

	async function installedVersion(): Promise<string | undefined> {
		const { data }: { data: InstalledPackage[] } = await restGet(
			n8n.url,
			'/rest/community-packages',
			cookie,
		);
		return data.find((p) => p.packageName === PACKAGE_NAME)?.installedVersion;
	}

	return [
		['1. log in', () => logIn(page, n8n.url, DEV_OWNER)],
		[
			`2. Settings → Community Nodes: install ${PACKAGE_NAME} (risks ticked)`,
			async () => {
				for (const theme of shotsDir ? ['light', 'dark'] : []) {
					await setTheme(theme);
					await openInstallDialog();
					await shot('install', theme);
				}
				if (shotsDir) await setTheme('light');
				const modal = await openInstallDialog();
				await byTestId(page, 'install-community-package-button').click();
				await modal.waitFor({ state: 'hidden', timeout: PACKAGE_CHANGE_TIMEOUT_MS });
				await card().getByText(PACKAGE_NAME).first().waitFor();
				const version = await installedVersion();
				if (version !== versions.current)
					fail(`installed version ${version}, not ${versions.current}`);
			},
		],
		[
			'3. the nodes in the nodes panel',
			async () => {
				const res = await n8nFetch(`${n8n.url}/types/nodes.json`, {
					headers: { cookie, 'browser-id': 'e2e' },
				});
				if (!res.ok) fail(`GET /types/nodes.json: ${res.status}`);
				const types = (await res.json()).map((t: { name: string }) => t.name);
				for (const name of ['airSign', 'airSignTrigger'])
					if (!types.includes(`${PACKAGE_NAME}.${name}`)) fail(`types/nodes.json lacks ${name}`);
				// The credential type exists only now: the AirSign API credential, in the sandbox.
				const { data: saved } = await restPost<{ data: { id: string; name: string } }>(
					n8n.url,
					'/rest/credentials',
					cookie,
					{
						name: credential.name,
						type: credential.type,
						data: credential.data,
					},
				);
				savedCredential = { id: saved.id, name: saved.name };
				const { data } = await restPost<{ data: { id: string } }>(
					n8n.url,
					'/rest/workflows',
					cookie,
					{
						name: WORKFLOW_NAME,
						nodes: [TRIGGER, findDraftsNode(savedCredential)],
						connections: {
							[TRIGGER.name]: { main: [[{ node: FIND_DRAFTS, type: 'main', index: 0 }]] },
						},
						settings: { executionOrder: 'v1' },
						...PROFILE.restWorkflowFields,
					},
				);
				workflowId = data.id;
				await openWorkflow(page, n8n.url, workflowId!);
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
			`5. ${versions.next} published: n8n offers the update and installs it`,
			async () => {
				await publishNext();
				// What the card's Update button stands for: `npm outdated` in n8n's nodes folder.
				const { data }: { data: InstalledPackage[] } = await restGet(
					n8n.url,
					'/rest/community-packages',
					cookie,
				);
				const offered = data.find((p) => p.packageName === PACKAGE_NAME)?.updateAvailable;
				if (offered !== versions.next) fail(`n8n offers update ${offered}, not ${versions.next}`);
				for (const theme of shotsDir ? ['light', 'dark'] : []) {
					await setTheme(theme);
					await openUpdateDialog();
					await shot('update', theme);
				}
				if (shotsDir) await setTheme('light');
				const modal = await openUpdateDialog();
				await modal.getByRole('button', { name: 'Confirm update' }).click();
				await modal.waitFor({ state: 'hidden', timeout: PACKAGE_CHANGE_TIMEOUT_MS });
				await card()
					.getByText(versions.next)
					.first()
					.waitFor({ timeout: PACKAGE_CHANGE_TIMEOUT_MS });
				const version = await installedVersion();
				if (version !== versions.next) fail(`installed version ${version}, not ${versions.next}`);
				// and the files n8n loads are the new version's
				const manifest = path.join(installedPackageDir(userFolder), 'package.json');
				const onDisk = JSON.parse(readFileSync(manifest, 'utf8')).version;
				if (onDisk !== versions.next) fail(`${manifest} has version ${onDisk}`);
			},
		],
		['6. the workflow still runs', runFromEditor],
		// n8n 1.x's editor also previews a trigger's fields (2.41's refuses): checked here, where
		// n8n installed the package, rather than in an n8n 1.x of its own.
		...(PROFILE.id === '1'
			? [
					[
						"6b. before any run, a node's input shows the fields of the node before it (output schemas)",
						() => schemaBeforeRunOnN8n1(page, n8n.url, savedCredential!),
					] satisfies CommunityStep,
				]
			: []),
		[
			'7. uninstall: n8n names the workflow that uses the nodes',
			async () => {
				await page.goto(settingsUrl, { waitUntil: 'domcontentloaded' });
				await byTestId(card(), 'action-toggle').click();
				await byTestId(page, 'action-uninstall').click();
				const modal = byTestId(page, 'communityPackageManageConfirm-modal');
				// What happens to them, in n8n's words (its message names them, or says they won't run).
				await modal
					.getByText(/The following workflows will be effected|won't be able to run/)
					.waitFor();
				await modal.getByText(WORKFLOW_NAME).waitFor();
				await modal.getByRole('button', { name: 'Confirm uninstall' }).click();
				await modal.waitFor({ state: 'hidden', timeout: PACKAGE_CHANGE_TIMEOUT_MS });
				await card().waitFor({ state: 'detached' });
				if ((await installedVersion()) !== undefined) fail('n8n still lists the package');
			},
		],
		[
			"8. the nodes are gone; the workflow's node says it is not installed",
			async () => {
				await openWorkflow(page, n8n.url, workflowId!);
				// The canvas's + (the trigger's output is taken): the whole nodes panel.
				await byTestId(page, 'node-creator-plus-button').click();
				const creator = byTestId(page, 'node-creator');
				await byTestId(creator, 'node-creator-search-bar').fill('AirSign');
				await byTestId(creator, 'node-creator-no-results').waitFor();
				await openWorkflow(page, n8n.url, workflowId!); // the panel closed, the canvas as opened
				const ndv = await openNode(page, FIND_DRAFTS);
				await ndv.getByText('Install this node to use it').waitFor();
				await ndv.getByText(`part of the ${PACKAGE_NAME} community package`).waitFor();
			},
		],
	];
}

function findDraftsNode(credential: { id: string; name: string }) {
	return {
		id: 'c0ffee00-0000-4000-8000-000000000002',
		name: FIND_DRAFTS,
		type: `${PACKAGE_NAME}.airSign`,
		typeVersion: 1,
		position: [220, 0],
		parameters: {
			resource: 'session',
			operation: 'getMany',
			returnAll: true,
			filters: { status: ['draft'] },
			options: {},
		},
		credentials: { airSignApi: credential },
	};
}
