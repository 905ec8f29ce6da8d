// UI tier step 2: the AirSign node from the nodes panel, every operation (ui/expected.mts) with its
// fields, hints and notices and no other's field. Pictures: node-panel-actions, node-panel.
// Steps 6 and 7: the AirSign tool (from `usableAsTool`) in an AI Agent's tool list, its
// Description prefilled with the operation's agent text (picture agent-tool-output); the AI agent
// example (examples/contract-assistant.json) on the canvas (agent-workflow, for docs/ai-agents.md).
import type { Page } from 'playwright-core';
import { chainWorkflow } from '../lib/fixtures.mts';
import {
	byTestId,
	canvasNode,
	canvasNodes,
	chooseOption,
	closeNode,
	createWorkflow,
	fail,
	MANUAL_TRIGGER,
	openNodeCreatorFrom,
	openWorkflow,
	optionShows,
	type Say,
	type Shot,
	type Theme,
	type DevUrls,
} from './editor.mts';
import { agentText, airSignDescription, expectedPanels } from './expected.mts';

export async function nodePanel(
	page: Page,
	dev: DevUrls,
	theme: Theme,
	shot: Shot,
	say: Say,
): Promise<void> {
	const panels = expectedPanels();
	const workflow = chainWorkflow({ name: `UI tier: the nodes panel (${theme})` }, [MANUAL_TRIGGER]);
	const id = await createWorkflow(page, dev.n8nUrl, workflow);
	await openWorkflow(page, dev.n8nUrl, id);
	const creator = await openNodeCreatorFrom(page, MANUAL_TRIGGER.name);
	await byTestId(creator, 'node-creator-search-bar').fill('AirSign');
	await byTestId(creator, 'item-iterator-item')
		.filter({ has: byTestId(page, 'node-creator-item-name').getByText('AirSign', { exact: true }) })
		.first()
		.click();
	for (const panel of panels)
		await creator.getByText(panel.action, { exact: true }).first().waitFor({ state: 'attached' });
	// n8n shows the trigger's description; both nodes carry the action node's (nodesPanel.ts)
	const described = airSignDescription().description;
	if ((await creator.getByText(described, { exact: true }).count()) === 0)
		fail(`the AirSign entry's Node details do not show "${described}"`);
	await shot('node-panel-actions');
	const first = panels.find((p) => p.resource === 'session' && p.operation === 'send') ?? panels[0];
	await creator.getByText(first.action, { exact: true }).first().click();
	const ndv = byTestId(page, 'ndv');
	await ndv.waitFor();
	await canvasNode(page, first.action).waitFor({ state: 'attached' });

	const problems: string[] = [];
	for (const panel of panels) {
		await chooseOption(page, 'resource', panel.resourceName);
		await chooseOption(page, 'operation', panel.operationName);
		const starts = [...panel.notices, ...panel.hints].map((t) => plain(t).slice(0, 60));
		const text = await panelText(page, [...panel.labels, ...starts]);
		const where = `${panel.resourceName} → ${panel.operationName}`;
		for (const label of panel.labels)
			if (!text.includes(label)) problems.push(`${where}: field "${label}" not shown`);
		for (const start of starts)
			if (!plain(text).includes(start)) problems.push(`${where}: "${start}…" not shown`);
		for (const name of panel.hiddenNames)
			if ((await byTestId(ndv, `parameter-input-${name}`).count()) > 0)
				problems.push(`${where}: field ${name} shown, but it belongs to other operations`);
		if (panel.resource === 'session' && panel.operation === 'send') await shot('node-panel');
		if (
			panel.resource === 'session' &&
			panel.operation === 'getMany' &&
			!(await byTestId(ndv, 'parameter-input-simple')
				.locator('[role="switch"], input[type="checkbox"]')
				.first()
				.isChecked())
		)
			problems.push(`${where}: Simplify is off, but it is on by default`);
	}
	if (problems.length) fail(problems.join('\n'));
	say(`${panels.length} operations checked against the node's description`);
	await closeNode(page);
}

const PARAMETERS =
	'[data-test-id="ndv"] [data-test-id="node-parameters"], [data-test-id="ndv"] .node-parameters-wrapper';

/** The open panel's parameters' text, read once (re-rendered) it shows all of `wanted`, or at the bound. */
async function panelText(page: Page, wanted: string[]): Promise<string> {
	await page
		.waitForFunction(
			([selector, wanted]) => {
				const panel = document.querySelector<HTMLElement>(selector);
				const shown = (panel?.innerText ?? '').replace(/\s+/g, ' ');
				return wanted.every((t) => shown.includes(t));
			},
			[PARAMETERS, wanted] as const,
			{ polling: 'raf' },
		)
		.catch(() => {});
	return await page.locator(PARAMETERS).first().innerText();
}

/** Text as the browser shows it: HTML tags of a notice dropped, whitespace collapsed. */
const plain = (text: string): string =>
	text
		.replace(/<[^>]+>/g, '')
		.replace(/\s+/g, ' ')
		.trim();

// n8n 2.41.3 offers community nodes as tools without N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE
const AGENT_TYPE = '@n8n/n8n-nodes-langchain.agent';
const AGENT_VERSION = 3.1;

export async function agentTool(page: Page, dev: DevUrls, shot: Shot): Promise<void> {
	const agent = { name: 'AI Agent', type: AGENT_TYPE, typeVersion: AGENT_VERSION, parameters: {} };
	const id = await createWorkflow(
		page,
		dev.n8nUrl,
		chainWorkflow({ name: 'UI tier: an AI Agent' }, [agent]),
	);
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
	// the generated tool: type suffix Tool, named by the short action and n8n's " in AirSign"
	const tool = page.locator(
		'[data-test-id="canvas-node"][data-node-type="n8n-nodes-airsign.airSignTool"]',
	);
	await tool.waitFor({ state: 'attached' });
	const name = await tool.getAttribute('data-node-name');
	if (name !== 'Send a session in AirSign') fail(`the tool node is named "${name}"`);
	// the Description, left unedited, follows the operation
	await descriptionShows(page, agentText('session', 'send'));
	await chooseOption(page, 'operation', 'Get');
	await descriptionShows(page, agentText('session', 'get'));
	// A tool chooses what the model receives with Output (Simplified by default), not Simplify.
	await chooseOption(page, 'operation', 'Get Many');
	await byTestId(ndv, 'parameter-input-limit').waitFor(); // Get Many's panel, not Get's
	await optionShows(page, 'output', 'Simplified');
	if (await byTestId(ndv, 'parameter-input-simple').count())
		fail('the tool shows Simplify beside Output');
	await chooseOption(page, 'output', 'Selected Fields');
	const fields = byTestId(ndv, 'parameter-input-fields');
	await fields.waitFor();
	// no focus (a focused select keeps the Escape that closes the panel) nor hover in the picture
	await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
	await page.mouse.move(1200, 600); // over the empty output pane
	await fields.evaluate((el) => el.scrollIntoView({ block: 'end' }));
	await shot('agent-tool-output');
	await closeNode(page);
	await tool.waitFor();
}

async function descriptionShows(page: Page, text: string): Promise<void> {
	const selector = '[data-test-id="ndv"] [data-test-id="parameter-input-toolDescription"] textarea';
	try {
		await page.waitForFunction(
			([sel, wanted]) => document.querySelector<HTMLTextAreaElement>(sel)?.value === wanted,
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

/** Step 7: every node drawn (the chat, the agent with its model, tools and parser, the approval, Send). */
export async function agentWorkflowPicture(page: Page, dev: DevUrls, shot: Shot): Promise<void> {
	await openWorkflow(page, dev.n8nUrl, 'AirSignExAgent01');
	for (const name of [
		'Contract assistant',
		'Draft from template',
		'Wait for approval',
		'Send the contract',
	])
		await canvasNode(page, name).waitFor();
	const count = await canvasNodes(page).count();
	if (count !== 10) throw new Error(`the contract assistant shows ${count} nodes, not 10`);
	// n8n fits a workflow it opens into the view: the picture shows it whole
	await shot('agent-workflow');
}
