// The UI tier's checks in one theme: what a new user does with the AirSign nodes in n8n's editor.
// The steps live beside this file, one file per concern; this one runs them in order.
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DEV_OWNER } from '../lib/fixtures.mts';
import { sandboxClient } from '../lib/sandbox.mts';
import type { DevUrls } from './devServer.mts';
import { THEME_STORAGE_KEY, UI_TIMEOUT_MS, fail, logIn, runSteps, type Step } from './editor.mts';
import { agentTool } from './agentTool.mts';
import { agentWorkflowPicture } from './agentWorkflow.mts';
import { credentialDialog } from './credentialDialog.mts';
import { nodePanel } from './nodePanel.mts';
import { schemaBeforeRun } from './schemaCheck.mts';
import { sendEveryDraft } from './sendDrafts.mts';
import { fetchTestEvent, pickTriggerEvent } from './triggerSteps.mts';
import { newContext } from './chromium.mts';

export type Theme = 'light' | 'dark';
/** Prints one line of the tier's progress. */
export type Say = (msg: string) => void;
/** Saves the page as <screenshotDir>/<name>-<theme>.png. */
export type Shot = (name: string) => Promise<Buffer>;
export type Sandbox = ReturnType<typeof sandboxClient>;

export interface RunChecksOptions {
	browser: Browser;
	theme: Theme;
	dev: DevUrls;
	say: Say;
	/** Where the pictures go: docs/images/ for `npm run screenshots`, else a temporary folder. */
	screenshotDir: string;
	/** Where a failed step's screenshot goes. */
	failureDir: string;
	/** Run only these steps (by number; the login and the theme always run). */
	only?: string[];
}

export async function runChecks({
	browser,
	theme,
	dev,
	say,
	screenshotDir,
	failureDir,
	only,
}: RunChecksOptions): Promise<{ ok: boolean }> {
	const context = await newContext(browser, {
		viewport: { width: 1440, height: 900 },
		colorScheme: theme,
	});
	await context.addInitScript(
		([key, value]) => window.localStorage.setItem(key, value),
		[THEME_STORAGE_KEY, theme],
	);
	context.setDefaultTimeout(UI_TIMEOUT_MS);
	const page = await context.newPage();
	const sandbox = sandboxClient(dev.sandboxUrl);
	// animations finished at once: a panel sliding in is pictured as it ends up
	const shot: Shot = (name) =>
		page.screenshot({
			path: path.join(screenshotDir, `${name}-${theme}.png`),
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
	const chosen = steps.filter(
		([label]) => !only || /^(1|theme)/.test(label) || only.includes(label.split('.')[0]),
	);
	const ok = await runSteps(page, chosen, say, { failurePrefix: path.join(failureDir, theme) });
	await context.close();
	return { ok };
}

async function expectTheme(page: Page, theme: Theme): Promise<void> {
	const applied = await page.evaluate(
		() =>
			document.body.getAttribute('data-theme') ??
			document.documentElement.getAttribute('data-theme'),
	);
	if (applied !== theme) fail(`the editor shows theme ${applied}, not ${theme}`);
}
