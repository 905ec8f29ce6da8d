import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Whether an AI agent runs the node as its tool (n8n names that node type "<node>Tool").
 *
 * A tool's failure must reach the model as words it can act on, not end the agent's run, so a
 * tool call fails like "Continue On Fail" (docs/compatibility.md).
 */
export function isToolCall(ctx: IExecuteFunctions): boolean {
	return ctx.getNode().type.endsWith('Tool');
}
