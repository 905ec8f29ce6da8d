// Agent check s (run by e2e/agent.mts): what the model reads of a tool with the Output option, and
// what it does with it. A webhook → n8n's AI Agent with three AirSign tools: Find
// sessions (Get Many, Output Simplified), Session statuses (Get Many, Output Selected Fields: name,
// status) and Send a draft. Two names, each of a draft and of a pending session; the script looks
// the first up with Find sessions and the second with Session statuses and sends each draft by the
// sessionId it read. Checked: the tool results in the model's next request (simplified sessions;
// exactly sessionId, name, status), the sandbox (the two drafts sent, the pending ones untouched)
// and its outbox (the drafts' recipients only).
import assert from 'node:assert/strict';
import { OUTPUT_TEST_MODEL, items } from './lib/agentScripts.mts';
import {
	aiInto,
	airSignTool,
	apiRequests,
	askAgent,
	assertModelSafe,
	assertSelectedFields,
	assertSimplifiedSessions,
	fromAI,
	sessionIdFromAI,
	type AgentCheckContext,
	type AgentWorkflow,
	type OutboxMail,
} from './agentShared.mts';

export const OUTPUT_WORKFLOW_ID = 'AirSignE2eAgent02';
const OUTPUT_WEBHOOK_PATH = 'airsign-agent-output-e2e';
const SELECTED = ['name', 'status'];

/** Check s's workflow; the model node is check n's (`toolsWorkflow`), given here with its credential. */
export function outputWorkflow(tools: AgentWorkflow): AgentWorkflow {
	const id = (n: number) => `d1e2f3a4-0000-4000-8002-${String(n).padStart(12, '0')}`;
	// check n's workflow has these two
	const from = (name: string) => structuredClone(tools.nodes.find((n) => n.name === name)!);
	const model = from('Model');
	model.parameters.model = { __rl: true, mode: 'id', value: OUTPUT_TEST_MODEL };
	const webhook = from('Webhook');
	webhook.parameters.path = OUTPUT_WEBHOOK_PATH;
	const getMany = (output: Record<string, unknown>) => ({
		resource: 'session',
		operation: 'getMany',
		returnAll: false,
		limit: 10,
		filters: { name: fromAI('nameContains', 'Text the session names contain') },
		...output,
	});
	return {
		id: OUTPUT_WORKFLOW_ID,
		name: 'e2e: agent reading simplified and selected AirSign output',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{ ...webhook, id: id(1), webhookId: id(99) },
			{ ...from('Agent'), id: id(2) },
			{ ...model, id: id(3) },
			airSignTool(id(4), 'Find sessions', [200, 240], getMany({ output: 'simple' })),
			airSignTool(
				id(5),
				'Session statuses',
				[400, 240],
				getMany({ output: 'fields', fields: SELECTED }),
			),
			airSignTool(id(6), 'Send a draft', [600, 240], {
				resource: 'session',
				operation: 'send',
				sessionId: sessionIdFromAI(),
			}),
		],
		connections: {
			Webhook: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
			Model: aiInto('Agent', 'ai_languageModel'),
			'Find sessions': aiInto('Agent', 'ai_tool'),
			'Session statuses': aiInto('Agent', 'ai_tool'),
			'Send a draft': aiInto('Agent', 'ai_tool'),
		},
	};
}

/** Check s; resolves its summary line. */
export async function checkOutput(context: AgentCheckContext): Promise<string> {
	const { sandbox, log } = context;
	const names = ['e2e output – NDA Acme', 'e2e output – NDA Beta'];
	const drafts = [];
	const pending = [];
	for (const name of names) {
		pending.push(await sandbox.createSession({ name, status: 'pending' }));
		drafts.push(
			await sandbox.createSession({
				name,
				status: 'draft',
				recipients: [{ name: `Signer of ${name}`, email: `${drafts.length + 1}@nda.example.com` }],
			}),
		);
	}
	await sandbox.clearRequests();
	await sandbox.clearOutbox();
	const message = `Send the drafts "${names[0]}" and "${names[1]}".`;
	const { answer, rounds } = await askAgent(
		context,
		OUTPUT_WEBHOOK_PATH,
		OUTPUT_TEST_MODEL,
		message,
	);
	assert.deepEqual(
		rounds.map((r) => r.name),
		['Find_sessions', 'Send_a_draft', 'Session_statuses', 'Send_a_draft'],
	);
	assertModelSafe(rounds);
	const [simplified, sendFirst, selected, sendSecond] = rounds;
	const simplifiedItems = items(simplified.result) as Record<string, unknown>[];
	assertSimplifiedSessions(simplifiedItems, 'Find sessions (Output Simplified)');
	assertSelectedFields(
		items(selected.result) as Record<string, unknown>[],
		SELECTED,
		'Session statuses (Output Selected Fields)',
	);
	assert.deepEqual(
		// n8n 1.x adds the call's id to the arguments
		[sendFirst, sendSecond].map((r) => (r.args as { sessionId?: string }).sessionId),
		drafts.map((d) => d.sessionId),
		'the model sent each draft by the sessionId it read',
	);
	assert.match(answer, new RegExp(`Sent ${drafts[0].sessionId} and ${drafts[1].sessionId}`));

	const requests = await apiRequests(sandbox);
	log(`sandbox API requests: ${requests.join(', ')}`);
	assert.deepEqual(requests, [
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
	const outbox = await sandbox.outbox();
	assert.deepEqual(
		outbox.map((m: OutboxMail) => `${m.to ?? m.email} ${m.sessionId}`).sort(),
		drafts.map((d, i) => `${i + 1}@nda.example.com ${d.sessionId}`).sort(),
		'the drafts’ recipients were invited, nobody else',
	);
	return `the model read ${simplifiedItems.length} simplified sessions (≤ ${Math.max(...simplifiedItems.map((s) => Object.keys(s).length))} fields, each recipient with their status) and sessionId + ${SELECTED.join(', ')}; sent the 2 drafts by their IDs, the 2 pending twins untouched; 2 invitations`;
}
