// UI tier step 7: the AI agent example (examples/contract-assistant.json) on the canvas, pictured
// as agent-workflow-<theme>.png (docs/images/, for docs/ai-agents.md, by `npm run screenshots`).
import type { Page } from 'playwright-core';
import type { Shot } from './checks.mts';
import type { DevUrls } from './devServer.mts';
import { canvasNode, canvasNodes, openWorkflow } from './editor.mts';

export const AGENT_EXAMPLE_ID = 'AirSignExAgent01';

export async function agentWorkflowPicture(page: Page, dev: DevUrls, shot: Shot): Promise<void> {
	await openWorkflow(page, dev.n8nUrl, AGENT_EXAMPLE_ID);
	// every node drawn: the chat, the agent with its model, tools and parser, the approval, Send
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
