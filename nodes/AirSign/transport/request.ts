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
import { API_PREFIX, CREDENTIAL_TYPE } from '../helpers/constants';
import type { AnswerHeaders } from './answerHeaders';
import { readAnswerHeaders } from './answerHeaders';
import { StreamedBody } from './streamedBody';
import { normaliseBaseUrl } from './baseUrl';

/** Operations, the trigger's polls, and the editor's list searches and field loaders. */
export type AirSignContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below /api/v1, built only from validated values. */
	path: string;
	qs?: IDataObject;
	/**
	 * A JSON object, JSON already serialised into a Buffer (sent as it is), or JSON read chunk
	 * by chunk as it is sent (uploads).
	 */
	body?: IDataObject | Buffer | StreamedBody;
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
 * without throwing, so that callers can read the rate-limit headers and the code first. A 401
 * goes to n8n's token renewal, sent again where n8n hands it back (docs/compatibility.md): it
 * was not processed, so that is safe for writes too.
 */
export async function tryApiRequest(ctx: AirSignContext, request: ApiRequest): Promise<ApiAnswer> {
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${await baseUrlOf(ctx, request.itemIndex)}${API_PREFIX}${request.path}`,
		qs: request.qs,
		body: request.body,
		...((Buffer.isBuffer(request.body) || request.body instanceof StreamedBody) && {
			headers: { 'Content-Type': 'application/json' },
		}),
		// Following redirects, axios keeps every byte written so as to send it again after one
		// (follow-redirects): a streamed body would sit whole in memory. AirSign's upload does not
		// redirect.
		...(request.body instanceof StreamedBody && { disableFollowRedirect: true }),
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: { ignore: true, except: [401] },
		timeout: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
	};
	let answer = await send(ctx, options);
	if (answer.statusCode === 401)
		answer = await send(ctx, { ...options, ignoreHttpStatusErrors: false });
	return answer;
}

async function send(ctx: AirSignContext, options: IHttpRequestOptions): Promise<ApiAnswer> {
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

function readAnswer(statusCode: number, headers: unknown, body: unknown): ApiAnswer {
	const answerHeaders = readAnswerHeaders(headers);
	return {
		...answerHeaders,
		statusCode,
		body,
		failure: failureFromAnswer(statusCode, body, answerHeaders.rateLimit),
	};
}

interface HttpResponse {
	status: number;
	headers?: unknown;
	data?: unknown;
}

/** The HTTP answer inside an error n8n threw, where each n8n version keeps it (docs/compatibility.md). */
function answerOf(error: unknown): HttpResponse | undefined {
	const thrown = error as {
		response?: HttpResponse;
		cause?: { response?: HttpResponse };
		httpCode?: string | null;
		context?: { data?: unknown };
	};
	const response = thrown?.cause?.response ?? thrown?.response;
	if (typeof response?.status === 'number') return response;
	const status = Number(thrown?.httpCode);
	if (Number.isInteger(status) && status >= 400) return { status, data: thrown.context?.data };
	return undefined;
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
