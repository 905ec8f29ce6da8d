// Agent check r (run by e2e/agent.mts): the official MCP client reaches two AirSign tools through a
// published workflow with n8n's MCP Server Trigger (version 2: streamable HTTP and SSE on
// /mcp/<path>, in n8n 1.123.81 and 2.41.3), with a bearer token.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { items } from './lib/agentScripts.mts';
import type { CredentialJson, WorkflowWithId } from './lib/fixtures.mts';
import { postToWebhook, waitForExecutions } from './lib/n8n.mts';
import { agentText } from './ui/expected.mts';
import {
	RUN_TIMEOUT_MS,
	aiWorkflow,
	airSignTool,
	apiRequests,
	assertModelSafe,
	assertSimplifiedSessions,
	clearSandbox,
	excerpt,
	getManyByName,
	mostFields,
	sessionIdFromAI,
	uuid,
	type AgentCheckContext,
} from './agentChecks.mts';

export const MCP_WORKFLOW_ID = 'AirSignE2eAgent03';
const MCP_PATH = 'airsign-mcp-e2e';
/** Not a secret: the bearer token the MCP Server Trigger asks of its callers in this check. */
const MCP_TOKEN = 'airsign-e2e-mcp-token-not-a-secret';
const TRIGGER = 'MCP Server Trigger';

/** The Bearer Auth credential of the trigger (n8n's httpBearerAuth). */
export const mcpCredential: CredentialJson = {
	id: 'AirSignE2eMcpAuth1',
	name: 'MCP clients (e2e bearer token)',
	type: 'httpBearerAuth',
	data: { token: MCP_TOKEN },
};

/** Check r's workflow: the MCP Server Trigger with two AirSign tools (node version 2). */
export function mcpWorkflow(): WorkflowWithId {
	const id = uuid('8003');
	const trigger = {
		id: id(1),
		name: TRIGGER,
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
		TRIGGER,
		[
			airSignTool(id(2), 'Find sessions', [-100, 240], getManyByName({ output: 'simple' })),
			airSignTool(id(3), 'Send a draft', [100, 240], {
				resource: 'session',
				operation: 'send',
				sessionId: sessionIdFromAI(),
			}),
		],
	);
}

/** What the client hands over: the transport of `kind` to the trigger, with the bearer token. */
function transport(kind: 'streamable HTTP' | 'SSE', url: URL): Transport {
	const requestInit = { headers: { authorization: `Bearer ${MCP_TOKEN}` } };
	return kind === 'SSE'
		? new SSEClientTransport(url, { requestInit })
		: new StreamableHTTPClientTransport(url, { requestInit });
}

/** A tool result's text (the trigger answers one text part: the tool's output as JSON). */
function resultText(result: Awaited<ReturnType<Client['callTool']>>): string {
	const content = result.content as { type: string; text?: string }[];
	assert.equal(content.length, 1, `one content part: ${excerpt(JSON.stringify(result))}`);
	assert.equal(content[0].type, 'text');
	return String(content[0].text);
}

/** Check r; resolves its summary line. */
export async function checkMcp(context: AgentCheckContext): Promise<string> {
	const { sandbox, instance, cookie, log } = context;
	const name = 'e2e mcp – lease';
	const pending = await sandbox.createSession({ name: `${name} Acme`, status: 'pending' });
	const draft = await sandbox.createSession({ name: `${name} Beta`, status: 'draft' });
	await clearSandbox(sandbox);
	const url = new URL(`${instance.url}/mcp/${MCP_PATH}`);

	// Waits for the published workflow's endpoint (n8n 2.41 registers it a moment after the start);
	// a caller without the token is refused before any MCP exchange.
	const headers = {
		'content-type': 'application/json',
		accept: 'application/json, text/event-stream',
	};
	const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
	const anonymous = await postToWebhook(url.href, { headers, body }, { timeoutMs: RUN_TIMEOUT_MS });
	assert.equal(anonymous.status, 403, `without the token: ${await anonymous.text()}`);

	const client = new Client({ name: 'airsign-e2e-mcp-client', version: '1.0.0' });
	await client.connect(transport('streamable HTTP', url));
	let sent: string;
	let found: Record<string, unknown>[];
	try {
		const { tools } = await client.listTools();
		log(`MCP tools: ${JSON.stringify(tools.map((t) => [t.name, t.inputSchema.properties]))}`);
		assert.deepEqual(
			Object.fromEntries(tools.map((t) => [t.name, t.description])),
			{
				Find_sessions: agentText('session', 'getMany'),
				Send_a_draft: agentText('session', 'send'),
			},
			'listTools: the AirSign tools with their operations’ agent texts',
		);

		const list = await client.callTool({
			name: 'Find_sessions',
			arguments: { nameContains: name },
		});
		const listText = resultText(list);
		log(`Find_sessions → ${excerpt(listText, 700)}`);
		assert.ok(!list.isError, `Find_sessions failed: ${listText}`);
		found = items(listText) as Record<string, unknown>[];
		assertSimplifiedSessions(found, 'Find_sessions over MCP');
		assert.deepEqual(
			found.map((s) => `${s.sessionId} ${s.status}`).sort(),
			[`${pending.sessionId} pending`, `${draft.sessionId} draft`].sort(),
		);

		const send = await client.callTool({
			name: 'Send_a_draft',
			arguments: { sessionId: pending.sessionId },
		});
		sent = resultText(send);
		log(`Send_a_draft(pending) → isError ${send.isError}: ${sent}`);
		// an item with the error in words (n8n sets isError only for its own failures)
		const [refused] = items(sent) as Record<string, unknown>[];
		assert.equal(refused?.sessionId, pending.sessionId, 'the error item names the session');
		assert.equal(refused.code, 'NOT_A_DRAFT');
		assert.match(String(refused.error), /The session is not a draft, so it cannot be sent/);
		assert.match(String(refused.description), /Send Invitation/, 'says what to do instead');
		assertModelSafe([
			{ name: 'Find_sessions', args: {}, result: listText },
			{ name: 'Send_a_draft', args: {}, result: sent },
		]);
	} finally {
		await client.close();
	}

	// The older transport, which MCP clients of 2024 speak: the same tools.
	const sse = new Client({ name: 'airsign-e2e-mcp-sse-client', version: '1.0.0' });
	await sse.connect(transport('SSE', url));
	try {
		const { tools } = await sse.listTools();
		assert.deepEqual(tools.map((t) => t.name).sort(), ['Find_sessions', 'Send_a_draft'], 'SSE');
	} finally {
		await sse.close();
	}

	assert.deepEqual(await apiRequests(context), [
		'GET /api/v1/Sessions 200',
		`POST /api/v1/Session/${pending.sessionId}/Send 400`,
	]);
	assert.deepEqual(await sandbox.outbox(), [], 'nobody was emailed');
	assert.equal((await sandbox.getSession(pending.sessionId)).status, 'pending');
	assert.equal((await sandbox.getSession(draft.sessionId)).status, 'draft', 'the draft not sent');
	// each tool call is an execution of the workflow (listing the tools is not)
	const executions = await waitForExecutions(instance.url, cookie, (list) => list.length >= 2, {
		workflowId: MCP_WORKFLOW_ID,
		timeoutMs: RUN_TIMEOUT_MS,
	});
	assert.equal(executions.length, 2, 'one execution per tool call');
	return `listTools over streamable HTTP and SSE: Find_sessions, Send_a_draft; Get Many → ${found.length} sessions of ≤ ${mostFields(found)} fields; Send of a pending session → "${excerpt(sent, 160)}"; 0 emails`;
}
