// Drives examples/contract-assistant.json as its users do: a chat message, then the approver's POST
// to the resume URL (e2e/scenarios/agent.mts check o, `npm run dev --smoke`).
import {
	getExecution,
	hasEnded,
	listExecutions,
	n8nFetch,
	waitForExecutionEnd,
	waitForExecutions,
} from './n8n.mts';

/** What "Ask for approval" outputs (examples/contract-assistant.json). */
type ApprovalRequest = { sessionId: string; summary: string; approvalUrl: string; message: string };

/** Sends `chatInput`; resolves the execution waiting for approval, its request and the reply. */
export async function chatWithContractAssistant({
	url,
	cookie,
	workflow,
	chatInput,
	chatSessionId = 'e2e-chat',
	timeoutMs = 180_000,
}: {
	url: string;
	cookie: string;
	/** The example workflow: its id and its chat trigger's webhook. */
	workflow: { id: string; nodes: { type: string; webhookId?: string }[] };
	chatInput: string;
	chatSessionId?: string;
	timeoutMs?: number;
}) {
	const trigger = workflow.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.chatTrigger');
	if (!trigger?.webhookId) throw new Error(`${workflow.id}: no chat trigger with a webhook id`);
	const before = new Set(
		(await listExecutions(url, cookie, { workflowId: workflow.id })).map((e) => e.id),
	);
	// n8n 2.41 answers the activation at once and registers the chat webhook a moment later: until
	// then a message gets 404 and starts nothing, so it is sent again (never after any other answer).
	let replied: number | undefined;
	const send = () =>
		n8nFetch(
			`${url}/webhook/${trigger.webhookId}/chat`,
			{
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ action: 'sendMessage', sessionId: chatSessionId, chatInput }),
			},
			{ timeoutMs },
		).then(async (r: Response) => {
			replied = r.status;
			return `${r.status} ${await r.text()}`;
		});
	let chatReply = send();
	const list = await waitForExecutions(
		url,
		cookie,
		(l) => {
			if (l.some((e) => !before.has(e.id) && (hasEnded(e) || e.status === 'waiting'))) return true;
			if (replied === 404) {
				replied = undefined;
				chatReply = send();
			}
			return false;
		},
		// it waits for approval: its status decides, not its end
		{ workflowId: workflow.id, ended: false, timeoutMs },
	);
	// the wait above ended on it
	const summary = list.find((e) => !before.has(e.id))!;
	const execution = await getExecution(url, cookie, summary.id);
	if (execution.status !== 'waiting')
		throw new Error(
			`the contract assistant should wait for approval; its execution ${summary.id} ended ${execution.status}: ${JSON.stringify(execution.data.resultData.error ?? {})}`,
		);
	const request = execution.data.resultData.runData['Ask for approval'][0].data!.main![0]![0]
		.json as ApprovalRequest;
	return { execution, request, chatReply };
}

/** The approver's yes (POST { approved: true } to the approval URL); resolves the ended execution. */
export async function answerApproval({
	url,
	cookie,
	executionId,
	approvalUrl,
	timeoutMs = 180_000,
}: {
	url: string;
	cookie: string;
	executionId: string;
	approvalUrl: string;
	timeoutMs?: number;
}) {
	const res = await n8nFetch(approvalUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ approved: true }),
	});
	const text = await res.text();
	if (res.status >= 300) throw new Error(`the approval URL answered ${res.status}: ${text}`);
	return await waitForExecutionEnd(url, cookie, executionId, { timeoutMs });
}
