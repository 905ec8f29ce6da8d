// Agent check n (run by e2e/agent.mts): a webhook → n8n's AI Agent with four AirSign tools (List
// templates, Draft from template, Session progress, Send invitation) and the tools-test script as
// its model. The script lists templates, drafts with a bad email (the tool must answer in words the
// model can act on, and send nothing), drafts again corrected, reads a pending session's progress
// and reminds its next signer. Checked: the sandbox saw exactly those requests, the outbox exactly
// that reminder, and what each tool handed back to the model is small, readable and free of secrets.
import assert from 'node:assert/strict';
import { JANE, TOOLS_TEST_MODEL } from './lib/agentScripts.mts';
import { agentText } from './ui/expected.mts';
import {
	aiInto,
	airSignTool,
	apiRequests,
	askAgent,
	assertModelSafe,
	excerpt,
	fromAI,
	sessionIdFromAI,
	type AgentCheckContext,
	type AgentNode,
	type AgentWorkflow,
	type OutboxMail,
} from './agentShared.mts';

const TOOLS_WEBHOOK_PATH = 'airsign-agent-e2e';

/** Check n's workflow: a webhook → an agent with four AirSign tools and the tools-test model. */
export function toolsWorkflow(example: AgentWorkflow): AgentWorkflow {
	const exampleNode = (name: string) =>
		// the example has these nodes
		structuredClone(example.nodes.find((n) => n.name === name)!);
	const id = (n: number) => `d1e2f3a4-0000-4000-8000-${String(n).padStart(12, '0')}`;
	const model = exampleNode('OpenAI Chat Model');
	model.parameters = {
		model: { __rl: true, mode: 'id', value: TOOLS_TEST_MODEL },
		// the Chat Completions API (the example uses the node's default, the Responses API)
		responsesApiEnabled: false,
		options: {},
	};
	const tool = (n: number, name: string, parameters: Record<string, unknown>): AgentNode =>
		airSignTool(id(n), name, [200 * n, 240], parameters);
	const sessionId = sessionIdFromAI();
	const nodes: AgentNode[] = [
		{
			id: id(1),
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: id(99),
			parameters: {
				httpMethod: 'POST',
				path: TOOLS_WEBHOOK_PATH,
				responseMode: 'lastNode',
				options: {},
			},
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
		{ ...exampleNode('List templates'), id: id(4) },
		{ ...exampleNode('Draft from template'), id: id(5) },
		// saved with n8n's "Set Automatically", as tool nodes were before the node had a Description
		tool(6, 'Session progress', {
			descriptionType: 'auto',
			resource: 'session',
			operation: 'get',
			sessionId,
		}),
		tool(7, 'Send invitation', {
			resource: 'session',
			operation: 'sendInvitation',
			sessionId,
			recipient: 'specific',
			recipientLocator: {
				__rl: true,
				mode: 'email',
				value: fromAI('recipientEmail', 'The email of the recipient to remind'),
			},
		}),
	];
	const ai = (type: 'ai_tool' | 'ai_languageModel') => aiInto('Agent', type);
	return {
		id: 'AirSignE2eAgent01',
		name: 'e2e: agent with AirSign tools',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes,
		connections: {
			Webhook: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
			Model: ai('ai_languageModel'),
			'List templates': ai('ai_tool'),
			'Draft from template': ai('ai_tool'),
			'Session progress': ai('ai_tool'),
			'Send invitation': ai('ai_tool'),
		},
	};
}

/** Check n; resolves its summary line. */
export async function checkTools(context: AgentCheckContext): Promise<string> {
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
	await sandbox.clearRequests();
	await sandbox.clearOutbox();
	const message = `Draft Jane Citizen's employment contract (Product Designer from 2 March 2026, 98000 a year), then check session ${pending.sessionId} and remind whoever has not signed.`;
	const { answer, last, rounds } = await askAgent(
		context,
		TOOLS_WEBHOOK_PATH,
		TOOLS_TEST_MODEL,
		message,
	);
	assert.equal(last.api, 'chat', 'Use Responses API off: Chat Completions');

	// What the agent offered: the four tools, each described by its tool's Description (getToolDescriptionForNode).
	const offered = Object.fromEntries(last.conversation.tools.map((t) => [t.name, t.description]));
	log(`tools offered to the model:\n${JSON.stringify(offered, null, 2)}`);
	assert.deepEqual(Object.keys(offered).sort(), [
		'Draft_from_template',
		'List_templates',
		'Send_invitation',
		'Session_progress',
	]);
	// Each reads its operation's agent text (the Description's default), not the short action, also
	// the three saved with descriptionType 'auto' (Session progress, and the example's two).
	assert.deepEqual(
		offered,
		{
			Draft_from_template: agentText('session', 'createFromTemplate'),
			List_templates: agentText('template', 'getMany'),
			Send_invitation: agentText('session', 'sendInvitation'),
			Session_progress: agentText('session', 'get'),
		},
		'each tool is described by its operation’s agent text',
	);
	// each says what it costs; those that email people say so
	for (const [name, text] of Object.entries(offered))
		assert.match(text, /costs 1 request|List Sessions requests/, `${name} says what it costs`);
	for (const name of ['Send_invitation', 'Draft_from_template'] as const)
		assert.match(offered[name], /emails real people/, `${name} says it emails people`);
	assert.deepEqual(
		rounds.map((r) => r.name),
		[
			'List_templates',
			'Draft_from_template',
			'Draft_from_template',
			'Session_progress',
			'Send_invitation',
		],
	);
	assertModelSafe(rounds);
	const [list, badDraft, draft, progress, invitation] = rounds;
	assert.match(list.result, /Employment contract/);
	// the bad email: an error naming the field and the value, nothing sent
	assert.match(badDraft.result, /Employee Email/, 'the error names the field');
	assert.match(badDraft.result, /not an email address/, 'the error says what is wrong');
	assert.match(badDraft.result, /jane\.citizen at example\.com/, 'the error quotes the value');
	const drafted = JSON.parse(draft.result);
	const created = Array.isArray(drafted) ? drafted[0] : drafted;
	assert.equal(created.status, 'draft');
	assert.equal(created.name, JANE.sessionName);
	assert.match(progress.result, /kim@example\.com/);
	assert.match(invitation.result, /kim@example\.com/);
	assert.match(answer, /reminded kim@example\.com/, `the agent's answer: ${answer}`);

	// The sandbox saw exactly these requests: the bad draft sent none.
	const api = await apiRequests(sandbox);
	log(`sandbox API requests: ${api.join(', ')}`);
	assert.deepEqual(api, [
		'GET /api/v1/Templates 200',
		'POST /api/v1/SessionFromTemplate 200',
		`GET /api/v1/Session/${pending.sessionId} 200`,
		`POST /api/v1/Session/${pending.sessionId}/SendInvitation 200`,
	]);
	const session = await sandbox.getSession(created.sessionId);
	assert.equal(session.status, 'draft', 'the draft was not sent');
	assert.deepEqual(
		session.recipients
			.map((r: { name: string | null; email: string | null }) => `${r.name} <${r.email}>`)
			.slice(0, 1),
		[`${JANE.employeeName} <${JANE.employeeEmail}>`],
		'the roles the model chose',
	);
	const outbox = await sandbox.outbox();
	assert.deepEqual(
		outbox.map((m: OutboxMail) => `${m.to ?? m.email} ${m.sessionId}`),
		[`kim@example.com ${pending.sessionId}`],
		'exactly one email: the reminder',
	);
	return `model called ${rounds.map((r) => r.name).join(', ')}; bad email → "${excerpt(badDraft.result, 160)}" with 0 requests; sandbox saw ${api.length} API requests; 1 reminder`;
}
