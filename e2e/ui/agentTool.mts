// UI tier steps 6 and 7: the AirSign tool (from `usableAsTool`) in an AI Agent's tool list, its
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
	openNodeCreatorFrom,
	openWorkflow,
	optionShows,
	type Shot,
	type DevUrls,
} from './editor.mts';
import { agentText } from './expected.mts';

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
