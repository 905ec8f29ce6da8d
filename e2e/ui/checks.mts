// @ts-nocheck (typed file by file: issue 34)
// The UI tier's checks, in one theme: what a new user does with the AirSign nodes in n8n's editor.
// Each step fails with a screenshot of the page and the page's console errors.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DEV_OWNER } from '../lib/fixtures.mts';
import { sandboxClient } from '../lib/sandbox.mts';
import {
	UI_TIMEOUT_MS,
	byTestId,
	canvasNode,
	chooseOption,
	closeNode,
	createWorkflow,
	logIn,
	openNodeCreatorFrom,
	openNode,
	openWorkflow,
	parameterPanelText,
} from './editor.mts';
import { agentWorkflowPicture } from './agentWorkflow.mts';
import { schemaBeforeRun } from './schemaCheck.mts';
import { agentText, airSignDescription, expectedPanels, triggerEvents } from './expected.mts';
import { newContext } from './chromium.mts';

/** n8n 2.41.3 reads the theme from localStorage (the user's choice in Settings → Personal). */
const THEME_STORAGE_KEY = 'N8N_THEME';
const MANUAL_TRIGGER = {
	id: 'a1b2c3d4-0000-4000-8000-0000000000a1',
	name: 'When clicking ‘Execute workflow’',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const SEND_DRAFTS_WORKFLOW = 'AirSignExSendDr1';
const NOTIFY_WORKFLOW = 'AirSignExNotify1';

export async function runChecks({ browser, theme, dev, say, screenshotDir, failureDir, only }) {
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
	const consoleErrors = [];
	page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
	page.on('pageerror', (e) => consoleErrors.push(String(e.stack ?? e)));
	const sandbox = sandboxClient(dev.sandboxUrl);
	const shot = (name) =>
		page.screenshot({ path: path.join(screenshotDir, `${name}-${theme}.png`) });

	const steps = [
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
		["6. the AirSign tool in an AI Agent's tool list", () => agentTool(page, dev)],
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
			() => schemaBeforeRun(page, dev, theme, { browser, say }),
		],
	];
	for (const [label, run] of steps) {
		if (only && !/^(1|theme)/.test(label) && !only.includes(label.split('.')[0])) continue;
		const t0 = Date.now();
		try {
			await run();
			say(`ok   ${label} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
		} catch (error) {
			mkdirSync(failureDir, { recursive: true });
			const file = path.join(failureDir, `${theme}-step-${label.slice(0, 1)}.png`);
			await page.screenshot({ path: file, fullPage: true }).catch(() => {});
			say(`FAIL ${label}: ${error.stack ?? error}`);
			say(`     screenshot: ${file}`);
			say(`     page URL: ${page.url()}`);
			say(
				`     console errors (${consoleErrors.length}):\n${consoleErrors.map((e) => `       ${e.slice(0, 400)}`).join('\n')}`,
			);
			await context.close();
			return { ok: false };
		}
	}
	await context.close();
	return { ok: true };
}

function fail(message) {
	throw new Error(message);
}

async function expectTheme(page, theme) {
	const applied = await page.evaluate(
		() =>
			document.body.getAttribute('data-theme') ??
			document.documentElement.getAttribute('data-theme'),
	);
	if (applied !== theme) fail(`the editor shows theme ${applied}, not ${theme}`);
}

// ---------------------------------------------------------------- 2. node panel
async function nodePanel(page, dev, theme, shot, say) {
	const panels = expectedPanels();
	const id = await createWorkflow(page, dev.n8nUrl, {
		name: `UI tier: the nodes panel (${theme})`,
		nodes: [MANUAL_TRIGGER],
	});
	await openWorkflow(page, dev.n8nUrl, id);
	const creator = await openNodeCreatorFrom(page, MANUAL_TRIGGER.name);
	await byTestId(creator, 'node-creator-search-bar').fill('AirSign');
	// The action node's entry: its actions are the operations' `action` texts.
	await byTestId(creator, 'item-iterator-item')
		.filter({ has: byTestId(page, 'node-creator-item-name').getByText('AirSign', { exact: true }) })
		.first()
		.click();
	for (const panel of panels)
		await creator.getByText(panel.action, { exact: true }).first().waitFor({ state: 'attached' });
	await shot('node-panel-actions');
	const first = panels.find((p) => p.resource === 'session' && p.operation === 'send') ?? panels[0];
	await creator.getByText(first.action, { exact: true }).first().click();
	const ndv = byTestId(page, 'ndv');
	await ndv.waitFor();
	// n8n names the new node after the action picked: a short name a user keeps ("Send a session").
	await canvasNode(page, first.action).waitFor({ state: 'attached' });

	const problems = [];
	for (const panel of panels) {
		await chooseOption(page, 'resource', panel.resourceName);
		await chooseOption(page, 'operation', panel.operationName);
		// The panel re-renders after a change: wait until it shows all it should (bounded), then read it.
		const expectedTexts = [
			...panel.labels,
			...[...panel.notices, ...panel.hints].map((t) => plain(t).slice(0, 60)),
		];
		await waitForPanelText(page, expectedTexts).catch(() => {});
		const text = await parameterPanelText(page);
		const where = `${panel.resourceName} → ${panel.operationName}`;
		for (const label of panel.labels)
			if (!text.includes(label)) problems.push(`${where}: field "${label}" not shown`);
		for (const notice of [...panel.notices, ...panel.hints]) {
			const start = plain(notice).slice(0, 60);
			if (!plain(text).includes(start)) problems.push(`${where}: "${start}…" not shown`);
		}
		for (const name of panel.hiddenNames ?? [])
			if ((await byTestId(ndv, `parameter-input-${name}`).count()) > 0)
				problems.push(`${where}: field ${name} shown, but it belongs to other operations`);
		if (panel.resource === 'session' && panel.operation === 'send') await shot('node-panel');
	}
	if (problems.length) fail(problems.join('\n'));
	say(`${panels.length} operations checked against the node's description`);
	await closeNode(page);
}

async function waitForPanelText(page, texts) {
	await page.waitForFunction(
		(wanted) => {
			const panel = document.querySelector(
				'[data-test-id="ndv"] [data-test-id="node-parameters"], [data-test-id="ndv"] .node-parameters-wrapper',
			);
			const shown = (panel?.innerText ?? '').replace(/\s+/g, ' ');
			return wanted.every((t) => shown.includes(t));
		},
		texts,
		{ polling: 'raf' },
	);
}

/** Text as the browser shows it: HTML tags of a notice dropped, whitespace collapsed. */
const plain = (text) =>
	text
		.replace(/<[^>]+>/g, '')
		.replace(/\s+/g, ' ')
		.trim();

// ---------------------------------------------------------------- 3. credential dialog
// Each Test makes one List Sessions request: a handful per theme, well within the sandbox's 60 an hour.
const WRONG_SECRET = 'AirSign rejected the client ID or client secret';
const WRONG_BASE_URL = 'No AirSign token endpoint at';
const WRONG_TOKEN = 'AirSign rejected the access token';
const TESTED_OK = 'Connection tested successfully';
const COULD_NOT_CONNECT = 'Couldn’t connect with these settings';

async function credentialDialog(page, dev, sandbox, shot) {
	await page.goto(`${dev.n8nUrl}/home/credentials/create`);
	const dialog = await openNewCredential(page);
	const field = (name) =>
		byTestId(dialog, `parameter-input-${name}`).locator('input, textarea').first();
	/**
	 * Save runs the credential's Test; a failure shows its message under "More details". Every
	 * failure follows a success, so that the banner waited for is the new test's, never the last one.
	 */
	const saveAndExpect = async (text) => {
		// The modal's header (Save, the test's result) sits outside the dialog's body. Its button
		// shows once n8n has taken the edit: until then a "Saved" label there ignores clicks.
		await byTestId(page, 'credential-save-button').locator('button').click();
		if (text === TESTED_OK) {
			await byTestId(page, 'credentials-config-container-test-success').getByText(text).waitFor();
			return;
		}
		await page.getByText(COULD_NOT_CONNECT).first().waitFor();
		await page.getByText('More details').first().click();
		await page.getByText(text).first().waitFor();
	};

	// Client credentials (the default method)
	await field('baseUrl').fill(dev.sandboxUrl);
	await field('clientId').fill('demo-client');
	await field('clientSecret').fill('not-the-secret');
	await saveAndExpect(WRONG_SECRET);
	await field('clientSecret').fill('demo-secret');
	await saveAndExpect(TESTED_OK);
	await shot('credential-dialog');
	await field('baseUrl').fill(`${dev.sandboxUrl}/not-airsign`);
	await saveAndExpect(WRONG_BASE_URL);

	// Access token
	await field('baseUrl').fill(dev.sandboxUrl);
	await chooseOption(page, 'authentication', 'Access Token', dialog);
	const { access_token: token } = await sandbox.token();
	await field('accessToken').fill(token);
	await saveAndExpect(TESTED_OK);
	await field('accessToken').fill('not-a-token');
	await saveAndExpect(WRONG_TOKEN);
	await page.keyboard.press('Escape');
	await dialog.waitFor({ state: 'hidden' });
}

async function openNewCredential(page) {
	await page.getByPlaceholder('Search for app...').fill('AirSign');
	await page.getByRole('option').filter({ hasText: 'AirSign API' }).first().click();
	await page.getByRole('button', { name: 'Continue' }).click();
	const dialog = byTestId(page, 'credential-edit-dialog');
	await dialog.waitFor();
	return dialog;
}

// ---------------------------------------------------------------- 4. send every draft
async function sendEveryDraft(page, dev, sandbox, theme, shot) {
	// A complete draft of this run's own, so that each theme's run sends something.
	const fresh = await sandbox.createSession({
		name: `Contract for the ${theme} theme`,
		recipients: [{ name: 'Ann Example', email: `ann.${theme}@example.com` }],
	});
	const drafts = await sandbox.listSessions({ status: 'draft' });
	const outboxBefore = (await sandbox.outbox()).length;
	await openWorkflow(page, dev.n8nUrl, SEND_DRAFTS_WORKFLOW);
	for (const [name, subtitle] of [
		['Find drafts', 'Get many sessions'],
		['Send draft', 'Send a session'],
	])
		await canvasNode(page, name).getByText(subtitle, { exact: true }).waitFor();
	await expectThemedIcon(canvasNode(page, 'Send draft'), theme);
	await byTestId(page, 'execute-workflow-button').click();
	await byTestId(canvasNode(page, 'Send draft'), 'canvas-node-status-success').waitFor();
	const ndv = await openNode(page, 'Send draft');
	const output = byTestId(ndv, 'output-panel');
	await output.getByText('Table', { exact: true }).first().click();
	const table = output.locator('table').first();
	await table.waitFor();
	const text = await table.innerText();
	const problems = [];
	for (const d of drafts)
		if (!text.includes(d.sessionId)) problems.push(`no row for draft ${d.sessionId} ("${d.name}")`);
	for (const code of ['INCOMPLETE_RECIPIENTS', 'NO_RECIPIENTS', 'SELF_SIGN_ONLY'])
		if (!text.includes(code)) problems.push(`no error item with code ${code}`);
	if (!text.includes('pending')) problems.push('no sent session (status pending)');
	const sent = (await sandbox.outbox()).length - outboxBefore;
	if (!(sent >= 1)) problems.push(`no invitation in the sandbox outbox (${sent})`);
	if (!drafts.some((d) => d.sessionId === fresh.sessionId))
		problems.push('the new draft was not listed');
	if (problems.length)
		fail(`output of "Send draft":\n${problems.join('\n')}\n--- table ---\n${text.slice(0, 3000)}`);
	// The picture a user is glad to see: the items that failed, each session beside its error.
	// Searching the output for "error" keeps the error items (n8n's search matches keys too), and
	// the table then has only their columns, none of the sent ones' left empty.
	await byTestId(output, 'ndv-search').click();
	await output.getByPlaceholder('Search output').fill('error');
	const filtered = output.locator('table').first();
	// n8n filters after a short debounce: read the columns until the sent items' are gone.
	let heads = [];
	for (
		const deadline = Date.now() + 90_000;
		Date.now() < deadline;
		await page.waitForTimeout(250)
	) {
		heads = await filtered.locator('th').allInnerTexts();
		if (!heads.includes('sentAt')) break;
	}
	const errorRows = await filtered.locator('tbody tr').count();
	const expectedErrors = errorRowsIn(text);
	if (heads.slice(0, 3).join(',') !== 'sessionId,error,code' || errorRows !== expectedErrors)
		fail(
			`the output searched for "error": columns ${JSON.stringify(heads)}, ${errorRows} rows (expected sessionId, error, code first and ${expectedErrors} rows)`,
		);
	await shot('output-table');
	// The first Escape leaves the search (and clears it): wait for the sent items' columns again.
	await page.keyboard.press('Escape');
	for (const deadline = Date.now() + 90_000; Date.now() < deadline; await page.waitForTimeout(250))
		if ((await filtered.locator('th').allInnerTexts()).includes('sentAt')) break;
	await closeNode(page);
}

/** Error items in the output table's text: each error message ends with its code in brackets. */
function errorRowsIn(tableText) {
	return (tableText.match(/\[[A-Z_]+\]/g) ?? []).length;
}

/** The node's icon on the canvas is the theme's own file (airsign.dark.svg in dark), and it loaded. */
async function expectThemedIcon(node, theme) {
	const icon = node.locator('img').first();
	await icon.waitFor();
	const { src, width } = await icon.evaluate(async (img) => {
		if (!img.complete)
			await new Promise((resolve) => {
				img.addEventListener('load', resolve, { once: true });
				img.addEventListener('error', resolve, { once: true });
			});
		return { src: img.currentSrc || img.src, width: img.naturalWidth };
	});
	const file = theme === 'dark' ? 'airsign.dark.svg' : 'airsign.svg';
	if (!src.endsWith(file) || !(width > 0))
		fail(`the node's icon in the ${theme} theme is ${src} (${width} px wide), not ${file}`);
}

// ---------------------------------------------------------------- 5. trigger
async function fetchTestEvent(page, dev) {
	await openWorkflow(page, dev.n8nUrl, NOTIFY_WORKFLOW);
	const triggerName = await page
		.locator('[data-test-id="canvas-node"][data-node-type="n8n-nodes-airsign.airSignTrigger"]')
		.first()
		.getAttribute('data-node-name');
	const ndv = await openNode(page, triggerName);
	const button = byTestId(ndv, 'node-execute-button');
	await button.getByText('Fetch Test Event').waitFor();
	await button.click();
	const output = byTestId(ndv, 'output-panel');
	await output.getByText('sessionId').first().waitFor();
	await output.getByText('completed').first().waitFor();
	await closeNode(page);
}

// ---------------------------------------------------------------- 6. AI Agent tool
// n8n 2.41.3 (as 2.39.10) offers every node with `usableAsTool` as a tool, community nodes
// included: no N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE (that variable appears nowhere in its code).
const AGENT_TYPE = '@n8n/n8n-nodes-langchain.agent';
const AGENT_VERSION = 3.1;

async function agentTool(page, dev) {
	const id = await createWorkflow(page, dev.n8nUrl, {
		name: 'UI tier: an AI Agent',
		nodes: [
			{
				id: 'a1b2c3d4-0000-4000-8000-00000000a6e7',
				name: 'AI Agent',
				type: AGENT_TYPE,
				typeVersion: AGENT_VERSION,
				position: [0, 0],
				parameters: {},
			},
		],
	});
	await openWorkflow(page, dev.n8nUrl, id);
	const creator = await openNodeCreatorFrom(page, 'AI Agent', { handle: 'ai_tool' });
	await byTestId(creator, 'nodes-list-header').getByText('Tools', { exact: true }).waitFor();
	await byTestId(creator, 'node-creator-search-bar').fill('AirSign');
	const item = byTestId(creator, 'item-iterator-item').filter({ hasText: 'AirSign' }).first();
	await item.waitFor();
	await item.click();
	const ndv = byTestId(page, 'ndv');
	await ndv.waitFor();
	await byTestId(ndv, 'parameter-input-resource').waitFor();
	await byTestId(ndv, 'parameter-input-operation').waitFor();
	// n8n generated it from `usableAsTool`: the node type gets the suffix Tool, and its name is the
	// short action with n8n's " in AirSign".
	const tool = page.locator(
		'[data-test-id="canvas-node"][data-node-type="n8n-nodes-airsign.airSignTool"]',
	);
	await tool.waitFor({ state: 'attached' });
	const name = await tool.getAttribute('data-node-name');
	if (name !== 'Send a session in AirSign') fail(`the tool node is named "${name}"`);
	// The tool's Description, prefilled with what the model reads about the default operation
	// (Send); left unedited, it follows the operation.
	await descriptionShows(page, agentText('session', 'send'));
	await chooseOption(page, 'operation', 'Get');
	await descriptionShows(page, agentText('session', 'get'));
	await closeNode(page);
	await tool.waitFor();
}

/** Waits (bounded) until the open tool's Description field shows `text`. */
async function descriptionShows(page, text) {
	const selector = '[data-test-id="ndv"] [data-test-id="parameter-input-toolDescription"] textarea';
	try {
		await page.waitForFunction(
			([sel, wanted]) => document.querySelector(sel)?.value === wanted,
			[selector, text],
			{ polling: 'raf' },
		);
	} catch (error) {
		const shown = await page
			.locator(selector)
			.first()
			.inputValue()
			.catch(() => '(no field)');
		fail(`the tool's Description shows "${shown}", not "${text}" (${error.message})`);
	}
}

// ---------------------------------------------------------------- 7. trigger events
const TRIGGER_VERSION = 2;

/**
 * A new workflow with the v2 trigger on its default event (Session Completed): its panel offers
 * every event of the built description; picking Recipient Status Changed shows both events in the
 * field, and saving stores both in the workflow.
 */
async function pickTriggerEvent(page, dev, theme) {
	const events = triggerEvents(TRIGGER_VERSION);
	const name = (value) => events.find((e) => e.value === value)?.name ?? fail(`no event ${value}`);
	const [completed, recipient] = [name('sessionCompleted'), name('recipientStatusChanged')];
	const id = await createWorkflow(page, dev.n8nUrl, {
		name: `UI tier: trigger events (${theme})`,
		nodes: [
			{
				id: 'a1b2c3d4-0000-4000-8000-0000000000e7',
				name: 'AirSign Trigger',
				type: 'n8n-nodes-airsign.airSignTrigger',
				typeVersion: TRIGGER_VERSION,
				position: [0, 0],
				parameters: { events: ['sessionCompleted'] },
				credentials: { airSignApi: { id: 'AirSignSandbox01', name: 'AirSign (local sandbox)' } },
			},
		],
	});
	await openWorkflow(page, dev.n8nUrl, id);
	const ndv = await openNode(page, 'AirSign Trigger');
	const field = byTestId(ndv, 'parameter-input-events');
	await field.getByText(completed, { exact: true }).waitFor();
	await field.click();
	const option = (text) =>
		page
			.getByRole('option')
			.filter({ visible: true })
			.filter({ has: page.getByText(text, { exact: true }) })
			.first();
	for (const event of events) await option(event.name).waitFor();
	await option(recipient).click();
	// The dropdown stays open for more choices; a click on the panel's title closes it.
	await byTestId(ndv, 'node-title-container').or(ndv.locator('header')).first().click();
	for (const text of [completed, recipient]) await field.getByText(text, { exact: true }).waitFor();
	await closeNode(page);
	await page.keyboard.press('ControlOrMeta+s');
	const saved = await page.waitForFunction(
		async ({ url, wanted }) => {
			const res = await fetch(url, {
				credentials: 'include',
				headers: { 'browser-id': localStorage.getItem('n8n-browserId') ?? '' },
			});
			if (!res.ok) return false;
			const { data } = await res.json();
			const events = data.nodes.find((n) => n.name === 'AirSign Trigger')?.parameters?.events;
			return JSON.stringify(events) === JSON.stringify(wanted) && events;
		},
		{
			url: `${dev.n8nUrl}/rest/workflows/${id}`,
			wanted: ['sessionCompleted', 'recipientStatusChanged'],
		},
		{ polling: 500 },
	);
	await saved.dispose();
}

export { airSignDescription, canvasNode, openNode, openWorkflow };
