import type { IExecuteFunctions } from 'n8n-workflow';

// An AI agent runs the node as "<node>Tool". Its failures must reach the model as words it can
// act on, not end the agent's run, so a tool call fails like Continue On Fail.
export function isToolCall(ctx: IExecuteFunctions): boolean {
	return ctx.getNode().type.endsWith('Tool');
}
