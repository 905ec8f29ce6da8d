// Page helpers for n8n's editor by the data-test-id attributes n8n's own Playwright tests use, and
// the step runner. Every wait is for something to appear; UI_TIMEOUT_MS only catches a hang.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { PROFILE, REPO_ROOT } from '../install-n8n.mts';
import { SANDBOX_CREDENTIAL_ID, SANDBOX_CREDENTIAL_NAME, type Workflow } from '../lib/fixtures.mts';

export type { SandboxClient as Sandbox } from '../lib/examples.mts';
export type Theme = 'light' | 'dark';
/** Prints one line of the tier's progress. */
export type Say = (msg: string) => void;
/** Saves the page as <screenshotDir>/<name>-<theme>.png. */
export type Shot = (name: string) => Promise<Buffer>;
/** Where the UI checks reach an `npm run dev`: its n8n and its sandbox. */
export type DevUrls = { n8nUrl: string; sandboxUrl: string };

/** The sandbox's credential in `npm run dev`. */
export const DEV_CREDENTIAL = { id: SANDBOX_CREDENTIAL_ID, name: SANDBOX_CREDENTIAL_NAME };
export const UI_TIMEOUT_MS = Number(process.env.AIRSIGN_UI_TIMEOUT_MS) || 300_000;
/** Where n8n (1.123.81 and 2.41.3) reads the theme from: the user's choice in Settings → Personal. */
export const THEME_STORAGE_KEY = 'N8N_THEME';
const FAILURE_DIR = path.join(REPO_ROOT, '.cache', 'ui-failures');

/** Prints `[tag  N s] msg`, N the seconds since this call (`say.seconds()`). */
export function stopwatch(tag: string) {
	const t0 = Date.now();
	const seconds = () => ((Date.now() - t0) / 1000).toFixed(0);
	const say = (msg: string) =>
		void process.stdout.write(`[${tag} ${seconds().padStart(4)} s] ${msg}\n`);
	return Object.assign(say, { t0, seconds });
}

/**
 * A page in a context of its own, `theme` stored as the user's choice. Its pages define `__name`,
 * which tsx's keepNames puts into `page.evaluate` functions, and run without CSS animations and
 * transitions: no check looks at one, and headless Chromium paints each frame of them in software
 * (the tier's CPU 427–477 s → 404 s, its GPU process 28 s → 11 s).
 */
export async function newPage(
	browser: Browser,
	{ theme, ...options }: BrowserContextOptions & { theme?: Theme },
): Promise<Page> {
	const context = await browser.newContext({
		colorScheme: theme,
		reducedMotion: 'reduce',
		...options,
	});
	await context.addInitScript('window.__name = (fn) => fn;');
	await context.addInitScript(() =>
		document.addEventListener('DOMContentLoaded', () => {
			const style = document.createElement('style');
			style.textContent =
				'*, *::before, *::after { animation: none !important; transition: none !important; }';
			document.head.append(style);
		}),
	);
	if (theme)
		await context.addInitScript(([k, v]) => localStorage.setItem(k, v), [THEME_STORAGE_KEY, theme]);
	context.setDefaultTimeout(UI_TIMEOUT_MS);
	return await context.newPage();
}

/** Fails a check with `message`; an expression, so that `value ?? fail('…')` reads as one. */
export function fail(message: string): never {
	throw new Error(message);
}

export const byTestId = (scope: Page | Locator, id: string): Locator =>
	scope.locator(`[data-test-id="${id}"]`);

/** A step of a check: "N. what it shows", and what it does. */
export type Step = [label: string, run: () => unknown];

/**
 * Runs `steps` until one fails (false): a screenshot (.cache/ui-failures/<name>-step-N.png), the
 * console errors and `details()`.
 */
export async function runSteps(
	page: Page,
	steps: Step[],
	say: (msg: string) => void,
	{ name, details = () => [] }: { name: string; details?: () => string[] },
): Promise<boolean> {
	const errors: string[] = [];
	page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
	page.on('pageerror', (e) => errors.push(String(e.stack ?? e)));
	for (const [label, run] of steps) {
		const t0 = Date.now();
		try {
			await run();
			say(`ok   ${label} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
		} catch (error) {
			const file = path.join(FAILURE_DIR, `${name}-step-${label.split(/[. ]/)[0]}.png`);
			mkdirSync(FAILURE_DIR, { recursive: true });
			await page.screenshot({ path: file, fullPage: true }).catch(() => {});
			say(`FAIL ${label}: ${error.stack ?? error}`);
			say(`     screenshot: ${file}; page URL: ${page.url()}`);
			say(`     console errors (${errors.length}):`);
			for (const line of [...errors.map((e) => `  ${e.slice(0, 400)}`), ...details()])
				say(`     ${line}`);
			return false;
		}
	}
	return true;
}

/** Logs in on /signin and waits for the editor's main view. */
export async function logIn(
	page: Page,
	baseUrl: string,
	{ email, password }: { email: string; password: string },
): Promise<void> {
	await page.goto(`${baseUrl}/signin`, { waitUntil: 'domcontentloaded' });
	const form = byTestId(page, 'signin-form');
	await form.locator('input[type="email"], input[name="emailOrLdapLoginId"]').first().fill(email);
	await form.locator('input[type="password"]').fill(password);
	await byTestId(form, 'form-submit-button').click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
}

/** A workflow to create: `chainWorkflow`'s nodes in a row, or one node. */
export type NewWorkflow = Pick<Workflow, 'name' | 'nodes' | 'connections'>;

/** The editor's Manual Trigger, for chainWorkflow. */
export const MANUAL_TRIGGER = {
	name: 'When clicking ‘Execute workflow’',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	parameters: {},
};

/** Creates a workflow from inside the page: n8n ties its session to the editor's browser-id header. */
export async function createWorkflow(page: Page, baseUrl: string, workflow: NewWorkflow) {
	const { status, body } = await page.evaluate(
		async ({ url, workflow }) => {
			const res = await fetch(url, {
				method: 'POST',
				credentials: 'include',
				headers: {
					'content-type': 'application/json',
					'browser-id': localStorage.getItem('n8n-browserId') ?? '',
				},
				body: JSON.stringify(workflow),
			});
			return { status: res.status, body: await res.text() };
		},
		{
			url: `${baseUrl}/rest/workflows`,
			// what a workflow created over REST needs besides the editor's fields (e2e/n8n-profiles.mts)
			workflow: {
				connections: {},
				settings: { executionOrder: 'v1' },
				...workflow,
				...PROFILE.restWorkflowFields,
			},
		},
	);
	if (status !== 200) throw new Error(`POST /rest/workflows: ${status} ${body.slice(0, 500)}`);
	const id: string = JSON.parse(body).data.id;
	return id;
}

/** Clicks the + on a node's main output (or on its input `handle`, e.g. ai_tool) and waits for the nodes panel. */
export async function openNodeCreatorFrom(
	page: Page,
	nodeName: string,
	{ handle }: { handle?: string } = {},
): Promise<Locator> {
	// from an AI handle, a panel whose code still loads stays on "Other AI Nodes": loaded first
	if (handle) {
		await openNodeCreatorFrom(page, nodeName);
		await page.keyboard.press('Escape');
		await byTestId(page, 'node-creator').waitFor({ state: 'hidden' });
	}
	const handleId = handle ? `inputs/${handle}/0` : 'outputs/main/0';
	await byTestId(
		canvasNode(page, nodeName).locator(`[data-handleid="${handleId}"]`),
		'canvas-handle-plus',
	).click();
	const creator = byTestId(page, 'node-creator');
	await creator.waitFor();
	return creator;
}

/** Opens a saved workflow and waits for its canvas to show its nodes. */
export async function openWorkflow(page: Page, baseUrl: string, workflowId: string): Promise<void> {
	await page.goto(`${baseUrl}/workflow/${workflowId}`, { waitUntil: 'domcontentloaded' });
	await canvasNodes(page).first().waitFor();
}

export const canvasNodes = (page: Page): Locator => byTestId(page, 'canvas-node');

export function canvasNode(page: Page, name: string): Locator {
	return page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
}

/** Opens a node's panel (NDV) by double-clicking it on the canvas. */
export async function openNode(page: Page, name: string): Promise<Locator> {
	await canvasNode(page, name).dblclick();
	const ndv = byTestId(page, 'ndv');
	await ndv.waitFor();
	return ndv;
}

export async function closeNode(page: Page): Promise<void> {
	await page.keyboard.press('Escape');
	await byTestId(page, 'ndv').waitFor({ state: 'hidden' });
}

/** Picks `optionText` in the options parameter `name` (in the open panel, or in `scope`). */
export async function chooseOption(
	page: Page,
	name: string,
	optionText: string,
	scope: Page | Locator = byTestId(page, 'ndv'),
): Promise<void> {
	const input = byTestId(scope, `parameter-input-${name}`);
	const field = input.locator('input').first();
	if ((await field.inputValue()) === optionText) return;
	await input.click();
	// an option's accessible name includes its description: its title line exactly
	await page
		.getByRole('option')
		.filter({ visible: true })
		.filter({ has: page.getByText(optionText, { exact: true }) })
		.first()
		.click();
	await optionShows(page, name, optionText, scope);
}

/** Waits (bounded) until the options parameter `name` (open panel, or `scope`) shows `optionText`. */
export async function optionShows(
	page: Page,
	name: string,
	optionText: string,
	scope: Page | Locator = byTestId(page, 'ndv'),
): Promise<void> {
	const field = byTestId(scope, `parameter-input-${name}`).locator('input').first();
	const args = [await field.elementHandle(), optionText] as const;
	// the field is an <input>: `'value' in el` only tells the type checker so
	await page.waitForFunction(([el, expected]) => 'value' in el && el.value === expected, args);
}
