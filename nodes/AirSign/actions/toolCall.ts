import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Whether an AI agent runs the node as its tool (n8n names that node type "<node>Tool").
 *
 * A tool's failure must reach the model as words it can act on, not end the agent's run: n8n
 * 1.x (1.123) hands a tool's thrown error to the agent, which fails the workflow; n8n 2.x gives
 * the model only the message. So a tool call fails like "Continue On Fail": an item with the
 * error, its code and description, and what the call was about.
 */
export function isToolCall(ctx: IExecuteFunctions): boolean {
	return ctx.getNode().type.endsWith('Tool');
}
