// @ts-nocheck (typed file by file: issue 34)
// The AirSign node as an AI agent's tool, in a real n8n (see e2e/README.md, "The agent check").
//
//   [AIRSIGN_E2E_N8N=1|2] npx tsx e2e/agent.mts [--keep] [--tarball <file.tgz>]
//
// One n8n (`n8n start`), one sandbox, one scripted OpenAI-compatible server (e2e/lib/fakeOpenAi.mts)
// on free loopback ports. n8n's AI Agent with n8n's OpenAI Chat Model, whose credential's Base URL
// is that server, runs two workflows:
//   n. tools: a webhook → an agent with four AirSign tools (List templates, Draft from template,
//      Session progress, Send invitation). The script lists templates, drafts with a bad email
//      (the tool must answer in words the model can act on, and send nothing), drafts again
//      corrected, reads a pending session's progress and reminds its next signer. Checked: the
//      sandbox saw exactly those requests, the outbox exactly that reminder, and what each tool
//      handed back to the model is small, readable and free of secrets.
//   p. the model list the editor shows for n8n's OpenAI Chat Model comes from the server.
//   o. examples/contract-assistant.json: a chat message → the agent drafts from a template → the
//      execution waits for approval → the test approves → Send: the recipients are emailed only
//      after the approval.
// Exit 1 on any failure.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PROFILE, installN8n } from './install-n8n.mts';
import {
	CONTRACT_ASSISTANT_MODEL,
	FAKE_OPENAI_API_KEY,
	JANE,
	SCRIPTS,
	TOOLS_TEST_MODEL,
	openAiCredential,
} from './lib/agentScripts.mts';
import { createChecks } from './lib/checks.mts';
import { answerApproval, chatWithContractAssistant } from './lib/contractAssistant.mts';
import { startFakeOpenAi, toolRounds } from './lib/fakeOpenAi.mts';
import {
	SANDBOX_CREDENTIAL_ID,
	SANDBOX_CREDENTIAL_NAME,
	loadExamples,
	sandboxCredential,
} from './lib/fixtures.mts';
import {
	PACKAGE_NAME,
	activateWorkflow,
	getFreePort,
	importCredential,
	importWorkflow,
	installPackageIntoN8n,
	makeUserFolder,
	postToWebhook,
	packPackage,
	removeUserFolder,
	restPost,
	setupOwner,
	startN8n,
} from './lib/n8n.mts';
import { describeExit } from './lib/proc.mts';
import { startSandboxProcess } from './lib/sandbox.mts';
import { agentText } from './ui/expected.mts';

const keep = process.argv.includes('--keep');
const argValue = (name) =>
	process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const t00 = Date.now();
const log = (msg) =>
	process.stdout.write(
		`[agent ${PROFILE.label} +${((Date.now() - t00) / 1000).toFixed(1)}s] ${msg}\n`,
	);
const { results, check, step } = createChecks(log);

/**
 * n8n 1.x before 1.9x offered community nodes as tools only with this switch; 2.41.3 and 1.123.81
 * have no such switch any more (read in their sources: no N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE),
 * so it is set only to show that the check does not depend on it either way.
 */
const AGENT_ENV = { N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: 'true' };
/** A bound for one agent run (hang detector only: the scripted model answers at once). */
const RUN_TIMEOUT_MS = 180_000;
const TOOLS_WEBHOOK_PATH = 'airsign-agent-e2e';
/** What a tool may hand back at most, in characters: a few items, not a page dump. */
const SMALL = 4_000;
/** Strings that must never reach a model: credential secrets and tokens. */
const SECRET_PATTERNS = [
	/demo-secret/,
	/sk-airsign/,
	/access_token/i,
	/bearer\s/i,
	/eyJ[\w-]{10,}/,
];

const example = loadExamples()['contract-assistant'];
if (!example) throw new Error('examples/contract-assistant.json missing');
const exampleNode = (name) => structuredClone(example.nodes.find((n) => n.name === name));
const AIRSIGN_CRED = { airSignApi: { id: SANDBOX_CREDENTIAL_ID, name: SANDBOX_CREDENTIAL_NAME } };
const fromAI = (key, description) => `={{ $fromAI('${key}', \`${description}\`, 'string') }}`;

/** Check n's workflow: a webhook → an agent with four AirSign tools and the tools-test model. */
function toolsWorkflow() {
	const id = (n) => `d1e2f3a4-0000-4000-8000-${String(n).padStart(12, '0')}`;
	const model = exampleNode('OpenAI Chat Model');
	model.parameters = {
		model: { __rl: true, mode: 'id', value: TOOLS_TEST_MODEL },
		// the Chat Completions API (the example uses the node's default, the Responses API)
		responsesApiEnabled: false,
		options: {},
	};
	const tool = (n, name, parameters) => ({
		id: id(n),
		name,
		type: `${PACKAGE_NAME}.airSignTool`,
		typeVersion: 1,
		position: [200 * n, 240],
		parameters: { ...parameters, options: {} },
		credentials: AIRSIGN_CRED,
	});
	const sessionId = {
		__rl: true,
		mode: 'id',
		value: fromAI('sessionId', 'The sessionId of the session'),
	};
	const nodes = [
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
			recipient: 'email',
			recipientEmail: fromAI('recipientEmail', 'The email of the recipient to remind'),
		}),
	];
	const ai = (type) => ({ [type]: [[{ node: 'Agent', type, index: 0 }]] });
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

/** Every tool result of a conversation is small, readable JSON with no secret or stack trace in it. */
function assertModelSafe(rounds) {
	for (const r of rounds) {
		const where = `${r.name}(${JSON.stringify(r.args)})`;
		assert.equal(typeof r.result, 'string', `${where}: no result`);
		assert.ok(r.result.length > 0, `${where}: empty result`);
		assert.ok(r.result.length <= SMALL, `${where}: ${r.result.length} characters`);
		assert.doesNotThrow(() => JSON.parse(r.result), `${where}: not JSON`);
		for (const secret of SECRET_PATTERNS)
			assert.doesNotMatch(r.result, secret, `${where} handed the model a secret`);
		assert.doesNotMatch(r.result, /\n\s+at\s|node_modules|\.js:\d+/, `${where}: a stack trace`);
	}
}

const excerpt = (text, n = 300) => (text.length > n ? `${text.slice(0, n)}…` : text);

async function checkTools({ sandbox, fake, instance }) {
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
	const res = await postToWebhook(
		`${instance.url}/webhook/${TOOLS_WEBHOOK_PATH}`,
		{ headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message }) },
		{ timeoutMs: RUN_TIMEOUT_MS },
	);
	const answer = await res.text();
	assert.equal(res.status, 200, `the webhook answered ${res.status}: ${answer.slice(0, 500)}`);
	const last = fake
		.exchanges()
		.filter((e) => e.model === TOOLS_TEST_MODEL)
		.at(-1);
	assert.ok(last, 'the model was never asked');
	assert.equal(last.api, 'chat', 'Use Responses API off: Chat Completions');
	assert.deepEqual(fake.unknown(), [], 'every request to the model server was known');

	// What the agent offered: the four tools, each described by its tool's Description (getToolDescriptionForNode).
	const offered = Object.fromEntries(last.conversation.tools.map((t) => [t.name, t.description]));
	log(`tools offered to the model:\n${JSON.stringify(offered, null, 2)}`);
	assert.deepEqual(Object.keys(offered).sort(), [
		'Draft_from_template',
		'List_templates',
		'Send_invitation',
		'Session_progress',
	]);
	// What the model called and what each tool handed back.
	const rounds = toolRounds(last.conversation);
	for (const r of rounds)
		log(`model → ${r.name}(${JSON.stringify(r.args)})\n    tool → ${excerpt(r.result, 700)}`);
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
	for (const name of ['Send_invitation', 'Draft_from_template'])
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
	const requests = (await sandbox.requests()).map((r) => `${r.method} ${r.path} ${r.status}`);
	log(`sandbox requests: ${requests.join(', ')}`);
	const api = requests.filter((r) => !r.startsWith('POST /oidc/token'));
	assert.deepEqual(api, [
		'GET /api/v1/Templates 200',
		'POST /api/v1/SessionFromTemplate 200',
		`GET /api/v1/Session/${pending.sessionId} 200`,
		`POST /api/v1/Session/${pending.sessionId}/SendInvitation 200`,
	]);
	const session = await sandbox.getSession(created.sessionId);
	assert.equal(session.status, 'draft', 'the draft was not sent');
	assert.deepEqual(
		session.recipients.map((r) => `${r.name} <${r.email}>`).slice(0, 1),
		[`${JANE.employeeName} <${JANE.employeeEmail}>`],
		'the roles the model chose',
	);
	const outbox = await sandbox.outbox();
	assert.deepEqual(
		outbox.map((m) => `${m.to ?? m.email} ${m.sessionId}`),
		[`kim@example.com ${pending.sessionId}`],
		'exactly one email: the reminder',
	);
	return `model called ${rounds.map((r) => r.name).join(', ')}; bad email → "${excerpt(badDraft.result, 160)}" with 0 requests; sandbox saw ${api.length} API requests; 1 reminder`;
}

async function checkContractAssistant({ sandbox, fake, instance, cookie }) {
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
	assert.equal(last.api, 'responses', 'the model node’s default: the Responses API');
	const rounds = toolRounds(last.conversation);
	// the last turn handed the draft to n8n's structured output parser
	assert.deepEqual(
		[...rounds.map((r) => r.name), ...last.turn.toolCalls.map((c) => c.name)],
		['List_templates', 'Draft_from_template', 'format_final_json_response'],
	);
	assertModelSafe(rounds);

	// The approver says yes.
	const finished = await answerApproval({
		url: instance.url,
		cookie,
		workflow: example,
		executionId: execution.id,
		approvalUrl: request.approvalUrl,
		timeoutMs: RUN_TIMEOUT_MS,
	});
	assert.equal(
		finished.status,
		'success',
		`after the approval: ${JSON.stringify(finished.data.resultData.error ?? {})}`,
	);
	const sent = finished.data.resultData.runData['Send the contract'][0].data.main[0][0].json;
	assert.equal(sent.sessionId, request.sessionId);
	assert.equal(sent.status, 'pending');
	const outbox = await sandbox.outbox();
	assert.deepEqual(
		outbox.map((m) => `${m.to ?? m.email} ${m.sessionId}`).sort(),
		[`${JANE.employeeEmail} ${request.sessionId}`, `hr@example.com ${request.sessionId}`].sort(),
		'after the approval, both recipients are invited',
	);
	assert.deepEqual(fake.unknown(), [], 'every request to the model server was known');
	return `model: List_templates, Draft_from_template, format_final_json_response (Responses API); execution ${execution.id} waited with draft ${request.sessionId}, nobody emailed; approved → sent, ${outbox.length} invitations`;
}

/**
 * p. The editor's model list: what n8n asks when the Model field's list opens
 * (`searchModels` of lmChatOpenAi, through POST /rest/dynamic-node-parameters/resource-locator-results).
 */
async function checkModelList({ fake, instance, cookie }) {
	const model = example.nodes.find((n) => n.name === 'OpenAI Chat Model');
	const { data } = await restPost(
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
	assert.deepEqual(fake.unknown(), [], 'every request to the model server was known');
	return `the Model list shows ${names.join(', ')} (GET /v1/models)`;
}

async function main() {
	await installN8n();
	let tarball = argValue('--tarball');
	let packDir;
	if (!tarball) {
		tarball = (await step('npm run build + npm pack', () => packPackage())).tarball;
		packDir = path.dirname(tarball);
	}
	const userFolder = makeUserFolder('airsign-e2e-agent-');
	let sandbox;
	let fake;
	let instance;
	try {
		sandbox = await step('sandbox started', async () =>
			startSandboxProcess({ port: await getFreePort() }),
		);
		fake = await startFakeOpenAi({ scripts: SCRIPTS, apiKey: FAKE_OPENAI_API_KEY, log });
		log(`scripted OpenAI-compatible server on ${fake.baseUrl}`);
		await step('package installed', () => installPackageIntoN8n(userFolder, tarball));
		await step('credentials + 2 workflows imported, both activated', async () => {
			await importCredential(userFolder, [
				sandboxCredential(sandbox.url),
				openAiCredential(fake.baseUrl),
			]);
			const tools = toolsWorkflow();
			await importWorkflow(userFolder, [tools, example]);
			for (const wf of [tools, example]) await activateWorkflow(userFolder, wf.id);
		});
		instance = await step('n8n start', () => startN8n({ userFolder, env: AGENT_ENV }));
		const { cookie } = await setupOwner(instance.url);
		await check(
			'n. an agent uses the AirSign tools: list templates, a bad draft corrected, a draft, progress, a reminder',
			() => checkTools({ sandbox, fake, instance }),
		);
		await check(
			'o. contract assistant (examples/contract-assistant.json): chat → draft → approval → sent',
			() => checkContractAssistant({ sandbox, fake, instance, cookie }),
		);
		await check('p. the OpenAI Chat Model’s model list comes from the server', () =>
			checkModelList({ fake, instance, cookie }),
		);
	} finally {
		if (instance) log(`n8n stopped (${describeExit(await instance.stop())})`);
		if (sandbox) await sandbox.stop();
		if (fake) await fake.close();
		if (keep) log(`kept ${userFolder}`);
		else removeUserFolder(userFolder);
		if (packDir) rmSync(packDir, { recursive: true, force: true });
	}
}

let fatal;
try {
	await main();
} catch (err) {
	fatal = err;
	log(`FAIL setup: ${err.stack ?? err}`);
}
console.log(`\n[e2e] agent summary (${PROFILE.label})`);
for (const r of results)
	console.log(
		`  ${r.ok ? 'PASS' : 'FAIL'}  ${r.s.toFixed(1).padStart(5)} s  ${r.name}\n                 ${r.detail}`,
	);
const failed = fatal || results.length < 3 || results.some((r) => !r.ok);
process.exit(failed ? 1 : 0);
