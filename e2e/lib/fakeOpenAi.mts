// A small scripted OpenAI-compatible server for the agent tests (e2e/agent.mts) and `npm run dev`:
// n8n's OpenAI Chat Model, with its credential's Base URL pointed here, talks to it as to OpenAI.
//
// What n8n's model node (@n8n/n8n-nodes-langchain lmChatOpenAi) asks for in n8n 1.123.81 and
// 2.41.3, read in its source (first in 2.39.10):
//   POST /v1/chat/completions  typeVersion < 1.3, or "Use Responses API" off (LangChain's ChatOpenAI)
//   POST /v1/responses         typeVersion 1.3 with "Use Responses API" on (the default)
//   GET  /v1/models            the editor's model list (loadOptions of the Model parameter)
// Anything else is answered 404 in OpenAI's error shape, logged loudly and kept in `unknown()`, so
// a test can fail on it. Streaming is not served (n8n streams only for a chat trigger in
// streaming mode): such a request is refused with 400 and counted as unknown too.
//
// The "model" is a script: `scripts[model](conversation)` gets the conversation so far, in one
// shape for both APIs ({ model, messages: [{ role, content, toolCalls?, toolCallId? }], tools }),
// and returns the next turn: `{ toolCalls: [{ name, args }] }` or `{ text }`. A script decides
// from the conversation only (the tool results it has seen), never from time or a counter, so a
// retried request gets the same answer.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
	chatCompletionReply,
	fromChatCompletions,
	fromResponses,
	responsesReply,
	type ChatCompletionsBody,
	type Conversation,
	type Message,
	type RequestBody,
	type ResponsesBody,
	type Script,
	type ToolCall,
	type Turn,
} from './openAiWire.mts';

export type {
	Conversation,
	JsonSchema,
	Message,
	Script,
	Tool,
	ToolCall,
	Turn,
} from './openAiWire.mts';

/** A request the server answered. */
export interface Exchange {
	api: 'chat' | 'responses';
	model: string;
	conversation: Conversation;
	turn: Turn;
}

/** A request the server did not know (or refused), kept so a test can fail on it. */
export interface UnknownRequest {
	method: string | undefined;
	path: string;
	why: string;
}

/** `scripts` by model name; `log` gets one line per answered request. */
export interface FakeOpenAiOptions {
	scripts: Record<string, Script>;
	apiKey?: string;
	port?: number;
	log?: (line: string) => void;
}

/** The running server: `baseUrl` (…/v1) is the credential's Base URL. */
export interface FakeOpenAi {
	url: string;
	baseUrl: string;
	port: number;
	exchanges: () => Exchange[];
	unknown: () => UnknownRequest[];
	close: () => Promise<void>;
}

/**
 * Starts the server on 127.0.0.1:`port` (0: a free one). `scripts` maps a model name to its
 * script; `apiKey`, when given, must be the request's bearer token (else 401, as OpenAI answers).
 * Returns { url, baseUrl (…/v1, the credential's Base URL), exchanges(), unknown(), close() }.
 */
export async function startFakeOpenAi({
	scripts,
	apiKey,
	port = 0,
	log = () => {},
}: FakeOpenAiOptions): Promise<FakeOpenAi> {
	const exchanges: Exchange[] = [];
	const unknown: UnknownRequest[] = [];
	const refuse = (
		res: ServerResponse,
		status: number,
		message: string,
		type = 'invalid_request_error',
	) => {
		res.writeHead(status, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ error: { message, type, param: null, code: null } }));
	};
	const server = createServer((req, res) => {
		let raw = '';
		req.on('data', (c) => (raw += c));
		req.on('end', () => {
			// String(): what URL makes of its input anyway
			const path = new URL(String(req.url), 'http://x').pathname.replace(/\/+$/, '');
			const noteUnknown = (why: string) => {
				unknown.push({ method: req.method, path, why });
				process.stderr.write(
					`[fake-openai] UNKNOWN REQUEST ${req.method} ${req.url} (${why}): ${raw.slice(0, 500)}\n`,
				);
			};
			if (apiKey && req.headers.authorization !== `Bearer ${apiKey}`) {
				noteUnknown('wrong or missing API key');
				return refuse(res, 401, 'Incorrect API key provided.', 'invalid_api_key');
			}
			if (req.method === 'GET' && path === '/v1/models') {
				res.writeHead(200, { 'content-type': 'application/json' });
				return res.end(
					JSON.stringify({
						object: 'list',
						data: Object.keys(scripts).map((id) => ({
							id,
							object: 'model',
							created: 1_700_000_000,
							owned_by: 'airsign-e2e',
						})),
					}),
				);
			}
			const api =
				req.method === 'POST' && path === '/v1/chat/completions'
					? 'chat'
					: req.method === 'POST' && path === '/v1/responses'
						? 'responses'
						: undefined;
			if (!api) {
				noteUnknown('not an endpoint this server knows');
				return refuse(res, 404, `Unknown request URL: ${req.method} ${path}`);
			}
			let body: RequestBody;
			try {
				body = JSON.parse(raw) as RequestBody;
			} catch {
				noteUnknown('body is not JSON');
				return refuse(res, 400, 'The body is not JSON.');
			}
			if (body.stream) {
				noteUnknown('streaming requested');
				return refuse(res, 400, 'This scripted server does not stream.');
			}
			const script = scripts[body.model];
			if (!script) {
				noteUnknown(`no script for model ${JSON.stringify(body.model)}`);
				return refuse(res, 404, `The model \`${body.model}\` does not exist.`, 'model_not_found');
			}
			const conversation =
				api === 'chat'
					? fromChatCompletions(body as ChatCompletionsBody)
					: fromResponses(body as ResponsesBody);
			let turn: Turn;
			try {
				turn = script(conversation);
			} catch (err) {
				noteUnknown(`the script failed: ${err.message}`);
				return refuse(res, 500, `script error: ${err.message}`, 'server_error');
			}
			const n = exchanges.length + 1;
			exchanges.push({ api, model: body.model, conversation, turn });
			log(
				`model ${body.model} (${api}) #${n}: ${turn.toolCalls ? turn.toolCalls.map((c) => `${c.name}(${JSON.stringify(c.args)})`).join(', ') : `says ${JSON.stringify(String(turn.text).slice(0, 120))}`}`,
			);
			const reply =
				api === 'chat'
					? chatCompletionReply(body.model, turn, n)
					: responsesReply(body.model, turn, n);
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify(reply));
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', resolve);
	});
	// a TCP server's address is an AddressInfo
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url,
		baseUrl: `${url}/v1`,
		port: (server.address() as AddressInfo).port,
		exchanges: () => exchanges,
		unknown: () => unknown,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections?.();
				server.close(() => resolve());
			}),
	};
}

/** A tool call with what the tool handed back (undefined while unanswered). */
export interface ToolRound extends ToolCall {
	result: string | undefined;
}

/**
 * The tool calls of a conversation with what each tool handed back:
 * [{ name, args, result }] in order (result undefined while unanswered).
 */
export function toolRounds(conversation: Conversation): ToolRound[] {
	const results = new Map<string | undefined, string>(
		conversation.messages.filter((m) => m.role === 'tool').map((m) => [m.toolCallId, m.content]),
	);
	return conversation.messages
		.filter(
			(m): m is Message & { toolCalls: ToolCall[] } => m.role === 'assistant' && !!m.toolCalls,
		)
		.flatMap((m) => m.toolCalls.map((c) => ({ ...c, result: results.get(c.id) })));
}
