// The agent track's workflows (e2e/scenarios/agent.mts): a webhook → n8n's AI Agent with AirSign
// tools and a scripted model (checks n, s), and n8n's MCP Server Trigger with two tools (check r),
// all on the track's own AirSign credential.
import type { IConnections } from 'n8n-workflow';
import { OUTPUT_TEST_MODEL, TOOLS_TEST_MODEL } from '../lib/agentScripts.mts';
import type { CredentialJson, WorkflowNode, WorkflowWithId } from '../lib/fixtures.mts';
import { PACKAGE_NAME } from '../lib/n8n.mts';

/** The track's credential, beside the live track's in one n8n: it names the track's sandbox. */
export const AGENT_CREDENTIAL = { id: 'AirSignSandbox03', name: 'AirSign (agent sandbox)' };
export const TOOLS_WEBHOOK_PATH = 'airsign-agent-e2e';
export const OUTPUT_WORKFLOW_ID = 'AirSignE2eAgent02';
export const OUTPUT_WEBHOOK_PATH = 'airsign-agent-output-e2e';
/** Check s's Output Selected Fields. */
export const SELECTED = ['name', 'status'];
export const MCP_WORKFLOW_ID = 'AirSignE2eAgent03';
export const MCP_PATH = 'airsign-mcp-e2e';
/** Not a secret: the bearer token the MCP Server Trigger asks of its callers in check r. */
export const MCP_TOKEN = 'airsign-e2e-mcp-token-not-a-secret';

/** The Bearer Auth credential of the trigger (n8n's httpBearerAuth). */
export const mcpCredential: CredentialJson = {
	id: 'AirSignE2eMcpAuth1',
	name: 'MCP clients (e2e bearer token)',
	type: 'httpBearerAuth',
	data: { token: MCP_TOKEN },
};

/** A parameter the model fills in: n8n's `$fromAI`, as "Let the model define this parameter" writes it. */
const fromAI = (key: string, description: string) =>
	`={{ $fromAI('${key}', \`${description}\`, 'string') }}`;

/** A Session locator whose ID the model gives. */
const sessionIdFromAI = () => ({
	__rl: true,
	mode: 'id',
	value: fromAI('sessionId', 'The sessionId of the session'),
});

/** Get Many sessions whose name contains what the model gives, at most 10, with `output`. */
const getManyByName = (output: Record<string, unknown>) => ({
	resource: 'session',
	operation: 'getMany',
	returnAll: false,
	limit: 10,
	filters: { name: fromAI('nameContains', 'Text the session names contain') },
	...output,
});

/** An AirSign tool node on the track's credential. */
function airSignTool(
	id: string,
	name: string,
	position: [number, number],
	parameters: Record<string, unknown>,
): WorkflowNode {
	return {
		id,
		name,
		type: `${PACKAGE_NAME}.airSignTool`,
		typeVersion: 1,
		position,
		parameters: { ...parameters, options: {} },
		credentials: { airSignApi: AGENT_CREDENTIAL },
	};
}

const sendDraft = (id: string, position: [number, number]) =>
	airSignTool(id, 'Send a draft', position, {
		resource: 'session',
		operation: 'send',
		sessionId: sessionIdFromAI(),
	});

/** Node ids of one check's workflow: `uuid(block)(n)`. */
const uuid = (block: string) => (n: number) =>
	`d1e2f3a4-0000-4000-${block}-${String(n).padStart(12, '0')}`;

/**
 * A workflow whose `root` (an agent, or the MCP Server Trigger) has `tools` as its ai_tool inputs
 * and `model`, if any, as its ai_languageModel; `main` is any main connections it has besides.
 */
function aiWorkflow(
	head: { id: string; name: string; nodes: WorkflowNode[]; main?: IConnections },
	root: string,
	tools: WorkflowNode[],
	model?: string,
): WorkflowWithId {
	const into = (type: 'ai_tool' | 'ai_languageModel') => ({
		[type]: [[{ node: root, type, index: 0 }]],
	});
	return {
		id: head.id,
		name: head.name,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [...head.nodes, ...tools],
		connections: {
			...head.main,
			...(model && { [model]: into('ai_languageModel') }),
			...Object.fromEntries(tools.map((t) => [t.name, into('ai_tool')])),
		},
	};
}

/** examples/contract-assistant.json on the track's credential (the live track's is the example's). */
export function agentExample(example: WorkflowWithId): WorkflowWithId {
	const copy = structuredClone(example);
	for (const node of copy.nodes)
		if (node.credentials?.airSignApi) node.credentials.airSignApi = AGENT_CREDENTIAL;
	return copy;
}

/**
 * A webhook at `path` → an agent → `tools`, its model the example's OpenAI Chat Model on the Chat
 * Completions API (the example uses the node's default, the Responses API) with script `model`.
 */
function webhookAgent(
	example: WorkflowWithId,
	head: { id: string; name: string; block: string; path: string; model: string },
	tools: (id: (n: number) => string) => WorkflowNode[],
): WorkflowWithId {
	const id = uuid(head.block);
	const model = structuredClone(example.nodes.find((n) => n.name === 'OpenAI Chat Model')!);
	model.parameters = {
		model: { __rl: true, mode: 'id', value: head.model },
		responsesApiEnabled: false,
		options: {},
	};
	const nodes: WorkflowNode[] = [
		{
			id: id(1),
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: id(99),
			parameters: { httpMethod: 'POST', path: head.path, responseMode: 'lastNode', options: {} },
		},
		{
			id: id(2),
			name: 'Agent',
			type: '@n8n/n8n-nodes-langchain.agent',
			typeVersion: 3,
			position: [240, 0],
			parameters: {
				promptType: 'define',
				text: '={{ $json.body.message }}',
				options: { systemMessage: 'You help with contracts in AirSign.' },
			},
		},
		{ ...model, id: id(3), name: 'Model' },
	];
	const main = { Webhook: { main: [[{ node: 'Agent', type: 'main' as const, index: 0 }]] } };
	return aiWorkflow({ ...head, nodes, main }, 'Agent', tools(id), 'Model');
}

/** Check n's workflow: four AirSign tools, two of them the example's. */
export const toolsWorkflow = (example: WorkflowWithId): WorkflowWithId =>
	webhookAgent(
		example,
		{
			id: 'AirSignE2eAgent01',
			name: 'e2e: agent with AirSign tools',
			block: '8000',
			path: TOOLS_WEBHOOK_PATH,
			model: TOOLS_TEST_MODEL,
		},
		(id) => {
			const fromExample = (name: string) =>
				structuredClone(example.nodes.find((n) => n.name === name)!);
			return [
				{ ...fromExample('List templates'), id: id(4) },
				{ ...fromExample('Draft from template'), id: id(5) },
				// saved with n8n's "Set Automatically", as tool nodes were before the node had a Description
				airSignTool(id(6), 'Session progress', [1200, 240], {
					descriptionType: 'auto',
					resource: 'session',
					operation: 'get',
					sessionId: sessionIdFromAI(),
				}),
				airSignTool(id(7), 'Send invitation', [1400, 240], {
					resource: 'session',
					operation: 'sendInvitation',
					sessionId: sessionIdFromAI(),
					recipient: 'specific',
					recipientLocator: {
						__rl: true,
						mode: 'email',
						value: fromAI('recipientEmail', 'The email of the recipient to remind'),
					},
				}),
			];
		},
	);

/** Check s's workflow: Find sessions (Output Simplified), Session statuses (Selected Fields), Send. */
export const outputWorkflow = (example: WorkflowWithId): WorkflowWithId =>
	webhookAgent(
		example,
		{
			id: OUTPUT_WORKFLOW_ID,
			name: 'e2e: agent reading simplified and selected AirSign output',
			block: '8002',
			path: OUTPUT_WEBHOOK_PATH,
			model: OUTPUT_TEST_MODEL,
		},
		(id) => [
			airSignTool(id(4), 'Find sessions', [200, 240], getManyByName({ output: 'simple' })),
			airSignTool(
				id(5),
				'Session statuses',
				[400, 240],
				getManyByName({ output: 'fields', fields: SELECTED }),
			),
			sendDraft(id(6), [600, 240]),
		],
	);

/** Check r's workflow: the MCP Server Trigger with two AirSign tools. */
export function mcpWorkflow(): WorkflowWithId {
	const id = uuid('8003');
	const trigger = {
		id: id(1),
		name: 'MCP Server Trigger',
		type: '@n8n/n8n-nodes-langchain.mcpTrigger',
		// version 2: SSE and streamable HTTP both on /mcp/<path> (1.x: SSE on …/sse)
		typeVersion: 2,
		position: [0, 0] as [number, number],
		webhookId: id(99),
		parameters: { authentication: 'bearerAuth', path: MCP_PATH },
		credentials: { httpBearerAuth: { id: mcpCredential.id, name: mcpCredential.name } },
	};
	return aiWorkflow(
		{ id: MCP_WORKFLOW_ID, name: 'e2e: AirSign tools over MCP', nodes: [trigger] },
		trigger.name,
		[
			airSignTool(id(2), 'Find sessions', [-100, 240], getManyByName({ output: 'simple' })),
			sendDraft(id(3), [100, 240]),
		],
	);
}
