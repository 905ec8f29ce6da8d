import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';

import type { RequestFailure } from '../errors/failure';
import { failureFromAnswer, failureWithoutAnswer } from '../errors/failure';
import { toNodeError } from '../errors/nodeError';
import type { FailureMessages } from '../errors/wording';
import { API_PREFIX, CREDENTIAL_TYPE } from '../helpers/constants';
import type { AnswerHeaders } from './answerHeaders';
import { readAnswerHeaders } from './answerHeaders';
import { normaliseBaseUrl } from './baseUrl';

/** Operations, the trigger's polls, and the editor's list searches and field loaders. */
export type AirSignContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below /api/v1, built only from validated values. */
	path: string;
	qs?: IDataObject;
	/** A JSON object, or JSON already serialised into a Buffer (sent as it is). */
	body?: IDataObject | Buffer;
	itemIndex: number;
	timeoutMs?: number;
}

/** One answer of AirSign (or its absence), read once into what every caller needs. */
export interface ApiAnswer extends AnswerHeaders {
	/** Undefined when no answer came (connection refused, dropped, timed out). */
	statusCode?: number;
	body: unknown;
	/** Set unless the answer is a 2xx with a JSON object body. */
	failure?: RequestFailure;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * Sends one request with n8n's credential handling and returns the answer, failed or not,
 * without throwing, so that callers can read the rate-limit headers and the code first.
 *
 * n8n throws for every status outside 2xx; a 401 first makes it renew a client-credentials
 * token and retry once (on every n8n version: the status stays an error, so n8n's own retry
 * path runs). The answer of a thrown error is read from the error n8n wraps it in.
 */
export async function tryApiRequest(ctx: AirSignContext, request: ApiRequest): Promise<ApiAnswer> {
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${await baseUrlOf(ctx, request.itemIndex)}${API_PREFIX}${request.path}`,
		qs: request.qs,
		body: request.body,
		...(Buffer.isBuffer(request.body) && { headers: { 'Content-Type': 'application/json' } }),
		json: true,
		returnFullResponse: true,
		timeout: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
	};
	try {
		const response = (await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			CREDENTIAL_TYPE,
			options,
		)) as { statusCode: number; headers: unknown; body: unknown };
		return readAnswer(response.statusCode, response.headers, response.body);
	} catch (error) {
		const answered = answerOf(error);
		if (answered) return readAnswer(answered.status, answered.headers, answered.data);
		return { ...readAnswerHeaders({}), body: undefined, failure: failureWithoutAnswer(error) };
	}
}

/** Sends one request; throws a NodeApiError in the operation's words when it fails. */
export async function apiRequest(
	ctx: AirSignContext,
	request: ApiRequest,
	messages: FailureMessages = {},
): Promise<ApiAnswer> {
	const answer = await tryApiRequest(ctx, request);
	if (answer.failure) throw await toNodeError(ctx, answer.failure, request.itemIndex, messages);
	return answer;
}

function readAnswer(statusCode: number, headers: unknown, body: unknown): ApiAnswer {
	return {
		...readAnswerHeaders(headers),
		statusCode,
		body,
		failure: failureFromAnswer(statusCode, body),
	};
}

interface HttpResponse {
	status: number;
	headers?: unknown;
	data?: unknown;
}

/** The HTTP answer inside an error n8n threw: its NodeApiError's cause, or the error itself. */
function answerOf(error: unknown): HttpResponse | undefined {
	const thrown = error as { response?: HttpResponse; cause?: { response?: HttpResponse } };
	const response = thrown?.cause?.response ?? thrown?.response;
	return typeof response?.status === 'number' ? response : undefined;
}

/**
 * The credential's base URL, read once per execution rather than once per request:
 * an n8n execution context lives for one execution (or one poll), so the WeakMap
 * entry goes with it and nothing is shared between executions or workers.
 */
const baseUrls = new WeakMap<AirSignContext, Promise<string>>();

async function baseUrlOf(ctx: AirSignContext, itemIndex: number): Promise<string> {
	let baseUrl = baseUrls.get(ctx);
	if (baseUrl === undefined) {
		baseUrl = ctx
			.getCredentials(CREDENTIAL_TYPE, itemIndex)
			.then((credentials) => normaliseBaseUrl(credentials.baseUrl));
		baseUrls.set(ctx, baseUrl);
	}
	return await baseUrl;
}
