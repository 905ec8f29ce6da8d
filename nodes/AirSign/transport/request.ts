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
import { normaliseBaseUrl } from './baseUrl';

/** Operations, the trigger's polls, and the editor's list searches and field loaders. */
export type AirSignContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

/**
 * JSON read chunk by chunk as it is sent, shaped as a Blob: unlike a stream, a Blob is read again
 * when n8n repeats the request after renewing a token.
 */
export class StreamedBody {
	readonly [Symbol.toStringTag] = 'Blob';
	readonly type = 'application/json';

	constructor(
		/** Exact length in bytes. */
		readonly size: number,
		private readonly read: () => AsyncIterable<Uint8Array>,
	) {}

	stream(): AsyncIterable<Uint8Array> {
		return this.read();
	}
}

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Below /api/v1, built only from validated values. */
	path: string;
	qs?: IDataObject;
	/** A JSON object, JSON already serialised, or JSON streamed as it is sent (uploads). */
	body?: IDataObject | Buffer | StreamedBody;
	itemIndex: number;
	timeoutMs?: number;
}

export interface ApiAnswer extends AnswerHeaders {
	/** Undefined when no answer came. */
	statusCode?: number;
	body: unknown;
	/** Set unless the answer is a 2xx with a JSON object body. */
	failure?: RequestFailure;
}

/**
 * Sends one request and returns the answer, failed or not, so that callers read the rate limit
 * and the code first. A 401 goes to n8n's token renewal (docs/compatibility.md): it was not
 * processed, so sending it again is safe for writes too.
 */
export async function tryApiRequest(ctx: AirSignContext, request: ApiRequest): Promise<ApiAnswer> {
	const { body } = request;
	// The credential as it is saved now: n8n polls an active trigger with one context, and an
	// edited Base URL applies from the next request (docs/credentials.md).
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, request.itemIndex);
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${normaliseBaseUrl(credentials.baseUrl)}${API_PREFIX}${request.path}`,
		qs: request.qs,
		body,
		...((Buffer.isBuffer(body) || body instanceof StreamedBody) && {
			headers: { 'Content-Type': 'application/json' },
		}),
		// To follow a redirect axios keeps every byte sent, so a streamed body would sit in memory;
		// AirSign's upload does not redirect.
		...(body instanceof StreamedBody && { disableFollowRedirect: true }),
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: { ignore: true, except: [401] },
		timeout: request.timeoutMs ?? 60_000,
	};
	const answer = await send(ctx, options);
	if (answer.statusCode !== 401) return answer;
	return await send(ctx, { ...options, ignoreHttpStatusErrors: false });
}

async function send(ctx: AirSignContext, options: IHttpRequestOptions): Promise<ApiAnswer> {
	let response: HttpResponse | undefined;
	try {
		const { statusCode, headers, body } = (await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			CREDENTIAL_TYPE,
			options,
		)) as { statusCode: number; headers: unknown; body: unknown };
		response = { status: statusCode, headers, data: body };
	} catch (error) {
		response = answerOf(error);
		if (!response)
			return { ...readAnswerHeaders({}), body: undefined, failure: failureWithoutAnswer(error) };
	}
	const answerHeaders = readAnswerHeaders(response.headers);
	return {
		...answerHeaders,
		statusCode: response.status,
		body: response.data,
		failure: failureFromAnswer(response.status, response.data, answerHeaders.rateLimit),
	};
}

type HttpResponse = { status: number; headers?: unknown; data?: unknown };

/** The HTTP answer inside an error n8n threw, where each n8n version keeps it. */
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
