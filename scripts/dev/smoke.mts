// `npm run dev -- --smoke` (used by `npm run test:e2e`): checks that what `npm run dev` set up
// works as its banner says: the editor, credential, workflows and node types, a manual run, the
// AI agent example, and the banner's control-plane calls.
import {
	PACKAGE_NAME,
	activateWorkflowAsEditor,
	deactivateWorkflowAsEditor,
	n8nFetch,
	restGet,
	runWorkflowAsEditor,
	waitForExecutionEnd,
} from '../../e2e/lib/n8n.mts';
import { fetchFresh } from '../../e2e/lib/proc.mts';
import { answerApproval, chatWithContractAssistant } from '../../e2e/lib/contractAssistant.mts';
import { SANDBOX_CREDENTIAL_ID } from '../../e2e/lib/fixtures.mts';
import { statusInWords } from '../../nodes/AirSign/helpers/constants.ts';
import type { ControlPlaneCall, DemoCalls, DemoSession } from './banner.mts';
import { say } from './lib.mts';
import { procs } from './processes.mts';
import type { ExampleWorkflow } from './setup.mts';

/** What n8n's REST API answers (`{ data }`), as far as the checks read it. */
type RestAnswer<T> = { data: T };
/** The sandbox's outbox, as far as the checks read it. */
const outbox = async (): Promise<Array<{ sessionId: string }>> =>
	(await fetchFresh(`${procs.sandbox!.url}/_sandbox/outbox`)).json();

export async function smokeChecks(
	url: string,
	cookie: string,
	workflows: ExampleWorkflow[],
): Promise<void> {
	const editor = await n8nFetch(`${url}/`);
	const html = await editor.text();
	if (editor.status !== 200 || !/<html/i.test(html))
		throw new Error(`GET ${url}/ answered ${editor.status}, not the editor`);
	type Credential = { id: string; name: string; type: string };
	const creds = ((await restGet(url, '/rest/credentials', cookie)) as RestAnswer<Credential[]>)
		.data;
	const cred = creds.find((c) => c.id === SANDBOX_CREDENTIAL_ID);
	if (!cred || cred.type !== 'airSignApi')
		throw new Error(
			`credential ${SANDBOX_CREDENTIAL_ID} missing: ${JSON.stringify(creds.map((c) => c.id))}`,
		);
	const list = ((await restGet(url, '/rest/workflows', cookie)) as RestAnswer<ExampleWorkflow[]>)
		.data;
	const missing = workflows.filter((wf) => !list.some((w) => w.id === wf.id && w.name === wf.name));
	if (missing.length)
		throw new Error(`workflows missing in n8n: ${missing.map((w) => w.name).join(', ')}`);
	const types: Array<{ name: string }> = await (
		await n8nFetch(`${url}/types/nodes.json`, { headers: { cookie, 'browser-id': 'e2e' } })
	).json();
	for (const name of ['airSign', 'airSignTrigger'])
		if (!types.some((t) => t.name === `${PACKAGE_NAME}.${name}`))
			throw new Error(`node type ${PACKAGE_NAME}.${name} not loaded`);
	const state: { demo?: { clientId?: string } } = await (
		await fetchFresh(`${procs.sandbox!.url}/_sandbox/state`)
	).json();
	if (state.demo?.clientId !== 'demo-client')
		throw new Error('sandbox control plane did not answer as expected');
	say(
		`smoke: editor ${url}/ answers 200, credential "${cred.name}" and ${workflows.length} workflows present, both node types loaded, sandbox answers`,
	);

	// What "Execute workflow" in the editor does: a manual run in the server, against the demo data
	// (5 drafts: 2 complete with 3 recipients in all; 1 incomplete, 1 without recipients, 1 self-sign).
	const wf = (
		(await restGet(url, '/rest/workflows/AirSignExSendDr1', cookie)) as RestAnswer<ExampleWorkflow>
	).data;
	const executionId = await runWorkflowAsEditor(url, cookie, wf.id);
	const exec = await waitForExecutionEnd(url, cookie, executionId);
	if (exec.status !== 'success')
		throw new Error(`manual execution of "${wf.name}" ended ${exec.status}`);
	const sent = await outbox();
	if (sent.length !== 3)
		throw new Error(
			`expected 3 invitations in the sandbox outbox after "${wf.name}", got ${sent.length}`,
		);
	say(
		`smoke: "${wf.name}" run as from the editor: execution ${executionId} success, 3 invitations in the sandbox outbox`,
	);
	await smokeContractAssistant(url, cookie, workflows);
}
/**
 * The AI agent example with the scripted demo model: activated (its chat is public), a chat
 * message drafts a contract, the execution waits for approval, the approval sends it; then
 * deactivated again, as it was imported.
 */
async function smokeContractAssistant(
	url: string,
	cookie: string,
	workflows: ExampleWorkflow[],
): Promise<void> {
	const workflow = workflows.find((w) => w.id === 'AirSignExAgent01');
	if (!workflow) throw new Error('examples/contract-assistant.json was not imported');
	await activateWorkflowAsEditor(url, cookie, workflow.id);
	try {
		const { execution, request } = await chatWithContractAssistant({
			url,
			cookie,
			workflow,
			chatInput: 'Prepare the employment contract for Jane Citizen (jane.citizen@example.com).',
			chatSessionId: 'dev-smoke',
		});
		const finished = await answerApproval({
			url,
			cookie,
			executionId: execution.id,
			approvalUrl: request.approvalUrl,
		});
		if (finished.status !== 'success')
			throw new Error(`"${workflow.name}" ended ${finished.status} after the approval`);
		const invited = (await outbox()).filter((m) => m.sessionId === request.sessionId).length;
		if (invited !== 2)
			throw new Error(`expected 2 invitations for the approved draft, got ${invited}`);
		say(
			`smoke: "${workflow.name}": chat → draft ${request.sessionId} waited for approval → approved → sent (2 invitations)`,
		);
	} finally {
		await deactivateWorkflowAsEditor(url, cookie, workflow.id);
	}
}

/** --smoke: the banner's two control-plane calls do what it says. */
export async function smokeDemoCalls({ toSign, sign, complete }: DemoCalls): Promise<void> {
	if (!toSign) throw new Error('the demo data has no pending session to sign');
	const send = async ({ method, url, body }: ControlPlaneCall): Promise<DemoSession> => {
		const res = await fetchFresh(url, {
			method,
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
		return await res.json();
	};
	const othersLeft = toSign.recipients.some(
		(r) => r.status !== 'completed' && r.email !== sign.body.email,
	);
	const signed = await send(sign);
	const who = signed.recipients.find((r) => r.email === sign.body.email);
	if (who?.status !== 'completed' || signed.status !== (othersLeft ? 'inProgress' : 'completed'))
		throw new Error(`after ${sign.method} ${sign.url}: ${JSON.stringify(signed)}`);
	const completed = await send(complete);
	// completed as AirSign completes a session: every signer signed, none left "sent"
	if (
		completed.status !== 'completed' ||
		!completed.recipients.every((r) => r.status === 'completed')
	)
		throw new Error(`after ${complete.method} ${complete.url}: ${JSON.stringify(completed)}`);
	say(
		`smoke: the printed curls work: ${who.email} signed "${signed.name}" (now ${statusInWords(signed.status)}), "${completed.name}" completed, its ${completed.recipients.length} recipient(s) signed`,
	);
}
