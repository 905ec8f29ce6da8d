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
	sendParams,
	uploadParams,
	useAirSign,
	locator,
	fromTemplateParams,
} from './helpers';

// Every status docs/api.md documents for every endpoint, answered without a code and with one the
// node does not know: it still says what the status means there, shows it, and AirSign's message.
const ctx = useAirSign();
const AIRSIGN_SAYS = 'AirSign says so';
const UNKNOWN_CODE = 'SOMETHING_NEW';

const recipients = [{ name: 'Ann', email: 'ann@example.com' }];
const credentialRejected = /AirSign rejected the credential/;
const notAllowed = /not allowed to do this|plan feature or a scope/;
const requestBudget = /AirSign's request budget is used up/;
const notFound = /no session with this ID/;
const notWaiting = /not waiting for signatures/;

type Setup = (sandbox: Sandbox) => Promise<{ params: INodeParameters; input?: HarnessInputItem[] }>;
/** Its request (":id": the ID given), its setup, what each documented status means for it. */
type Operation = [request: string, Setup, Record<number, RegExp>];

/** Parameters naming a session or template by ID, as `{resource}Id`. */
const byId = (resource: string, operation: string, id: string, extra: INodeParameters = {}) => ({
	params: { resource, operation, [`${resource}Id`]: locator(id), ...extra },
});
const pending = (sandbox: Sandbox) =>
	sandbox.createSession({ recipients, status: 'pending' }).sessionId;
const idIn = (params: INodeParameters) => {
	const id = (params.sessionId ?? params.templateId) as string | { value: string };
	return typeof id === 'string' ? id : id.value;
};

const operations: Record<string, Operation> = {
	'Upload File': [
		'POST /api/v1/File',
		async () => ({ params: uploadParams(), input: [binaryItem(pdf(100))] }),
		{
			400: /not valid base64 or not a PDF/,
			401: credentialRejected,
			413: /larger than AirSign accepts/,
		},
	],
	'Send Session': [
		'POST /api/v1/Session/:id/Send',
		async (sandbox) => ({ params: sendParams(sandbox.createSession({ recipients }).sessionId) }),
		{ 400: /refused to send the session/, 401: credentialRejected, 404: notFound },
	],
	'List Sessions (Get Many)': [
		'GET /api/v1/Sessions',
		async () => ({ params: getManyParams() }),
		{ 401: credentialRejected, 429: /List Sessions budget is used up/ },
	],
	'Create Session': [
		'POST /api/v1/Session',
		async () => ({ params: simple({ recipients: { recipient: recipients } }) }),
		{
			400: /refused a value of the request/,
			401: credentialRejected,
			403: notAllowed,
			429: requestBudget,
		},
	],
	'Create Session From Template': [
		'POST /api/v1/SessionFromTemplate',
		async (sandbox) => {
			const only = [{ key: 'a', name: 'Ann', email: 'ann@example.com' }];
			const template = sandbox.createTemplate(offerTemplate({ recipients: only, variables: [] }));
			return { params: fromTemplateParams(locator(template.templateId), {}) };
		},
		{
			400: /refused to create the session from the template/,
			401: credentialRejected,
			403: notAllowed,
			404: /no template with this ID/,
			429: requestBudget,
		},
	],
	'Get Session': [
		'GET /api/v1/Session/:id',
		async (sandbox) => byId('session', 'get', sandbox.createSession({ recipients }).sessionId),
		{ 401: credentialRejected, 404: notFound, 429: requestBudget },
	],
	'Send Invitation (next recipient)': [
		'POST /api/v1/Session/:id/SendInvitation',
		async (sandbox) => byId('session', 'sendInvitation', pending(sandbox)),
		{ 400: notWaiting, 401: credentialRejected, 404: notFound, 429: requestBudget },
	],
	'Send Invitation (a recipient named)': [
		'POST /api/v1/Session/:id/SendInvitation',
		async (sandbox) =>
			byId('session', 'sendInvitation', pending(sandbox), {
				recipient: 'specific',
				recipientLocator: locator('ann@example.com', 'email'),
			}),
		{ 400: notWaiting, 404: /no such session, or the session has no such recipient/ },
	],
	'List Templates (Template Get Many)': [
		'GET /api/v1/Templates',
		async () => ({ params: { resource: 'template', operation: 'getMany' } }),
		{ 401: credentialRejected, 429: requestBudget },
	],
	'Get Template': [
		'GET /api/v1/Template/:id',
		async (sandbox) =>
			byId('template', 'get', sandbox.createTemplate({ name: 'Any', status: 'active' }).templateId),
		{ 401: credentialRejected, 404: /no template with this ID/, 429: requestBudget },
	],
	'Create Template': [
		'POST /api/v1/Template',
		async (sandbox) => {
			const scopes = ['write:sessions', 'write:templates'];
			ctx.cred = await tokenCredential(ctx, sandbox.issueToken({ scopes }));
			return { params: offerTemplateParams() };
		},
		{
			400: /refused a value of the template/,
			401: credentialRejected,
			403: notAllowed,
			429: requestBudget,
		},
	],
};

/** [operation, status, what the status means for it] for every documented status. */
const documented = Object.entries(operations).flatMap(([name, [, , meanings]]) =>
	Object.entries(meanings).map(([status, meaning]) => [name, Number(status), meaning] as const),
);

describe.each([
	['without a code', null],
	['with a code the node does not know', UNKNOWN_CODE],
] as const)('every documented status, %s', (_label, code) => {
	it.each(documented)('%s, HTTP %i: %s', async (name, status, meaning) => {
		const [request, setup] = operations[name];
		const { params, input } = await setup(ctx.sandbox);
		const [method, path] = request.replace(':id', () => idIn(params)).split(' ');
		ctx.sandbox.injectFault({
			kind: 'status',
			status,
			code,
			message: AIRSIGN_SAYS,
			method,
			path,
			// A 401 makes n8n renew the token and try again (n8n 1.x twice): every try gets it.
			count: status === 401 ? 10 : 1,
		});
		const result = await ctx.run(params, input ? { input } : {});
		ctx.sandbox.clearFaults();

		expect(result.error, JSON.stringify(result.items)).toBeDefined();
		expect(result.error!.httpCode).toBe(String(status));
		expect(result.error!.message).toMatch(meaning);
		expect(result.error!.message).toContain(code ?? `HTTP ${status}`);
		expect(result.error!.description).toContain(`AirSign said: "${AIRSIGN_SAYS}"`);
	});
});
