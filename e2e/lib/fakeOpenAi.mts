// A scripted OpenAI-compatible server (chat/completions, responses, models) for
// e2e/scenarios/agent.mts and `npm run dev`. Anything else is refused and kept in `unknown()`; a
// retry gets the same answer.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text as readText } from 'node:stream/consumers';

/** A tool the agent offers the model; `parameters` is a JSON schema. */
export interface Tool {
	name: string;
	description?: string;
	parameters?: { properties?: Record<string, unknown> };
}

/** A tool call of the conversation with what the tool handed back (undefined while unanswered). */
export type ToolRound = { id?: string; name: string; args: unknown; result: string | undefined };

/** What a script reads of a request, in one shape for both APIs: the first user message, the tools, the calls so far. */
export type Conversation = { model: string; user: string; tools: Tool[]; rounds: ToolRound[] };
/** What a script answers: tool calls, or a text. */
export type Turn = { toolCalls?: { name: string; args?: unknown }[]; text?: string };

export type Script = (conversation: Conversation) => Turn;

/** A request the server answered. */
export interface Exchange {
	api: 'chat' | 'responses';
	model: string;
	conversation: Conversation;
	turn: Turn;
}

/** A message's content as the APIs send it: a string, or parts with a text. */
type Content = string | (string | { text?: string; output?: string })[] | object | null | undefined;

/** A Chat Completions message or a Responses API input item: the fields the server reads of either. */
type Item = {
	role?: string;
	content?: Content;
	// Chat Completions: an assistant's calls, a tool's answer
	tool_calls?: { id: string; function: { name: string; arguments: unknown } }[];
	tool_call_id?: string;
	// Responses: `function_call` and `function_call_output` items
	type?: string;
	call_id?: string;
	name?: string;
	arguments?: unknown;
	output?: Content;
};

/** The fields of a request body the server reads, of either API (parsed JSON, as OpenAI's spec has it). */
interface RequestBody {
	model: string;
	stream?: boolean;
	messages?: Item[];
	input?: string | Item[];
	// Chat Completions: { function }; Responses: { type, ...function }
	tools?: ({ function: Tool } | ({ type: string } & Tool))[];
}

function textOf(content: Content): string {
	if (content === undefined || content === null) return '';
	if (typeof content === 'string') return content;
	if (Array.isArray(content))
		return content.map((p) => (typeof p === 'string' ? p : (p.text ?? p.output ?? ''))).join('');
	return JSON.stringify(content);
}

function parseArgs(text: unknown): unknown {
	try {
		return typeof text === 'string' ? JSON.parse(text) : (text ?? {});
	} catch {
		return { unparsable: text };
	}
}

/** The conversation of a request of either API, in the scripts' shape. */
function conversationOf(body: RequestBody): Conversation {
	const input =
		typeof body.input === 'string'
			? [{ role: 'user', content: body.input }]
			: (body.input ?? body.messages ?? []);
	let user: string | undefined;
	const calls: Omit<ToolRound, 'result'>[] = [];
	const results = new Map<string | undefined, string>();
	for (const item of input) {
		if (item.role === 'user') user ??= textOf(item.content);
		for (const c of item.tool_calls ?? [])
			calls.push({ id: c.id, name: c.function.name, args: parseArgs(c.function.arguments) });
		if (item.role === 'tool') results.set(item.tool_call_id, textOf(item.content));
		if (item.type === 'function_call')
			calls.push({ id: item.call_id, name: item.name!, args: parseArgs(item.arguments) });
		if (item.type === 'function_call_output') results.set(item.call_id, textOf(item.output));
	}
	const tools = (body.tools ?? []).flatMap((t) =>
		'function' in t ? [t.function] : t.type === 'function' ? [t] : [],
	);
	const rounds = calls.map((c) => ({ ...c, result: results.get(c.id) }));
	return { model: body.model, user: user ?? '', tools, rounds };
}

/** A turn as each API answers it; `n` numbers the ids. */
function reply(api: Exchange['api'], model: string, turn: Turn, n: number) {
	const calls = (turn.toolCalls ?? []).map((c, i) => ({
		id: `call_${n}_${i}`,
		name: c.name,
		arguments: JSON.stringify(c.args ?? {}),
	}));
	const text = String(turn.text ?? '');
	if (api === 'chat')
		return {
			id: `chatcmpl-fake-${n}`,
			object: 'chat.completion',
			created: 1_700_000_000,
			model,
			choices: [
				{
					index: 0,
					message: {
						role: 'assistant',
						content: calls.length ? null : text,
						...(calls.length && {
							tool_calls: calls.map(({ id, ...f }) => ({ id, type: 'function', function: f })),
						}),
					},
					finish_reason: calls.length ? 'tool_calls' : 'stop',
				},
			],
			usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
		};
	const output = calls.length
		? calls.map(({ id, ...f }, i) => ({
				type: 'function_call',
				id: `fc_${n}_${i}`,
				call_id: id,
				...f,
				status: 'completed',
			}))
		: [
				{
					type: 'message',
					id: `msg_${n}`,
					role: 'assistant',
					status: 'completed',
					content: [{ type: 'output_text', text, annotations: [] }],
				},
			];
	return {
		id: `resp_fake_${n}`,
		object: 'response',
		created_at: 1_700_000_000,
		status: 'completed',
		model,
		output,
		usage: { input_tokens: 10, output_tokens: 10, total_tokens: 20 },
	};
}

/** On 127.0.0.1:`port` (0: free); `apiKey`, if given, is the bearer token wanted (else 401). */
export async function startFakeOpenAi({
	scripts,
	apiKey,
	port = 0,
	log = () => {},
}: {
	scripts: Record<string, Script>;
	apiKey?: string;
	port?: number;
	log?: (line: string) => void;
}) {
	const exchanges: Exchange[] = [];
	const unknown: { method: string | undefined; path: string; why: string }[] = [];
	const server = createServer(async (req, res) => {
		const raw = await readText(req).catch(() => undefined);
		if (raw === undefined) return; // the client went away
		const path = new URL(String(req.url), 'http://x').pathname.replace(/\/+$/, '');
		const send = (status: number, body: unknown) =>
			res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
		const refuse = (status: number, why: string, message = why, type = 'invalid_request_error') => {
			unknown.push({ method: req.method, path, why });
			process.stderr.write(
				`[fake-openai] UNKNOWN REQUEST ${req.method} ${req.url} (${why}): ${raw.slice(0, 500)}\n`,
			);
			send(status, { error: { message, type, param: null, code: null } });
		};
		if (apiKey && req.headers.authorization !== `Bearer ${apiKey}`)
			return refuse(401, 'wrong or missing API key', 'Incorrect API key.', 'invalid_api_key');
		if (req.method === 'GET' && path === '/v1/models') {
			const model = { object: 'model', created: 1_700_000_000, owned_by: 'airsign-e2e' };
			const models = Object.keys(scripts).map((id) => ({ id, ...model }));
			return send(200, { object: 'list', data: models });
		}
		const api =
			req.method !== 'POST'
				? undefined
				: ({ '/v1/chat/completions': 'chat', '/v1/responses': 'responses' } as const)[path];
		if (!api) return refuse(404, `not an endpoint this server knows: ${req.method} ${path}`);
		let body: RequestBody;
		try {
			body = JSON.parse(raw);
		} catch {
			return refuse(400, 'body is not JSON');
		}
		if (body.stream) return refuse(400, 'streaming requested: this server does not stream');
		const script = scripts[body.model];
		if (!script)
			return refuse(404, `no script for model ${body.model}`, undefined, 'model_not_found');
		const conversation = conversationOf(body);
		let turn: Turn;
		try {
			turn = script(conversation);
		} catch (err) {
			return refuse(500, `the script failed: ${err.message}`, undefined, 'server_error');
		}
		const n = exchanges.length + 1;
		exchanges.push({ api, model: body.model, conversation, turn });
		const calls = turn.toolCalls?.map((c) => `${c.name}(${JSON.stringify(c.args)})`).join(', ');
		log(
			`model ${body.model} (${api}) #${n}: ${calls ?? `says ${JSON.stringify(String(turn.text).slice(0, 120))}`}`,
		);
		send(200, reply(api, body.model, turn, n));
	});
	server.listen(port, '127.0.0.1');
	await once(server, 'listening');
	return {
		baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
		exchanges: () => exchanges,
		unknown: () => unknown,
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

export type FakeOpenAi = Awaited<ReturnType<typeof startFakeOpenAi>>;
