import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

// Besides n8n-workflow, only files without imports of their own: the service's facts, the Base
// URL rule, the words for a network failure and the failure causes are one fact each, for
// credential and nodes alike.
import type { DeclaredFailure } from '../nodes/AirSign/errors/causes';
import {
	CONFIGURATION_INVALID,
	CREDENTIAL_INVALID,
	describeNetworkCode,
	TEMPORARILY_UNAVAILABLE,
} from '../nodes/AirSign/errors/causes';
import { LIST_SESSIONS_HOURLY_BUDGET, TOKEN_PATH } from '../nodes/AirSign/helpers/constants';
import { normaliseBaseUrl } from '../nodes/AirSign/transport/baseUrl';

/**
 * AirSign access tokens live one hour. "Client Credentials" lets n8n fetch a token
 * itself: `sessionToken` is an expirable hidden field, so n8n calls
 * `preAuthentication` when it is empty or when a request answers 401, and stores the
 * new token with the credential. The node code keeps no token cache of its own.
 */
export class AirSignApi implements ICredentialType {
	name = 'airSignApi';

	displayName = 'AirSign API';

	icon: Icon = {
		light: 'file:../nodes/AirSign/airsign.svg',
		dark: 'file:../nodes/AirSign/airsign.dark.svg',
	};

	documentationUrl = 'https://github.com/airsign/n8n-nodes-airsign#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Authentication',
			name: 'authentication',
			type: 'options',
			options: [
				{
					name: 'Client Credentials',
					value: 'clientCredentials',
					description:
						'Client ID and secret: n8n fetches a new one-hour access token by itself whenever the old one expires',
				},
				{
					name: 'Access Token',
					value: 'accessToken',
					description:
						'A pasted access token. AirSign tokens expire after one hour, so this suits quick tests only.',
				},
			],
			default: 'clientCredentials',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
			displayOptions: { show: { authentication: ['clientCredentials'] } },
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			displayOptions: { show: { authentication: ['clientCredentials'] } },
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			displayOptions: { show: { authentication: ['accessToken'] } },
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://api.airsign.com.au',
			description: 'Address of the AirSign API. Change it only to use a test or local instance.',
		},
		{
			displayName: 'Session Token',
			name: 'sessionToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	async preAuthentication(
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<IDataObject> {
		if (credentials.authentication !== 'clientCredentials') {
			// Nothing to fetch: `authenticate` sends the pasted token as it is.
			return {};
		}
		const tokenUrl = `${normaliseBaseUrl(credentials.baseUrl)}${TOKEN_PATH}`;
		let response: IDataObject;
		try {
			response = (await this.helpers.httpRequest({
				method: 'POST',
				url: tokenUrl,
				auth: {
					username: String(credentials.clientId ?? ''),
					password: String(credentials.clientSecret ?? ''),
				},
				headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
				body: 'grant_type=client_credentials',
				json: true,
			})) as IDataObject;
		} catch (error) {
			throw tokenFailure(
				describeTokenFailure(error as TokenRequestError, tokenUrl),
				causeOfTokenFailure(error as TokenRequestError),
			);
		}
		if (typeof response?.access_token !== 'string' || response.access_token === '') {
			throw tokenFailure(
				`The address ${tokenUrl} answered, but not with an access token. Check the Base URL of the AirSign credential.`,
				CONFIGURATION_INVALID,
			);
		}
		return { sessionToken: response.access_token };
	}

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization:
					'=Bearer {{ $credentials.authentication === "accessToken" ? $credentials.accessToken : $credentials.sessionToken }}',
			},
		},
	};

	// One List Sessions request (one unit of the hourly budget). With client
	// credentials, n8n fetches a token first, which tells a wrong secret apart.
	test: ICredentialTestRequest = {
		request: {
			// An expression cannot import normaliseBaseUrl; it strips the trailing slash the same way.
			baseURL: '={{ $credentials.baseUrl.replace(/\\/+$/, "") }}',
			url: '/api/v1/Sessions',
			qs: { limit: 1 },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'AirSign rejected the access token: it is wrong, revoked or expired',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: 'No AirSign API answered at this Base URL: check the address',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 429,
					message: `The token works, but the organisation has used its ${LIST_SESSIONS_HOURLY_BUDGET} List Sessions requests for this hour`,
				},
			},
		],
	};
}

interface TokenRequestError {
	code?: string;
	response?: { status?: number };
	httpCode?: string;
	cause?: TokenRequestError;
}

/**
 * A failed token request, its cause declared as plain data on the error (as n8n-workflow 2.41's
 * node errors carry theirs): the nodes' transport passes it on to the node error it builds.
 */
function tokenFailure(message: string, failure: DeclaredFailure): Error {
	return Object.assign(new Error(message), { failure });
}

/** Rejected client ID or secret; a Base URL with no token endpoint; AirSign down or unreachable. */
function causeOfTokenFailure(error: TokenRequestError): DeclaredFailure {
	const status = tokenAnswerStatus(error);
	if (status === 400 || status === 401) return CREDENTIAL_INVALID;
	if (status === 404 || status === 405) return CONFIGURATION_INVALID;
	if (status && status >= 500) return TEMPORARILY_UNAVAILABLE;
	return status ? CONFIGURATION_INVALID : TEMPORARILY_UNAVAILABLE;
}

function tokenAnswerStatus(error: TokenRequestError): number | undefined {
	const status = error.response?.status ?? error.cause?.response?.status ?? Number(error.httpCode);
	return Number.isInteger(status) && status > 0 ? status : undefined;
}

function describeTokenFailure(error: TokenRequestError, tokenUrl: string): string {
	const status = tokenAnswerStatus(error);
	if (status === 400 || status === 401) {
		return 'AirSign rejected the client ID or client secret. Check both in the AirSign credential.';
	}
	if (status === 404 || status === 405) {
		return `No AirSign token endpoint at ${tokenUrl}. Check the Base URL of the AirSign credential.`;
	}
	if (status && status >= 500) {
		return `AirSign could not issue an access token (HTTP ${status}). Try again in a few minutes.`;
	}
	const code = error.code ?? error.cause?.code;
	return `Could not reach ${tokenUrl}${code ? ` (${describeNetworkCode(code)})` : ''}. Check the Base URL of the AirSign credential.`;
}
