// What the agent checks share (e2e/agent.mts runs them: n in agentTools.mts, o in
// agentContractAssistant.mts, p in agentModelList.mts, r in agentMcp.mts, s in agentOutput.mts):
// what each is handed, the bound of one agent run, AirSign tool nodes, and the check of what a tool
// hands the model.
import assert from 'node:assert/strict';
import type { IConnections, NodeConnectionType } from 'n8n-workflow';
import { toolRounds, type Exchange, type FakeOpenAi, type ToolRound } from './lib/fakeOpenAi.mts';
import { SANDBOX_CREDENTIAL_ID, SANDBOX_CREDENTIAL_NAME } from './lib/fixtures.mts';
import { PACKAGE_NAME, postToWebhook, type startN8n } from './lib/n8n.mts';
import type { startSandboxProcess } from './lib/sandbox.mts';

/** A bound for one agent run (hang detector only: the scripted model answers at once). */
export const RUN_TIMEOUT_MS = 180_000;
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

/** A node of a workflow as n8n exports and imports it (the fields the agent checks write or read). */
export type AgentNode = {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
};

/** A workflow as imported into n8n: examples/contract-assistant.json, the tools workflow. */
export type AgentWorkflow = {
	id: string;
	name: string;
	active?: boolean;
	settings?: Record<string, unknown>;
	nodes: AgentNode[];
	connections: IConnections;
};

const AIRSIGN_CRED = { airSignApi: { id: SANDBOX_CREDENTIAL_ID, name: SANDBOX_CREDENTIAL_NAME } };

/** A parameter the model fills in: n8n's `$fromAI`, as "Let the model define this parameter" writes it. */
export const fromAI = (key: string, description: string) =>
	`={{ $fromAI('${key}', \`${description}\`, 'string') }}`;

/** A Session locator whose ID the model gives. */
export const sessionIdFromAI = (description = 'The sessionId of the session') => ({
	__rl: true,
	mode: 'id',
	value: fromAI('sessionId', description),
});

/** An AirSign tool node (`airSignTool`, the AirSign credential of the sandbox) of a check's workflow. */
export function airSignTool(
	id: string,
	name: string,
	position: [number, number],
	parameters: Record<string, unknown>,
): AgentNode {
	return {
		id,
		name,
		type: `${PACKAGE_NAME}.airSignTool`,
		typeVersion: 1,
		position,
		parameters: { ...parameters, options: {} },
		credentials: AIRSIGN_CRED,
	};
}

/** A connection of `type` (ai_tool, ai_languageModel…) into the root node `root`. */
export const aiInto = (root: string, type: NodeConnectionType) => ({
	[type]: [[{ node: root, type, index: 0 }]],
});

export type Sandbox = Awaited<ReturnType<typeof startSandboxProcess>>;
export type N8nInstance = Awaited<ReturnType<typeof startN8n>>;

/** What each check is handed: what runs, the owner's cookie, the example and the tier's log. */
export interface AgentCheckContext {
	sandbox: Sandbox;
	fake: FakeOpenAi;
	instance: N8nInstance;
	cookie: string;
	/** examples/contract-assistant.json */
	example: AgentWorkflow;
	log: (line: string) => void;
}

/** What the sandbox's control plane lists: a request it answered, an email it "sent". */
export interface SandboxRequest {
	method: string;
	path: string;
	status: number;
}
export interface OutboxMail {
	to?: string;
	email?: string;
	sessionId: string;
}

/** The API requests the sandbox answered since it was cleared ("GET /api/v1/Sessions 200"), token fetches left out. */
export async function apiRequests(sandbox: Sandbox): Promise<string[]> {
	return (await sandbox.requests())
		.map((r: SandboxRequest) => `${r.method} ${r.path} ${r.status}`)
		.filter((r: string) => !r.startsWith('POST /oidc/token'));
}

/**
 * Posts `message` to an agent workflow's webhook at `path`, whose model is `model`: resolves the
 * agent's answer, the model's last request and its tool calls with what each tool handed back.
 */
export async function askAgent(
	{ fake, instance, log }: AgentCheckContext,
	path: string,
	model: string,
	message: string,
): Promise<{ answer: string; last: Exchange; rounds: ToolRound[] }> {
	const res = await postToWebhook(
		`${instance.url}/webhook/${path}`,
		{ headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message }) },
		{ timeoutMs: RUN_TIMEOUT_MS },
	);
	const answer = await res.text();
	assert.equal(res.status, 200, `the webhook answered ${res.status}: ${answer.slice(0, 500)}`);
	const last = fake
		.exchanges()
		.filter((e) => e.model === model)
		.at(-1);
	assert.ok(last, 'the model was never asked');
	assert.deepEqual(fake.unknown(), [], 'every request to the model server was known');
	const rounds = toolRounds(last.conversation);
	for (const r of rounds)
		log(
			`model → ${r.name}(${JSON.stringify(r.args)})\n    tool → ${excerpt(String(r.result), 700)}`,
		);
	return { answer, last, rounds };
}

/** A tool call the tool answered. */
export type AnsweredRound = ToolRound & { result: string };

/** Every tool result of a conversation is small, readable JSON with no secret or stack trace in it. */
export function assertModelSafe(rounds: ToolRound[]): asserts rounds is AnsweredRound[] {
	for (const r of rounds) {
		const where = `${r.name}(${JSON.stringify(r.args)})`;
		assert.equal(typeof r.result, 'string', `${where}: no result`);
		// a string: asserted above
		const result = r.result as string;
		assert.ok(result.length > 0, `${where}: empty result`);
		assert.ok(result.length <= SMALL, `${where}: ${result.length} characters`);
		assert.doesNotThrow(() => JSON.parse(result), `${where}: not JSON`);
		for (const secret of SECRET_PATTERNS)
			assert.doesNotMatch(result, secret, `${where} handed the model a secret`);
		assert.doesNotMatch(result, /\n\s+at\s|node_modules|\.js:\d+/, `${where}: a stack trace`);
	}
}

export const excerpt = (text: string, n = 300): string =>
	text.length > n ? `${text.slice(0, n)}…` : text;

/** n8n's guideline for a simplified answer (Simplify, a tool's Output Simplified): at most 10 fields. */
const SIMPLIFIED_MAX_FIELDS = 10;

/** A recipient of a simplified session: who, and whether they signed. */
const SIMPLIFIED_RECIPIENT = ['recipientId', 'name', 'email', 'status', 'signingOrder'];

/** Sessions from a tool with Output Simplified: each with its ID, name, status and every recipient, few fields. */
export function assertSimplifiedSessions(items: Record<string, unknown>[], where: string) {
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
		for (const recipient of item.recipients as Record<string, unknown>[])
			assert.deepEqual(Object.keys(recipient), SIMPLIFIED_RECIPIENT, `${where}: a recipient`);
	}
}

/** Sessions from a tool with Output Selected Fields: exactly the record's ID and `fields`. */
export function assertSelectedFields(
	items: Record<string, unknown>[],
	fields: string[],
	where: string,
) {
	assert.ok(items.length > 0, `${where}: no items`);
	for (const item of items)
		assert.deepEqual(
			Object.keys(item).sort(),
			['sessionId', ...fields].sort(),
			`${where}: ${excerpt(JSON.stringify(item))}`,
		);
}
