import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { API_PREFIX, CREDENTIAL_TYPE } from '../helpers/constants';
import { describeNetworkCode } from '../helpers/networkErrors';
import { readServiceErrorCode, readServiceMessage } from './serviceError';

export type AirSignContext = IExecuteFunctions | IPollFunctions;

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

export interface ApiResponse {
	/** Undefined when no answer came (connection refused, dropped, timed out). */
	statusCode?: number;
	/** Header names in lower case. */
	headers: IDataObject;
	body: unknown;
	/** Set unless the answer is a 2xx with a JSON body. */
	failure?: AirSignRequestFailure;
}

/** What went wrong, stripped of everything but what a message may show. */
export interface ApiFailure {
	status?: number;
	code?: string;
	serviceMessage?: string;
	networkCode?: string;
	/** A message raised before any response, e.g. by the credential's token fetch. */
	otherMessage?: string;
}

export interface FailureText {
	message: string;
	description?: string;
}

/** Messages an operation gives for its own failures, keyed by service code or HTTP status. */
export type FailureMessages = Record<string, FailureText>;

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * Sends one request with n8n's credential handling and reports the outcome without
 * throwing, so callers can read rate-limit headers and codes before deciding. Every
 * HTTP status except 401 comes back as a response; a 401 is left to n8n, which
 * renews a client-credentials token and retries once. Failures carry nothing of the
 * request (no headers, so no token).
 */
export async function sendApiRequest(ctx: AirSignContext, request: ApiRequest): Promise<ApiResponse> {
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${await baseUrlOf(ctx, request.itemIndex)}${API_PREFIX}${request.path}`,
		qs: request.qs,
		body: request.body,
		...(Buffer.isBuffer(request.body) && { headers: { 'Content-Type': 'application/json' } }),
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: { ignore: true, except: [401] },
		timeout: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
	};
	try {
		const response = (await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			CREDENTIAL_TYPE,
			options,
		)) as { statusCode: number; headers: IDataObject; body: unknown };
		const result: ApiResponse = {
			statusCode: response.statusCode,
			headers: lowerCaseKeys(response.headers),
			body: response.body,
		};
		const failure = failureFromResponse(response.statusCode, response.body);
		if (failure) result.failure = await describedFailure(ctx, failure, request.itemIndex);
		return result;
	} catch (error) {
		const failure = failureFromThrown(error);
		return {
			statusCode: failure.status,
			headers: {},
			body: undefined,
			failure: await describedFailure(ctx, failure, request.itemIndex),
		};
	}
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

/** Only a failure needs the secrets (to keep them out of its message): read them now, fresh. */
async function describedFailure(
	ctx: AirSignContext,
	failure: ApiFailure,
	itemIndex: number,
): Promise<AirSignRequestFailure> {
	let credentials: ICredentialDataDecryptedObject = {};
	try {
		credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
	} catch {
		// No credential to read: nothing of it can be in the message either.
	}
	return new AirSignRequestFailure(failure, credentials);
}

/** Sends a request and turns any failure into a NodeApiError with the operation's messages. */
export async function apiRequest(
	ctx: AirSignContext,
	request: ApiRequest,
	messages: FailureMessages = {},
): Promise<ApiResponse> {
	const response = await sendApiRequest(ctx, request);
	if (response.failure) {
		throw toNodeError(ctx, response.failure, request.itemIndex, messages);
	}
	return response;
}

/** A non-2xx answer, or a 2xx answer that is not the JSON object the spec promises. */
function failureFromResponse(statusCode: number, body: unknown): ApiFailure | undefined {
	if (statusCode >= 200 && statusCode < 300) {
		if (body !== null && typeof body === 'object') return undefined;
		return { status: statusCode, code: 'MALFORMED_RESPONSE' };
	}
	return {
		status: statusCode,
		code: readServiceErrorCode(body),
		serviceMessage: readServiceMessage(body),
	};
}

/**
 * A failure (never thrown as it is: see {@link toNodeError}), with the credential's secret values kept in a private field (never
 * enumerated or serialised) so that any text shown to the user can be scrubbed.
 */
export class AirSignRequestFailure extends Error {
	readonly #secrets: string[];

	constructor(
		readonly failure: ApiFailure,
		credentials: ICredentialDataDecryptedObject,
	) {
		super(failure.otherMessage ?? `AirSign request failed${failure.status ? ` (${failure.status})` : ''}`);
		this.#secrets = ['accessToken', 'clientSecret', 'sessionToken']
			.map((key) => credentials[key])
			.filter((value): value is string => typeof value === 'string' && value.length >= 4);
	}

	scrub(text: string): string {
		return this.#secrets.reduce((result, secret) => result.split(secret).join('[redacted]'), text);
	}
}

export function toNodeError(
	ctx: AirSignContext,
	error: unknown,
	itemIndex: number,
	messages: FailureMessages,
): NodeApiError {
	if (!(error instanceof AirSignRequestFailure)) {
		// Not a request failure: a bug or an unexpected throw; keep its message, add nothing.
		return new NodeApiError(ctx.getNode(), { message: String((error as Error)?.message ?? error) }, { itemIndex });
	}
	const { failure } = error;
	const text = describeFailure(failure, messages);
	const message = error.scrub(text.message);
	const description = text.description === undefined ? undefined : error.scrub(text.description);
	const response: JsonObject = {
		message,
		...(failure.status !== undefined && { httpCode: String(failure.status) }),
		...(failure.code !== undefined && { code: failure.code }),
	};
	return new NodeApiError(ctx.getNode(), response, {
		message,
		description,
		httpCode: failure.status === undefined ? undefined : String(failure.status),
		itemIndex,
	});
}

function describeFailure(failure: ApiFailure, messages: FailureMessages): FailureText {
	const serviceSaid = failure.serviceMessage ? ` AirSign said: "${failure.serviceMessage}"` : '';
	const specific =
		(failure.code !== undefined ? messages[failure.code] : undefined) ??
		(failure.status !== undefined ? messages[String(failure.status)] : undefined);
	if (specific) {
		const code = failure.code ?? (failure.status !== undefined ? `HTTP ${failure.status}` : undefined);
		return {
			message: code ? `${specific.message} [${code}]` : specific.message,
			description: `${specific.description ?? ''}${serviceSaid}`.trim() || undefined,
		};
	}
	if (failure.networkCode) {
		return {
			message: `Could not reach AirSign: ${describeNetworkCode(failure.networkCode)}`,
			description:
				'Check the Base URL in the AirSign credential and the network of this n8n instance, then try again.',
		};
	}
	if (failure.status === undefined) {
		return { message: failure.otherMessage ?? 'The request to AirSign failed' };
	}
	if (failure.code === 'MALFORMED_RESPONSE') {
		return {
			message: `AirSign answered HTTP ${failure.status} with a body that is not JSON`,
			description: 'This is usually a passing fault of the service or of a proxy: try again in a few minutes. If it persists, check the Base URL in the credential.',
		};
	}
	const common = COMMON_FAILURES[failure.status];
	if (common) {
		return {
			message: `${common.message} [HTTP ${failure.status}${failure.code ? ` ${failure.code}` : ''}]`,
			description: `${common.description ?? ''}${serviceSaid}`.trim() || undefined,
		};
	}
	if (failure.status >= 500) {
		return {
			message: `AirSign had an internal problem [HTTP ${failure.status}]`,
			description: `This is on AirSign's side and usually passes: try again in a few minutes.${serviceSaid}`,
		};
	}
	return {
		message: `AirSign refused the request [HTTP ${failure.status}${failure.code ? ` ${failure.code}` : ''}]`,
		description: serviceSaid.trim() || undefined,
	};
}

const COMMON_FAILURES: Record<number, FailureText> = {
	401: {
		message: 'AirSign rejected the credential',
		description:
			'The access token is wrong, revoked or expired. AirSign tokens last one hour: use the "Client Credentials" method of the AirSign credential so n8n renews them, or paste a new token.',
	},
	403: {
		message: 'The AirSign credential is not allowed to do this',
		description:
			'Its token lacks the scope this operation needs: Upload File needs write:files or write:sessions, Send Session needs write:sessions. Ask the AirSign administrator for a client with those scopes.',
	},
	404: {
		message: 'AirSign has no such resource',
		description: 'Check the ID, and that the credential belongs to the organisation that owns it.',
	},
	429: {
		message: 'AirSign\'s rate limit was reached',
		description: 'Wait a little and try again.',
	},
};

function failureFromThrown(error: unknown): ApiFailure {
	const thrown = error as {
		httpCode?: string | null;
		message?: string;
		code?: string;
		cause?: { code?: string; response?: { status?: number; data?: unknown } };
	};
	const response = thrown.cause?.response;
	const status = response?.status ?? (thrown.httpCode ? Number(thrown.httpCode) : undefined);
	if (status !== undefined && Number.isFinite(status)) {
		return {
			status,
			code: readServiceErrorCode(response?.data),
			serviceMessage: readServiceMessage(response?.data),
		};
	}
	const networkCode = thrown.cause?.code ?? thrown.code;
	if (typeof networkCode === 'string' && /^E[A-Z_]+$/.test(networkCode)) {
		return { networkCode };
	}
	return { otherMessage: thrown.message };
}

function normaliseBaseUrl(value: unknown): string {
	return String(value ?? '').trim().replace(/\/+$/, '');
}

function lowerCaseKeys(headers: IDataObject | undefined): IDataObject {
	const result: IDataObject = {};
	for (const [key, value] of Object.entries(headers ?? {})) result[key.toLowerCase()] = value;
	return result;
}
