// The agent track of e2e/scenarios.mts, checks n, o, p, r, s (e2e/README.md, "The agent check"): the
// AirSign tools in n8n's AI Agent (a webhook → agent with a scripted model, lib/fakeOpenAi.mts), the
// contract assistant example, and n8n's MCP Server Trigger, on the track's own sandbox and credential.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
	CONTRACT_ASSISTANT_MODEL,
	FAKE_OPENAI_API_KEY,
	JANE,
	OUTPUT_TEST_MODEL,
	SCRIPTS,
	TOOLS_TEST_MODEL,
	items,
	openAiCredential,
} from '../lib/agentScripts.mts';
import { answerApproval, chatWithContractAssistant } from '../lib/contractAssistant.mts';
import {
	startFakeOpenAi,
	type Exchange,
	type FakeOpenAi,
	type ToolRound,
} from '../lib/fakeOpenAi.mts';
import {
	sandboxCredential,
	type CredentialJson,
	type WorkflowNode,
	type WorkflowWithId,
} from '../lib/fixtures.mts';
import {
	PACKAGE_NAME,
	activateWorkflowAsEditor,
	postToWebhook,
	restPost,
	waitForExecutions,
} from '../lib/n8n.mts';
import { agentText } from '../ui/expected.mts';
import type { Sandbox, ScenarioTrack, ServedRun } from './common.mts';

/** The track's credential, beside the live track's in one n8n: it names the track's sandbox. */
const AGENT_CREDENTIAL = { id: 'AirSignSandbox03', name: 'AirSign (agent sandbox)' };
/** The track's workflows: id, name, the block of their node ids, webhook path, script. */
const TOOLS_AGENT = {
	id: 'AirSignE2eAgent01',
	name: 'e2e: agent with AirSign tools',
	block: '8000',
	path: 'airsign-agent-e2e',
	model: TOOLS_TEST_MODEL,
};
const OUTPUT_AGENT = {
	id: 'AirSignE2eAgent02',
	name: 'e2e: agent reading simplified and selected AirSign output',
	block: '8002',
	path: 'airsign-agent-output-e2e',
	model: OUTPUT_TEST_MODEL,
};
const MCP = { id: 'AirSignE2eAgent03', name: 'e2e: AirSign tools over MCP', block: '8003' };
const MCP_PATH = 'airsign-mcp-e2e';
/** Check s's Output Selected Fields. */
const SELECTED = ['name', 'status'];
/** Not a secret: the bearer token the MCP Server Trigger asks of its callers in check r. */
const MCP_TOKEN = 'airsign-e2e-mcp-token-not-a-secret';
const mcpCredential: CredentialJson = {
	id: 'AirSignE2eMcpAuth1',
	name: 'MCP clients (e2e bearer token)',
	type: 'httpBearerAuth',
	data: { token: MCP_TOKEN },
};

/** A parameter the model fills in: n8n's `$fromAI`, as "Let the model define this parameter" writes it. */
const fromAI = (key: string, description: string) =>
	`={{ $fromAI('${key}', \`${description}\`, 'string') }}`;
const sessionIdFromAI = () => ({
	__rl: true,
	mode: 'id',
	value: fromAI('sessionId', 'The sessionId of the session'),
});

/** An AirSign tool node on the track's credential. */
const airSignTool = (name: string, parameters: Record<string, unknown>): WorkflowNode => ({
	name,
	type: `${PACKAGE_NAME}.airSignTool`,
	typeVersion: 1,
	parameters: { ...parameters, options: {} },
	credentials: { airSignApi: AGENT_CREDENTIAL },
});
/** Get Many sessions whose name contains what the model gives, at most 10, with `output`. */
const findSessions = (name: string, output: Record<string, unknown>) =>
	airSignTool(name, {
		resource: 'session',
		operation: 'getMany',
		returnAll: false,
		limit: 10,
		filters: { name: fromAI('nameContains', 'Text the session names contain') },
		...output,
	});
const sendDraft = () =>
	airSignTool('Send a draft', {
		resource: 'session',
		operation: 'send',
		sessionId: sessionIdFromAI(),
	});

/** Node ids of one workflow: `uuid(block)(n)`. */
const uuid = (block: string) => (n: number) =>
	`d1e2f3a4-0000-4000-${block}-${String(n).padStart(12, '0')}`;

/**
 * `nodes` (ids from `head.block`), each but `root` feeding `root`: through the connection `into`
 * names for it, else as its ai_tool.
 */
function aiWorkflow(
	{ id, name, block }: { id: string; name: string; block: string },
	root: string,
	nodes: WorkflowNode[],
	into: Record<string, 'main' | 'ai_languageModel'> = {},
): WorkflowWithId {
	const nodeId = uuid(block);
	const feeding = nodes.filter((n) => n.name !== root);
	return {
		id,
		name,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: nodes.map((n, i) => ({ position: [220 * i, 240], ...n, id: nodeId(i + 1) })),
		connections: Object.fromEntries(
			feeding.map(({ name }) => {
				const type = into[name] ?? 'ai_tool';
				return [name, { [type]: [[{ node: root, type, index: 0 }]] }];
			}),
		),
	};
}

const exampleNode = (example: WorkflowWithId, name: string) =>
	example.nodes.find((n) => n.name === name)!;

/**
 * A webhook at `agent.path` → an agent → `tools`, its model the example's OpenAI Chat Model on the
 * Chat Completions API (the example uses the node's default, the Responses API), script `agent.model`.
 */
const webhookAgent = (
	example: WorkflowWithId,
	agent: typeof TOOLS_AGENT,
	tools: WorkflowNode[],
): WorkflowWithId =>
	aiWorkflow(
		agent,
		'Agent',
		[
			{
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				webhookId: uuid(agent.block)(99),
				parameters: { httpMethod: 'POST', path: agent.path, responseMode: 'lastNode', options: {} },
			},
			{
				name: 'Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: 3,
				parameters: {
					promptType: 'define',
					text: '={{ $json.body.message }}',
					options: { systemMessage: 'You help with contracts in AirSign.' },
				},
			},
			{
				...exampleNode(example, 'OpenAI Chat Model'),
				name: 'Model',
				parameters: {
					model: { __rl: true, mode: 'id', value: agent.model },
					responsesApiEnabled: false,
					options: {},
				},
			},
			...tools,
		],
		{ Webhook: 'main', Model: 'ai_languageModel' },
	);

/** The track's workflows besides the example: check n's, check s's and check r's. */
const trackWorkflows = (example: WorkflowWithId): WorkflowWithId[] => [
	webhookAgent(example, TOOLS_AGENT, [
		exampleNode(example, 'List templates'),
		exampleNode(example, 'Draft from template'),
		// saved with n8n's "Set Automatically", as tool nodes were before the node had a Description
		airSignTool('Session progress', {
			descriptionType: 'auto',
			resource: 'session',
			operation: 'get',
			sessionId: sessionIdFromAI(),
		}),
		airSignTool('Send invitation', {
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
	]),
	webhookAgent(example, OUTPUT_AGENT, [
		findSessions('Find sessions', { output: 'simple' }),
		findSessions('Session statuses', { output: 'fields', fields: SELECTED }),
		sendDraft(),
	]),
	aiWorkflow(MCP, 'MCP Server Trigger', [
		{
			name: 'MCP Server Trigger',
			type: '@n8n/n8n-nodes-langchain.mcpTrigger',
			// version 2: SSE and streamable HTTP both on /mcp/<path> (1.x: SSE on …/sse)
			typeVersion: 2,
			webhookId: uuid(MCP.block)(99),
			parameters: { authentication: 'bearerAuth', path: MCP_PATH },
			credentials: { httpBearerAuth: { id: mcpCredential.id, name: mcpCredential.name } },
		},
		findSessions('Find sessions', { output: 'simple' }),
		sendDraft(),
	]),
];

/** A bound for one agent run (hang detector only: the scripted model answers at once). */
const RUN_TIMEOUT_MS = 180_000;
/** What a tool may hand back at most, in characters: a few items, not a page dump. */
const SMALL = 4_000;
/** Strings that must never reach a model: credential secrets and tokens. */
const SECRET_PATTERNS = [/demo-secret|sk-airsign|eyJ[\w-]{10,}/, /access_token|bearer\s/i];
/** n8n's guideline for a simplified answer (a tool's Output Simplified): at most 10 fields. */
const SIMPLIFIED_MAX_FIELDS = 10;
const SIMPLIFIED_RECIPIENT = ['recipientId', 'name', 'email', 'status', 'signingOrder'];

/** What each check is handed; `example` is examples/contract-assistant.json on the track's credential. */
type AgentCheckContext = ServedRun & {
	fake: FakeOpenAi;
	example: WorkflowWithId;
	log: (line: string) => void;
};
type Item = Record<string, unknown>;

const excerpt = (text: string, n = 300): string =>
	text.length > n ? `${text.slice(0, n)}…` : text;

const clearSandbox = (sandbox: Sandbox) =>
	Promise.all([sandbox.clearRequests(), sandbox.clearOutbox()]);

/** The API requests the sandbox answered since it was cleared ("GET /api/v1/Sessions 200"), token fetches left out, logged. */
async function apiRequests({ sandbox, log }: AgentCheckContext): Promise<string[]> {
	const api = (await sandbox.requests())
		.map((r) => `${r.method} ${r.path} ${r.status}`)
		.filter((r) => !r.startsWith('POST /oidc/token'));
	log(`sandbox API requests: ${api.join(', ')}`);
	return api;
}

/** The sandbox's outbox as "<to> <sessionId>" lines, sorted. */
const mailsSent = async (sandbox: Sandbox): Promise<string[]> =>
	(await sandbox.outbox()).map((m) => `${m.to} ${m.sessionId}`).sort();

const allKnown = (fake: FakeOpenAi) =>
	assert.deepEqual(fake.unknown(), [], 'every request to the model server was known');

/** The model's last request for `model`; asserts it was asked and nothing unknown came. */
function lastExchange(fake: FakeOpenAi, model: string): Exchange {
	const last = fake
		.exchanges()
		.filter((e) => e.model === model)
		.at(-1);
	assert.ok(last, 'the model was never asked');
	allKnown(fake);
	return last;
}

/** Posts `message` to `agent`'s webhook: resolves its answer, its model's last request, its tool calls. */
async function askAgent(
	{ fake, instance, log }: AgentCheckContext,
	{ path, model }: typeof TOOLS_AGENT,
	message: string,
): Promise<{ answer: string; last: Exchange; rounds: ToolRound[] }> {
	const headers = { 'content-type': 'application/json' };
	const url = `${instance.url}/webhook/${path}`;
	const body = JSON.stringify({ message });
	const res = await postToWebhook(url, { headers, body }, { timeoutMs: RUN_TIMEOUT_MS });
	const answer = await res.text();
	assert.equal(res.status, 200, `the webhook answered ${res.status}: ${answer.slice(0, 500)}`);
	const last = lastExchange(fake, model);
	const rounds = last.conversation.rounds;
	for (const r of rounds)
		log(
			`model → ${r.name}(${JSON.stringify(r.args)})\n    tool → ${excerpt(String(r.result), 700)}`,
		);
	return { answer, last, rounds };
}

/** Every tool result of a conversation is small, readable JSON with no secret or stack trace in it. */
function assertModelSafe(
	rounds: ToolRound[],
): asserts rounds is (ToolRound & { result: string })[] {
	for (const { name, args, result } of rounds) {
		const where = `${name}(${JSON.stringify(args)})`;
		assert.ok(typeof result === 'string' && result.length > 0, `${where}: no result`);
		assert.ok(result.length <= SMALL, `${where}: ${result.length} characters`);
		assert.doesNotThrow(() => JSON.parse(result), `${where}: not JSON`);
		for (const secret of SECRET_PATTERNS)
			assert.doesNotMatch(result, secret, `${where} handed the model a secret`);
		assert.doesNotMatch(result, /\n\s+at\s|node_modules|\.js:\d+/, `${where}: a stack trace`);
	}
}

/** Sessions from a tool with Output Simplified: each with its ID, name, status and every recipient, few fields. */
function assertSimplifiedSessions(items: Item[], where: string) {
	assert.ok(items.length > 0, `${where}: no items`);
	for (const item of items) {
		const fields = Object.keys(item);
		assert.ok(
			fields.length <= SIMPLIFIED_MAX_FIELDS,
			`${where}: ${fields.length} fields (${fields.join(', ')}), not a simplified session`,
		);
		for (const field of ['sessionId', 'name', 'status'])
			assert.ok(field in item, `${where}: no ${field} in ${excerpt(JSON.stringify(item))}`);
		assert.ok(Array.isArray(item.recipients), `${where}: no recipients array`);
		for (const recipient of item.recipients as Item[])
			assert.deepEqual(Object.keys(recipient), SIMPLIFIED_RECIPIENT, `${where}: a recipient`);
	}
}

const mostFields = (items: Item[]) => Math.max(...items.map((s) => Object.keys(s).length));

async function checkTools(context: AgentCheckContext): Promise<string> {
	const { sandbox, log } = context;
	// a session waiting for two signatures, whose progress the model reads
	const pending = await sandbox.createSession({
		name: 'e2e agent – supplier agreement',
		status: 'pending',
		recipients: [
			{ name: 'Kim Supplier', email: 'kim@example.com' },
			{ name: 'Lou Buyer', email: 'lou@example.com' },
		],
	});
	await clearSandbox(sandbox);
	const { answer, last, rounds } = await askAgent(
		context,
		TOOLS_AGENT,
		`Draft Jane Citizen's employment contract (Product Designer from 2 March 2026, 98000 a year), then check session ${pending.sessionId} and remind whoever has not signed.`,
	);
	assert.equal(last.api, 'chat', 'Use Responses API off: Chat Completions');

	// The four tools offered, each described by its operation's agent text (the Description's
	// default), also the three saved with descriptionType 'auto' (Session progress, the example's two).
	const offered = Object.fromEntries(last.conversation.tools.map((t) => [t.name, t.description]));
	log(`tools offered to the model:\n${JSON.stringify(offered, null, 2)}`);
	assert.deepEqual(
		offered,
		{
			Draft_from_template: agentText('session', 'createFromTemplate'),
			List_templates: agentText('template', 'getMany'),
			Send_invitation: agentText('session', 'sendInvitation'),
			Session_progress: agentText('session', 'get'),
		},
		'the four tools, each described by its operation’s agent text',
	);
	for (const [name, text] of Object.entries(offered))
		assert.match(text, /costs 1 request|List Sessions requests/, `${name} says what it costs`);
	for (const name of ['Send_invitation', 'Draft_from_template'] as const)
		assert.match(offered[name], /emails real people/, `${name} says it emails people`);
	const called = rounds.map((r) => r.name).join(', ');
	assert.equal(
		called,
		'List_templates, Draft_from_template, Draft_from_template, Session_progress, Send_invitation',
	);
	assertModelSafe(rounds);
	const [list, badDraft, draft, progress, invitation] = rounds;
	assert.match(list.result, /Employment contract/);
	// the bad email: an error naming the field and the value, nothing sent
	assert.match(badDraft.result, /Employee Email/, 'the error names the field');
	assert.match(badDraft.result, /not an email address/, 'the error says what is wrong');
	assert.match(badDraft.result, /jane\.citizen at example\.com/, 'the error quotes the value');
	const [created] = items(draft.result);
	assert.equal(created.status, 'draft');
	assert.equal(created.name, JANE.sessionName);
	assert.match(progress.result, /kim@example\.com/);
	assert.match(invitation.result, /kim@example\.com/);
	assert.match(answer, /reminded kim@example\.com/, `the agent's answer: ${answer}`);

	// The sandbox saw exactly these requests: the bad draft sent none.
	const api = await apiRequests(context);
	assert.deepEqual(api, [
		'GET /api/v1/Templates 200',
		'POST /api/v1/SessionFromTemplate 200',
		`GET /api/v1/Session/${pending.sessionId} 200`,
		`POST /api/v1/Session/${pending.sessionId}/SendInvitation 200`,
	]);
	const session = await sandbox.getSession(created.sessionId!);
	assert.equal(session.status, 'draft', 'the draft was not sent');
	const [first] = session.recipients;
	assert.deepEqual(
		[first.name, first.email],
		[JANE.employeeName, JANE.employeeEmail],
		'the roles the model chose',
	);
	assert.deepEqual(
		await mailsSent(sandbox),
		[`kim@example.com ${pending.sessionId}`],
		'exactly one email: the reminder',
	);
	return `model called ${called}; bad email → "${excerpt(badDraft.result, 160)}" with 0 requests; sandbox saw ${api.length} API requests; 1 reminder`;
}

/** o: examples/contract-assistant.json: chat → draft → approval → sent, nobody emailed before. */
async function checkContractAssistant(context: AgentCheckContext): Promise<string> {
	const { sandbox, fake, instance, cookie, example, log } = context;
	await clearSandbox(sandbox);
	const { url } = instance;
	const { execution, request, chatReply } = await chatWithContractAssistant({
		url,
		cookie,
		workflow: example,
		chatInput: `Prepare the employment contract for ${JANE.employeeName} (${JANE.employeeEmail}), ${JANE.position}, starting ${JANE.startDate}, salary ${JANE.salary}.`,
		timeoutMs: RUN_TIMEOUT_MS,
	});
	log(`approval request: ${JSON.stringify(request)}`);
	log(`chat answered: ${excerpt(await chatReply, 500)}`);
	const draft = await sandbox.getSession(request.sessionId);
	assert.equal(draft.status, 'draft', 'nothing is sent before the approval');
	assert.deepEqual(await sandbox.outbox(), [], 'nobody was emailed before the approval');
	const last = lastExchange(fake, CONTRACT_ASSISTANT_MODEL);
	assert.equal(last.api, 'responses', 'the model node’s default: the Responses API');
	const rounds = last.conversation.rounds;
	// the last turn handed the draft to n8n's structured output parser
	assert.deepEqual(
		[...rounds.map((r) => r.name), ...last.turn.toolCalls!.map((c) => c.name)],
		['List_templates', 'Draft_from_template', 'format_final_json_response'],
	);
	assertModelSafe(rounds);

	// The approver says yes.
	const finished = await answerApproval({
		url,
		cookie,
		executionId: execution.id,
		approvalUrl: request.approvalUrl,
		timeoutMs: RUN_TIMEOUT_MS,
	});
	assert.equal(
		finished.status,
		'success',
		`after the approval: ${JSON.stringify(finished.data.resultData.error ?? {})}`,
	);
	const sent = finished.data.resultData.runData['Send the contract'][0].data!.main![0]![0].json;
	assert.equal(sent.sessionId, request.sessionId);
	assert.equal(sent.status, 'pending');
	const mails = await mailsSent(sandbox);
	assert.deepEqual(
		mails,
		[`${JANE.employeeEmail} ${request.sessionId}`, `hr@example.com ${request.sessionId}`].sort(),
		'after the approval, both recipients are invited',
	);
	allKnown(fake);
	return `model: List_templates, Draft_from_template, format_final_json_response (Responses API); execution ${execution.id} waited with draft ${request.sessionId}, nobody emailed; approved → sent, ${mails.length} invitations`;
}

/** p: the list as the editor asks for it (lmChatOpenAi's `searchModels`, through n8n's REST API). */
async function checkModelList({ fake, instance, cookie, example }: AgentCheckContext) {
	const model = exampleNode(example, 'OpenAI Chat Model');
	const { data } = await restPost<{ data: { results: { value: string }[] } }>(
		instance.url,
		'/rest/dynamic-node-parameters/resource-locator-results',
		cookie,
		{
			nodeTypeAndVersion: { name: model.type, version: model.typeVersion },
			path: 'parameters.model',
			methodName: 'searchModels',
			currentNodeParameters: model.parameters,
			credentials: model.credentials,
			filter: '',
		},
	);
	const names = data.results.map((r) => r.value).sort();
	assert.deepEqual(names, Object.keys(SCRIPTS).sort(), `the list: ${JSON.stringify(data)}`);
	allKnown(fake);
	return `the Model list shows ${names.join(', ')} (GET /v1/models)`;
}

/** An MCP client of the trigger at `url` over `kind`, with the bearer token. */
async function mcpClient(kind: 'streamable HTTP' | 'SSE', url: URL): Promise<Client> {
	const requestInit = { headers: { authorization: `Bearer ${MCP_TOKEN}` } };
	const client = new Client({ name: `airsign-e2e-mcp-client (${kind})`, version: '1.0.0' });
	await client.connect(
		kind === 'SSE'
			? new SSEClientTransport(url, { requestInit })
			: new StreamableHTTPClientTransport(url, { requestInit }),
	);
	return client;
}

/** Calls tool `name` over MCP: the one text part the trigger answers (the tool's output as JSON), logged. */
async function callTool(client: Client, log: AgentCheckContext['log'], name: string, args: Item) {
	const result = await client.callTool({ name, arguments: args });
	const content = result.content as { type: string; text?: string }[];
	assert.equal(content.length, 1, `one content part: ${excerpt(JSON.stringify(result))}`);
	assert.equal(content[0].type, 'text');
	const text = String(content[0].text);
	log(`${name}(${JSON.stringify(args)}) → isError ${result.isError}: ${excerpt(text, 700)}`);
	return { text, isError: result.isError };
}

/** r: through a published workflow's MCP Server Trigger (streamable HTTP and SSE), with a bearer token. */
async function checkMcp(context: AgentCheckContext): Promise<string> {
	const { sandbox, instance, cookie, log } = context;
	const name = 'e2e mcp – lease';
	const pending = await sandbox.createSession({ name: `${name} Acme`, status: 'pending' });
	const draft = await sandbox.createSession({ name: `${name} Beta`, status: 'draft' });
	await clearSandbox(sandbox);
	const url = new URL(`${instance.url}/mcp/${MCP_PATH}`);

	// Waits for the published workflow's endpoint (n8n 2.41 registers it a moment after the start);
	// a caller without the token is refused before any MCP exchange.
	const accept = 'application/json, text/event-stream';
	const headers = { 'content-type': 'application/json', accept };
	const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
	const anonymous = await postToWebhook(url.href, { headers, body }, { timeoutMs: RUN_TIMEOUT_MS });
	assert.equal(anonymous.status, 403, `without the token: ${await anonymous.text()}`);

	const client = await mcpClient('streamable HTTP', url);
	let sent: string;
	let found: Item[];
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

		const list = await callTool(client, log, 'Find_sessions', { nameContains: name });
		assert.ok(!list.isError, `Find_sessions failed: ${list.text}`);
		found = items(list.text);
		assertSimplifiedSessions(found, 'Find_sessions over MCP');
		assert.deepEqual(
			found.map((s) => `${s.sessionId} ${s.status}`).sort(),
			[`${pending.sessionId} pending`, `${draft.sessionId} draft`].sort(),
		);

		sent = (await callTool(client, log, 'Send_a_draft', { sessionId: pending.sessionId })).text;
		// an item with the error in words (n8n sets isError only for its own failures)
		const [refused] = items(sent) as Item[];
		assert.equal(refused?.sessionId, pending.sessionId, 'the error item names the session');
		assert.equal(refused.code, 'NOT_A_DRAFT');
		assert.match(String(refused.error), /The session is not a draft, so it cannot be sent/);
		assert.match(String(refused.description), /Send Invitation/, 'says what to do instead');
		assertModelSafe([
			{ name: 'Find_sessions', args: {}, result: list.text },
			{ name: 'Send_a_draft', args: {}, result: sent },
		]);
	} finally {
		await client.close();
	}

	// The older transport, which MCP clients of 2024 speak: the same tools.
	const sse = await mcpClient('SSE', url);
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
		workflowId: MCP.id,
		timeoutMs: RUN_TIMEOUT_MS,
	});
	assert.equal(executions.length, 2, 'one execution per tool call');
	return `listTools over streamable HTTP and SSE: Find_sessions, Send_a_draft; Get Many → ${found.length} sessions of ≤ ${mostFields(found)} fields; Send of a pending session → "${excerpt(sent, 160)}"; 0 emails`;
}

/**
 * s: two names, each of a draft and of a pending session; the script looks the first up with Find
 * sessions and the second with Session statuses and sends each draft by the sessionId it read.
 */
async function checkOutput(context: AgentCheckContext): Promise<string> {
	const { sandbox } = context;
	const names = ['e2e output – NDA Acme', 'e2e output – NDA Beta'];
	const pending = [];
	const drafts = [];
	for (const [i, name] of names.entries()) {
		pending.push(await sandbox.createSession({ name, status: 'pending' }));
		const recipients = [{ name: `Signer of ${name}`, email: `${i + 1}@nda.example.com` }];
		drafts.push(await sandbox.createSession({ name, status: 'draft', recipients }));
	}
	await clearSandbox(sandbox);
	const { answer, rounds } = await askAgent(
		context,
		OUTPUT_AGENT,
		`Send the drafts "${names[0]}" and "${names[1]}".`,
	);
	assert.deepEqual(
		rounds.map((r) => r.name),
		['Find_sessions', 'Send_a_draft', 'Session_statuses', 'Send_a_draft'],
	);
	assertModelSafe(rounds);
	const [simplified, sendFirst, selected, sendSecond] = rounds;
	const simplifiedItems = items(simplified.result);
	assertSimplifiedSessions(simplifiedItems, 'Find sessions (Output Simplified)');
	// Output Selected Fields: exactly the record's ID and the fields chosen
	const selectedItems = items(selected.result);
	assert.ok(selectedItems.length > 0, 'Session statuses (Output Selected Fields): no items');
	for (const item of selectedItems)
		assert.deepEqual(
			Object.keys(item).sort(),
			['sessionId', ...SELECTED].sort(),
			`Session statuses (Output Selected Fields): ${excerpt(JSON.stringify(item))}`,
		);
	assert.deepEqual(
		// n8n 1.x adds the call's id to the arguments
		[sendFirst, sendSecond].map((r) => (r.args as { sessionId?: string }).sessionId),
		drafts.map((d) => d.sessionId),
		'the model sent each draft by the sessionId it read',
	);
	assert.match(answer, new RegExp(`Sent ${drafts[0].sessionId} and ${drafts[1].sessionId}`));

	assert.deepEqual(await apiRequests(context), [
		'GET /api/v1/Sessions 200',
		`POST /api/v1/Session/${drafts[0].sessionId}/Send 200`,
		'GET /api/v1/Sessions 200',
		`POST /api/v1/Session/${drafts[1].sessionId}/Send 200`,
	]);
	for (const d of drafts) assert.equal((await sandbox.getSession(d.sessionId)).status, 'pending');
	for (const p of pending) {
		const now = await sandbox.getSession(p.sessionId);
		assert.deepEqual([now.status, now.updatedAt], [p.status, p.updatedAt], 'a pending twin moved');
	}
	assert.deepEqual(
		await mailsSent(sandbox),
		drafts.map((d, i) => `${i + 1}@nda.example.com ${d.sessionId}`).sort(),
		'the drafts’ recipients were invited, nobody else',
	);
	return `the model read ${simplifiedItems.length} simplified sessions (≤ ${mostFields(simplifiedItems)} fields, each recipient with their status) and sessionId + ${SELECTED.join(', ')}; sent the 2 drafts by their IDs, the 2 pending twins untouched; 2 invitations`;
}

const AGENT_CHECKS: Record<string, (context: AgentCheckContext) => Promise<string>> = {
	'n. an agent uses the AirSign tools: list templates, a bad draft corrected, a draft, progress, a reminder':
		checkTools,
	'o. contract assistant (examples/contract-assistant.json): chat → draft → approval → sent':
		checkContractAssistant,
	'p. the OpenAI Chat Model’s model list comes from the server': checkModelList,
	'r. an MCP client (@modelcontextprotocol/sdk) lists and calls the AirSign tools through the MCP Server Trigger':
		checkMcp,
	's. an agent reads Output Simplified and Selected Fields and sends the drafts it found':
		checkOutput,
};

/** The track's scripted model server (its URL is in a credential) and example, set by its imports. */
let track: { fake: FakeOpenAi; example: WorkflowWithId } | undefined;

/** The agent track (checks n, o, p, r, s), one after the other on its own sandbox and model server. */
export const agentTrack: ScenarioTrack = {
	name: 'agent',
	label: 'agent track setup (n, o, p, r, s)',
	examples: ['contract-assistant'],
	async imports({ examples, log }, sandbox) {
		const said = (line: string) => log(`agent: ${line}`);
		const fake = await startFakeOpenAi({
			scripts: SCRIPTS,
			apiKey: FAKE_OPENAI_API_KEY,
			log: said,
		});
		said(`scripted OpenAI-compatible server on ${fake.baseUrl}`);
		// examples/contract-assistant.json on the track's credential (the live track's is the example's)
		const example = structuredClone(examples['contract-assistant']);
		for (const { credentials } of example.nodes)
			if (credentials?.airSignApi) credentials.airSignApi = AGENT_CREDENTIAL;
		track = { fake, example };
		const workflows = [example, ...trackWorkflows(example)];
		return {
			credentials: [
				{ ...sandboxCredential(sandbox.url), ...AGENT_CREDENTIAL },
				openAiCredential(fake.baseUrl),
				mcpCredential,
			],
			workflows,
			activate: [TOOLS_AGENT.id, example.id],
			stop: () => fake.close(),
		};
	},
	async run({ log, check }, t) {
		// published as a user does, with the editor's switch: no n8n command to wait for
		for (const id of [OUTPUT_AGENT.id, MCP.id])
			await activateWorkflowAsEditor(t.instance.url, t.cookie, id);
		const context = { ...track!, ...t, log: (line: string) => log(`agent: ${line}`) };
		for (const [name, run] of Object.entries(AGENT_CHECKS)) await check(name, () => run(context));
	},
};
