// Agent check o (run by e2e/agent.mts): examples/contract-assistant.json as its users drive it. A
// chat message → the agent drafts from a template → the execution waits for approval → the test
// approves → Send: the recipients are emailed only after the approval.
import assert from 'node:assert/strict';
import { CONTRACT_ASSISTANT_MODEL, JANE } from './lib/agentScripts.mts';
import { answerApproval, chatWithContractAssistant } from './lib/contractAssistant.mts';
import { toolRounds } from './lib/fakeOpenAi.mts';
import {
	RUN_TIMEOUT_MS,
	assertModelSafe,
	excerpt,
	type AgentCheckContext,
	type OutboxMail,
} from './agentShared.mts';

/** Check o; resolves its summary line. */
export async function checkContractAssistant({
	sandbox,
	fake,
	instance,
	cookie,
	example,
	log,
}: AgentCheckContext): Promise<string> {
	await sandbox.clearRequests();
	await sandbox.clearOutbox();
	const { execution, request, chatReply } = await chatWithContractAssistant({
		url: instance.url,
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
	const last = fake
		.exchanges()
		.filter((e) => e.model === CONTRACT_ASSISTANT_MODEL)
		.at(-1);
	assert.ok(last, 'the model was never asked');
	assert.equal(last.api, 'responses', 'the model node’s default: the Responses API');
	const rounds = toolRounds(last.conversation);
	// the last turn handed the draft to n8n's structured output parser
	assert.deepEqual(
		[...rounds.map((r) => r.name), ...last.turn.toolCalls!.map((c) => c.name)],
		['List_templates', 'Draft_from_template', 'format_final_json_response'],
	);
	assertModelSafe(rounds);

	// The approver says yes.
	const finished = await answerApproval({
		url: instance.url,
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
	const outbox = await sandbox.outbox();
	assert.deepEqual(
		outbox.map((m: OutboxMail) => `${m.to ?? m.email} ${m.sessionId}`).sort(),
		[`${JANE.employeeEmail} ${request.sessionId}`, `hr@example.com ${request.sessionId}`].sort(),
		'after the approval, both recipients are invited',
	);
	assert.deepEqual(fake.unknown(), [], 'every request to the model server was known');
	return `model: List_templates, Draft_from_template, format_final_json_response (Responses API); execution ${execution.id} waited with draft ${request.sessionId}, nobody emailed; approved → sent, ${outbox.length} invitations`;
}
