// The two OpenAI APIs the scripted server (e2e/lib/fakeOpenAi.mts) serves, as it reads and writes
// them: the requests' conversation turned into the one shape its scripts see, and a script's turn
// turned into each API's reply.

/** A tool call in the scripts' shape: `id` is set on calls read from a request. */
export interface ToolCall {
	id?: string;
	name: string;
	args: unknown;
}

/** One message of a conversation, in one shape for both APIs. */
export interface Message {
	role: string;
	content: string;
	toolCalls?: ToolCall[];
	toolCallId?: string;
}

/** The part of a JSON schema the scripts read (n8n's structured output parser's `output`). */
export interface JsonSchema {
	properties?: Record<string, unknown>;
	[key: string]: unknown;
}

/** A tool the agent offers the model. */
export interface Tool {
	name: string;
	description?: string;
	parameters?: JsonSchema;
}

/** What a script is handed: the conversation so far. */
export interface Conversation {
	model: string;
	messages: Message[];
	tools: Tool[];
}

/** What a script answers: tool calls, or a text. */
export interface Turn {
	toolCalls?: { name: string; args?: unknown }[];
	text?: string;
}

/** A scripted "model": decides the next turn from the conversation only. */
export type Script = (conversation: Conversation) => Turn;

/** A message's content as the APIs send it: a string, or parts with a text. */
export type Content =
	| string
	| (string | { text?: string; output?: string })[]
	| Record<string, unknown>
	| null
	| undefined;

/** The fields of a request body both APIs share (the body is parsed JSON, as OpenAI's spec has it). */
export interface RequestBody {
	model: string;
	stream?: boolean;
}

/** The fields of a Chat Completions request the server reads. */
export interface ChatCompletionsBody extends RequestBody {
	messages?: {
		role: string;
		content?: Content;
		tool_calls?: { id: string; function: { name: string; arguments: unknown } }[];
		tool_call_id?: string;
	}[];
	tools?: { function: { name: string; description?: string; parameters?: JsonSchema } }[];
}

/** An item of a Responses API request's `input`. */
export type ResponsesInputItem =
	| { type: 'function_call'; call_id: string; name: string; arguments: unknown }
	| { type: 'function_call_output'; call_id: string; output: Content }
	| { type?: 'message'; role: string; content: Content }
	| { type: 'reasoning'; role?: undefined };

/** The fields of a Responses API request the server reads. */
export interface ResponsesBody extends RequestBody {
	instructions?: unknown;
	input?: string | ResponsesInputItem[];
	tools?: { type: string; name: string; description?: string; parameters?: JsonSchema }[];
}

/** The conversation of a Chat Completions request, in the scripts' shape. */
export function fromChatCompletions(body: ChatCompletionsBody): Conversation {
	const messages = (body.messages ?? []).map(
		(m): Message => ({
			role: m.role === 'developer' ? 'system' : m.role,
			content: textOf(m.content),
			...(m.tool_calls && {
				toolCalls: m.tool_calls.map((c) => ({
					id: c.id,
					name: c.function?.name,
					args: parseArgs(c.function?.arguments),
				})),
			}),
			...(m.tool_call_id && { toolCallId: m.tool_call_id }),
		}),
	);
	const tools = (body.tools ?? []).map((t) => ({
		name: t.function?.name,
		description: t.function?.description,
		parameters: t.function?.parameters,
	}));
	return { model: body.model, messages, tools };
}

/** The conversation of a Responses API request (`input` items), in the scripts' shape. */
export function fromResponses(body: ResponsesBody): Conversation {
	const messages: Message[] = [];
	if (body.instructions) messages.push({ role: 'system', content: String(body.instructions) });
	const input: ResponsesInputItem[] | undefined =
		typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
	for (const item of input ?? []) {
		if (item.type === 'function_call') {
			const call = { id: item.call_id, name: item.name, args: parseArgs(item.arguments) };
			const last = messages.at(-1);
			// consecutive calls of one turn belong to one assistant message
			if (last?.role === 'assistant' && last.toolCalls && !last.content) last.toolCalls.push(call);
			else messages.push({ role: 'assistant', content: '', toolCalls: [call] });
		} else if (item.type === 'function_call_output') {
			messages.push({ role: 'tool', content: textOf(item.output), toolCallId: item.call_id });
		} else if (item.role) {
			messages.push({
				role: item.role === 'developer' ? 'system' : item.role,
				content: textOf(item.content),
			});
		}
		// other item types (reasoning) carry nothing a script needs
	}
	const tools = (body.tools ?? [])
		.filter((t) => t.type === 'function')
		.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
	return { model: body.model, messages, tools };
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

const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };

export function chatCompletionReply(model: string, turn: Turn, n: number) {
	const toolCalls = (turn.toolCalls ?? []).map((c, i) => ({
		id: `call_${n}_${i}`,
		type: 'function',
		function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) },
	}));
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
					content: toolCalls.length ? null : String(turn.text ?? ''),
					...(toolCalls.length && { tool_calls: toolCalls }),
				},
				logprobs: null,
				finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
			},
		],
		usage,
	};
}

export function responsesReply(model: string, turn: Turn, n: number) {
	const output = turn.toolCalls?.length
		? turn.toolCalls.map((c, i) => ({
				type: 'function_call',
				id: `fc_${n}_${i}`,
				call_id: `call_${n}_${i}`,
				name: c.name,
				arguments: JSON.stringify(c.args ?? {}),
				status: 'completed',
			}))
		: [
				{
					type: 'message',
					id: `msg_${n}`,
					role: 'assistant',
					status: 'completed',
					content: [{ type: 'output_text', text: String(turn.text ?? ''), annotations: [] }],
				},
			];
	return {
		id: `resp_fake_${n}`,
		object: 'response',
		created_at: 1_700_000_000,
		status: 'completed',
		model,
		output,
		parallel_tool_calls: true,
		tool_choice: 'auto',
		tools: [],
		usage: {
			input_tokens: 10,
			input_tokens_details: { cached_tokens: 0 },
			output_tokens: 10,
			output_tokens_details: { reasoning_tokens: 0 },
			total_tokens: 20,
		},
	};
}
