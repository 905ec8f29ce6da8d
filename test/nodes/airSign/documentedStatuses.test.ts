import '../../harness';
import { binaryItem, type HarnessInputItem } from '../../harness';

import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { Sandbox } from '../../../sandbox';
import { simple } from './createSessionParams';
import { offerTemplate, offerTemplateParams } from './offerTemplate';
import {
	pdf,
	getManyParams,
	tokenCredential,
	runAirSign,
	sendParams,
	uploadParams,
	useAirSign,
	locator,
	fromTemplateParams,
} from './helpers';

/**
 * Every status docs/api.md documents for every endpoint (its endpoint sections and
 * docs/api.md#errors), answered by AirSign WITHOUT a code and WITH a code this node does
 * not know: the node still says what the status means for that operation, shows the status or
 * the code, and puts AirSign's own message beside it. (The known codes have their own tests.)
 */
const ctx = useAirSign();
const AIRSIGN_SAYS = 'AirSign says so';
const UNKNOWN_CODE = 'SOMETHING_NEW';

interface Operation {
	/** The node's parameters and input, after any setup in the sandbox. */
	setup: (sandbox: Sandbox) => Promise<{ params: INodeParameters; input?: HarnessInputItem[] }>;
	method: string;
	path: (params: INodeParameters) => string;
}

const recipients = [{ name: 'Ann', email: 'ann@example.com' }];
const sessionPath = (params: INodeParameters) =>
	`/api/v1/Session/${String((params.sessionId as { value?: string }).value ?? params.sessionId)}`;

const operations: Record<string, Operation> = {
	'Upload File': {
		setup: async () => ({ params: uploadParams(), input: [binaryItem(pdf(100))] }),
		method: 'POST',
		path: () => '/api/v1/File',
	},
	'Send Session': {
		setup: async (sandbox) => ({
			params: sendParams(sandbox.createSession({ recipients }).sessionId),
		}),
		method: 'POST',
		path: (params) => `/api/v1/Session/${String(params.sessionId)}/Send`,
	},
	'List Sessions (Get Many)': {
		setup: async () => ({ params: getManyParams() }),
		method: 'GET',
		path: () => '/api/v1/Sessions',
	},
	'Create Session': {
		setup: async () => ({ params: simple({ recipients: { recipient: recipients } }) }),
		method: 'POST',
		path: () => '/api/v1/Session',
	},
	'Create Session From Template': {
		setup: async (sandbox) => {
			const template = sandbox.createTemplate(
				offerTemplate({
					recipients: [{ key: 'a', name: 'Ann', email: 'ann@example.com' }],
					variables: [],
				}),
			);
			return { params: fromTemplateParams(locator(template.templateId), {}) };
		},
		method: 'POST',
		path: () => '/api/v1/SessionFromTemplate',
	},
	'Get Session': {
		setup: async (sandbox) => ({
			params: {
				resource: 'session',
				operation: 'get',
				sessionId: locator(sandbox.createSession({ recipients }).sessionId),
			},
		}),
		method: 'GET',
		path: sessionPath,
	},
	'Send Invitation (next recipient)': {
		setup: async (sandbox) => ({
			params: {
				resource: 'session',
				operation: 'sendInvitation',
				sessionId: locator(sandbox.createSession({ recipients, status: 'pending' }).sessionId),
			},
		}),
		method: 'POST',
		path: (params) => `${sessionPath(params)}/SendInvitation`,
	},
	'Send Invitation (a recipient named)': {
		setup: async (sandbox) => ({
			params: {
				resource: 'session',
				operation: 'sendInvitation',
				sessionId: locator(sandbox.createSession({ recipients, status: 'pending' }).sessionId),
				recipient: 'specific',
				recipientLocator: locator('ann@example.com', 'email'),
			},
		}),
		method: 'POST',
		path: (params) => `${sessionPath(params)}/SendInvitation`,
	},
	'List Templates (Template Get Many)': {
		setup: async () => ({ params: { resource: 'template', operation: 'getMany' } }),
		method: 'GET',
		path: () => '/api/v1/Templates',
	},
	'Get Template': {
		setup: async (sandbox) => ({
			params: {
				resource: 'template',
				operation: 'get',
				templateId: locator(sandbox.createTemplate({ name: 'Any', status: 'active' }).templateId),
			},
		}),
		method: 'GET',
		path: (params) => `/api/v1/Template/${String((params.templateId as { value: string }).value)}`,
	},
	'Create Template': {
		setup: async (sandbox) => {
			ctx.cred = await tokenCredential(
				ctx,
				sandbox.issueToken({ scopes: ['write:sessions', 'write:templates'] }),
			);
			return { params: offerTemplateParams() };
		},
		method: 'POST',
		path: () => '/api/v1/Template',
	},
};

const credentialRejected = /AirSign rejected the credential/;
const notAllowed = /not allowed to do this|plan feature or a scope/;
const requestBudget = /AirSign's request budget is used up/;

/** [operation, status, what the status means for it] for every documented status. */
const documented: Array<[string, number, RegExp]> = [
	['Upload File', 400, /not valid base64 or not a PDF/],
	['Upload File', 401, credentialRejected],
	['Upload File', 413, /larger than AirSign accepts/],
	['Send Session', 400, /refused to send the session/],
	['Send Session', 401, credentialRejected],
	['Send Session', 404, /no session with this ID/],
	['List Sessions (Get Many)', 401, credentialRejected],
	['List Sessions (Get Many)', 429, /List Sessions budget is used up/],
	['Create Session', 400, /refused a value of the request/],
	['Create Session', 401, credentialRejected],
	['Create Session', 403, notAllowed],
	['Create Session', 429, requestBudget],
	['Create Session From Template', 400, /refused to create the session from the template/],
	['Create Session From Template', 401, credentialRejected],
	['Create Session From Template', 403, notAllowed],
	['Create Session From Template', 404, /no template with this ID/],
	['Create Session From Template', 429, requestBudget],
	['Get Session', 401, credentialRejected],
	['Get Session', 404, /no session with this ID/],
	['Get Session', 429, requestBudget],
	['Send Invitation (next recipient)', 400, /not waiting for signatures/],
	['Send Invitation (next recipient)', 401, credentialRejected],
	['Send Invitation (next recipient)', 404, /no session with this ID/],
	['Send Invitation (next recipient)', 429, requestBudget],
	['Send Invitation (a recipient named)', 400, /not waiting for signatures/],
	[
		'Send Invitation (a recipient named)',
		404,
		/no such session, or the session has no such recipient/,
	],
	['List Templates (Template Get Many)', 401, credentialRejected],
	['List Templates (Template Get Many)', 429, requestBudget],
	['Get Template', 401, credentialRejected],
	['Get Template', 404, /no template with this ID/],
	['Get Template', 429, requestBudget],
	['Create Template', 400, /refused a value of the template/],
	['Create Template', 401, credentialRejected],
	['Create Template', 403, notAllowed],
	['Create Template', 429, requestBudget],
];

describe.each([
	['without a code', null],
	['with a code the node does not know', UNKNOWN_CODE],
] as const)('every documented status, %s', (_label, code) => {
	it.each(documented)('%s, HTTP %i: %s', async (name, status, meaning) => {
		const operation = operations[name];
		const { params, input } = await operation.setup(ctx.sandbox);
		ctx.sandbox.injectFault({
			kind: 'status',
			status,
			code,
			message: AIRSIGN_SAYS,
			method: operation.method,
			path: operation.path(params),
			// A 401 makes n8n renew the token and try again (n8n 1.x twice): every try gets it.
			count: status === 401 ? 10 : 1,
		});
		const result = await runAirSign(ctx, params, input ? { input } : {});
		ctx.sandbox.clearFaults();

		expect(result.error, JSON.stringify(result.items)).toBeDefined();
		expect(result.error!.httpCode).toBe(String(status));
		expect(result.error!.message).toMatch(meaning);
		expect(result.error!.message).toContain(code ?? `HTTP ${status}`);
		expect(result.error!.description).toContain(`AirSign said: "${AIRSIGN_SAYS}"`);
	});
});
