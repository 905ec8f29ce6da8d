// What agent checks n, o, p, s (agentChecks.mts) and r (agentMcp.mts) share: their context, the
// workflows' AirSign tool nodes, and the checks of what a tool hands the model.
import assert from 'node:assert/strict';
import type { IConnections } from 'n8n-workflow';
import { toolRounds, type Exchange, type FakeOpenAi, type ToolRound } from './lib/fakeOpenAi.mts';
import {
	SANDBOX_CREDENTIAL_ID,
	SANDBOX_CREDENTIAL_NAME,
	type WorkflowNode,
	type WorkflowWithId,
} from './lib/fixtures.mts';
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

/** A parameter the model fills in: n8n's `$fromAI`, as "Let the model define this parameter" writes it. */
export const fromAI = (key: string, description: string) =>
	`={{ $fromAI('${key}', \`${description}\`, 'string') }}`;

/** A Session locator whose ID the model gives. */
export const sessionIdFromAI = () => ({
	__rl: true,
	mode: 'id',
	value: fromAI('sessionId', 'The sessionId of the session'),
});

/** Get Many sessions whose name contains what the model gives, at most 10, with `output`. */
export const getManyByName = (output: Record<string, unknown>) => ({
	resource: 'session',
	operation: 'getMany',
	returnAll: false,
	limit: 10,
	filters: { name: fromAI('nameContains', 'Text the session names contain') },
	...output,
});

/** An AirSign tool node (`airSignTool`, the sandbox's AirSign credential); ids from `uuid(n)`. */
export function airSignTool(
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
		credentials: { airSignApi: { id: SANDBOX_CREDENTIAL_ID, name: SANDBOX_CREDENTIAL_NAME } },
	};
}

/** Node ids of one check's workflow: `uuid(block)(n)`. */
export const uuid = (block: string) => (n: number) =>
	`d1e2f3a4-0000-4000-${block}-${String(n).padStart(12, '0')}`;

/**
 * A workflow whose `root` (an agent, or the MCP Server Trigger) has `tools` as its ai_tool inputs
 * and `model`, if any, as its ai_languageModel; `main` is any main connections it has besides.
 */
export function aiWorkflow(
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

export type Sandbox = Awaited<ReturnType<typeof startSandboxProcess>>;
export type N8nInstance = Awaited<ReturnType<typeof startN8n>>;

/** What each check is handed: what runs, the owner's cookie, the example and the tier's log. */
export interface AgentCheckContext {
	sandbox: Sandbox;
	fake: FakeOpenAi;
	instance: N8nInstance;
	cookie: string;
	/** examples/contract-assistant.json */
	example: WorkflowWithId;
	log: (line: string) => void;
}

/** Clears the sandbox's request log and outbox before a check's run. */
export async function clearSandbox(sandbox: Sandbox) {
	await sandbox.clearRequests();
	await sandbox.clearOutbox();
}

/** The API requests the sandbox answered since it was cleared ("GET /api/v1/Sessions 200"), token fetches left out, logged. */
export async function apiRequests({ sandbox, log }: AgentCheckContext): Promise<string[]> {
	const api = (await sandbox.requests())
		.map((r) => `${r.method} ${r.path} ${r.status}`)
		.filter((r) => !r.startsWith('POST /oidc/token'));
	log(`sandbox API requests: ${api.join(', ')}`);
	return api;
}

/** The sandbox's outbox as "<to> <sessionId>" lines, sorted. */
export const mailsSent = async (sandbox: Sandbox): Promise<string[]> =>
	(await sandbox.outbox()).map((m) => `${m.to} ${m.sessionId}`).sort();

/** The model's last request for `model`; asserts it was asked and nothing unknown came. */
export function lastExchange(fake: FakeOpenAi, model: string): Exchange {
	const last = fake
		.exchanges()
		.filter((e) => e.model === model)
		.at(-1);
	assert.ok(last, 'the model was never asked');
	assert.deepEqual(fake.unknown(), [], 'every request to the model server was known');
	return last;
}

/**
 * Posts `message` (its lines joined by spaces) to the webhook at `path` of an agent whose model is
 * `model`: resolves its answer, the model's last request and each tool call with its result.
 */
export async function askAgent(
	{ fake, instance, log }: AgentCheckContext,
	path: string,
	model: string,
	message: string[],
): Promise<{ answer: string; last: Exchange; rounds: ToolRound[] }> {
	const res = await postToWebhook(
		`${instance.url}/webhook/${path}`,
		{
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ message: message.join(' ') }),
		},
		{ timeoutMs: RUN_TIMEOUT_MS },
	);
	const answer = await res.text();
	assert.equal(res.status, 200, `the webhook answered ${res.status}: ${answer.slice(0, 500)}`);
	const last = lastExchange(fake, model);
	const rounds = toolRounds(last.conversation);
	for (const r of rounds)
		log(
			`model → ${r.name}(${JSON.stringify(r.args)})\n    tool → ${excerpt(String(r.result), 700)}`,
		);
	return { answer, last, rounds };
}

/** Every tool result of a conversation is small, readable JSON with no secret or stack trace in it. */
export function assertModelSafe(
	rounds: ToolRound[],
): asserts rounds is (ToolRound & { result: string })[] {
	for (const r of rounds) {
		const where = `${r.name}(${JSON.stringify(r.args)})`;
		const { result } = r;
		assert.ok(typeof result === 'string' && result.length > 0, `${where}: no result`);
		assert.ok(result.length <= SMALL, `${where}: ${result.length} characters`);
		assert.doesNotThrow(() => JSON.parse(result), `${where}: not JSON`);
		for (const secret of SECRET_PATTERNS)
			assert.doesNotMatch(result, secret, `${where} handed the model a secret`);
		assert.doesNotMatch(result, /\n\s+at\s|node_modules|\.js:\d+/, `${where}: a stack trace`);
	}
}

export const excerpt = (text: string, n = 300): string =>
	text.length > n ? `${text.slice(0, n)}…` : text;

/** n8n's guideline for a simplified answer (a tool's Output Simplified): at most 10 fields. */
const SIMPLIFIED_MAX_FIELDS = 10;
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

/** The most fields of any of `items`. */
export const mostFields = (items: Record<string, unknown>[]) =>
	Math.max(...items.map((s) => Object.keys(s).length));
