import { binaryItem, type HarnessInputItem } from '../../harness';

import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type INodeParameters,
} from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { readServiceErrorCode, readServiceMessage } from '../../../nodes/AirSign/errors/failure';
import type { StubAnswer } from '../../harness/fixtures/stubServer';
import {
	closedPort,
	expectError,
	pdf,
	getManyParams,
	idItems,
	locator,
	tokenCredential,
	recordSleeps,
	sendEach,
	sendParams,
	UNKNOWN_ID as SESSION_ID,
	uploadParams,
	useAirSign,
	stubAirSign,
	type StubServer,
} from './helpers';

const ctx = useAirSign();
const recipients = [{ name: 'Ann', email: 'ann@example.com' }];
const continueOnFail = { continueOnFail: true };
const notADraft = 'The session is not a draft, so it cannot be sent [NOT_A_DRAFT]';
const baseUrlError = { type: NodeApiError, description: 'Base URL' };

let stub: StubServer;
async function sendAgainstStub(answer: StubAnswer) {
	stub = await stubAirSign(ctx, () => answer);
	return await ctx.run(sendParams(SESSION_ID));
}

describe('error-body shapes (loopback stub: the sandbox always answers { code, message })', () => {
	const said = { message: 'not a draft' };
	// Each a 400 answer to Send.
	const shapes: Record<string, Omit<StubAnswer, 'status'>> = {
		code: { body: { code: 'NOT_A_DRAFT', ...said } },
		errorCode: { body: { errorCode: 'NOT_A_DRAFT', ...said } },
		'error (string)': { body: { error: 'NOT_A_DRAFT', ...said } },
		'error.code': { body: { error: { code: 'NOT_A_DRAFT', ...said } } },
		'RFC 7807 problem (type URI, application/problem+json)': {
			headers: { 'content-type': 'application/problem+json' },
			body: {
				type: 'https://api.airsign.example/errors/not-a-draft',
				title: 'Not a draft',
				status: 400,
				detail: 'not a draft',
			},
		},
		'RFC 7807 problem, camelCase last segment': {
			body: { type: 'https://api.airsign.example/problems/NotADraft', detail: 'not a draft' },
		},
		'JSON served as text/plain': {
			headers: { 'content-type': 'text/plain' },
			raw: JSON.stringify({ code: 'NOT_A_DRAFT', ...said }),
		},
	};
	it.each(Object.entries(shapes))('finds the code in %s', async (_label, answer) => {
		const result = await sendAgainstStub({ status: 400, ...answer });
		expect(stub.requests).toHaveLength(1);
		const url = `/api/v1/Session/${SESSION_ID}/Send`;
		expect(stub.requests[0]).toMatchObject({ method: 'POST', url });
		const description = 'AirSign said: "not a draft"';
		expectError(result, notADraft, { type: NodeApiError, description, httpCode: '400' });
	});

	it("falls back to the HTTP status when no code is given (404 → the operation's 404 text)", async () => {
		const result = await sendAgainstStub({ status: 404, body: {} });
		expect(result.error!.message).toBe('AirSign has no session with this ID [HTTP 404]');
	});

	it('falls back to the HTTP status with an empty body, a non-JSON body or "about:blank" (a 400 of Send: its documented meaning; an undocumented 409: the generic words)', async () => {
		const empty = await sendAgainstStub({ status: 400, raw: '' });
		expect(empty.error!.message).toBe('AirSign refused to send the session [HTTP 400]');
		const html = await sendAgainstStub({
			status: 409,
			headers: { 'content-type': 'text/html' },
			raw: '<html>Conflict</html>',
		});
		expect(html.error!.message).toBe('AirSign refused the request [HTTP 409]');
		const blank = await sendAgainstStub({
			status: 400,
			body: { type: 'about:blank', title: 'Bad Request' },
		});
		expect(blank.error!.message).toBe('AirSign refused to send the session [HTTP 400]');
		expect(blank.error!.description).toMatch(
			/is not self-sign only.* AirSign said: "Bad Request"$/,
		);
	});

	it('Upload maps a 413 without any code (e.g. from a proxy) to the size message', async () => {
		const raw = '<h1>413 Request Entity Too Large</h1>';
		await stubAirSign(ctx, () => ({ status: 413, headers: { 'content-type': 'text/html' }, raw }));
		const result = await ctx.run(uploadParams(), { input: [binaryItem(pdf(100))] });
		expect(result.error!.message).toBe('The file is larger than AirSign accepts [HTTP 413]');
	});

	it('a 2xx that is not JSON on Send is reported, not passed on as output', async () => {
		const result = await sendAgainstStub({
			status: 200,
			headers: { 'content-type': 'text/html' },
			raw: '<html>login page</html>',
		});
		expect(result.items).toEqual([]);
		expect(result.error!.message).toBe('AirSign answered HTTP 200 with a body that is not JSON');
	});
});

describe('readServiceErrorCode / readServiceMessage (unit)', () => {
	it.each([
		[{ code: 'NOT_A_DRAFT' }, 'NOT_A_DRAFT'],
		[{ errorCode: 'NO_RECIPIENTS' }, 'NO_RECIPIENTS'],
		[{ error_code: 'SELF_SIGN_ONLY' }, 'SELF_SIGN_ONLY'],
		[{ error: 'INCOMPLETE_RECIPIENTS' }, 'INCOMPLETE_RECIPIENTS'],
		[{ error: { code: 'FILE_TOO_LARGE' } }, 'FILE_TOO_LARGE'],
		[{ error: { errorCode: 'INVALID_BASE64' } }, 'INVALID_BASE64'],
		[{ errors: [{ code: 'INVALID_FILE_TYPE' }] }, 'INVALID_FILE_TYPE'],
		[{ type: 'https://x.example/errors/not-a-draft' }, 'NOT_A_DRAFT'],
		[{ type: 'https://x.example/errors#incomplete-recipients' }, 'INCOMPLETE_RECIPIENTS'],
		[{ type: 'urn:problem:SelfSignOnly' }, 'SELF_SIGN_ONLY'],
		[{ type: 'https://x.example/errors/NotADraft' }, 'NOT_A_DRAFT'],
		[{ type: 'https://x.example/errors/FILE_TOO_LARGE' }, 'FILE_TOO_LARGE'],
		[{ type: 'https://x.example/errors/invalid.base64' }, 'INVALID_BASE64'],
		[{ type: 'about:blank' }, undefined],
		[{ code: 42 }, '42'],
		[{ code: '  ' }, undefined],
		['{"code":"NOT_A_DRAFT"}', 'NOT_A_DRAFT'],
		['not json', undefined],
		[null, undefined],
		[[{ code: 'X' }], undefined],
		[{}, undefined],
	])('%j → %s', (body, expected) => {
		expect(readServiceErrorCode(body)).toBe(expected);
	});

	it('reads the message from message, detail, error_description, error.message, errors[0].message, title', () => {
		expect(readServiceMessage({ message: 'm' })).toBe('m');
		expect(readServiceMessage({ detail: 'd', title: 't' })).toBe('d');
		expect(readServiceMessage({ error_description: 'e' })).toBe('e');
		expect(readServiceMessage({ error: { message: 'em' } })).toBe('em');
		expect(readServiceMessage({ errors: [{ message: 'x' }] })).toBe('x');
		expect(readServiceMessage({ title: 't' })).toBe('t');
		expect(readServiceMessage({ message: 'y'.repeat(600) })).toHaveLength(500);
	});
});

it('an operation this version does not know (a workflow from a newer one) is refused by name, before any request', async () => {
	for (const [resource, operation] of [
		['session', 'archive'],
		['template', 'constructor'],
		['file', 'toString'],
	]) {
		const result = await ctx.run({ resource, operation });
		expect(result.error?.message).toBe(
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}
	expect(ctx.apiRequests()).toEqual([]);
});

describe('continueOnFail and item indexes', () => {
	it('On Error: Continue: the failing item becomes an error item, the others go on, pairing kept', async () => {
		const a = ctx.sandbox.createSession({ recipients });
		const b = ctx.sandbox.createSession({ recipients, status: 'completed' });
		const c = ctx.sandbox.createSession({ recipients });
		const result = await ctx.ok(sendParams('={{ $json.id }}'), {
			continueOnFail: true,
			input: idItems([a, b, c]),
		});
		expect(result.items).toHaveLength(3);
		expect(result.items[0].json).toMatchObject({ sessionId: a.sessionId, status: 'pending' });
		expect(result.items[1].json).toEqual({
			sessionId: b.sessionId,
			error: notADraft,
			code: 'NOT_A_DRAFT',
			description: expect.stringContaining('Send Invitation'),
			httpCode: '400',
		});
		// The identity comes first: the output table's first column is the session in every row.
		expect(Object.keys(result.items[1].json)[0]).toBe('sessionId');
		expect(result.items[2].json).toMatchObject({ sessionId: c.sessionId, status: 'pending' });
		expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(ctx.sandbox.outbox.map((m) => m.sessionId)).toEqual([a.sessionId, c.sessionId]);
	});

	it('continueOnFail also covers local refusals (bad session ID) and Get Many input errors', async () => {
		const a = ctx.sandbox.createSession({ recipients });
		const send = await ctx.run(sendParams('={{ $json.id }}'), {
			continueOnFail: true,
			input: [{ json: { id: '../x' } }, { json: { id: a.sessionId } }],
		});
		expect(send.items[0].json.error).toMatch(/is not a valid AirSign session ID/);
		expect(send.items[0].pairedItem).toEqual({ item: 0 });
		expect(send.items[1].json.status).toBe('pending');

		const list = await ctx.run(getManyParams({ limit: '={{ $json.limit }}' }), {
			continueOnFail: true,
			input: [{ json: { limit: 0 } }, { json: { limit: 2 } }],
		});
		expect(list.items[0].json.error).toMatch(/'Limit' must be/);
		expect(list.items[0].pairedItem).toEqual({ item: 0 });
	});

	it('On Error: Continue (using error output): the error item goes to the error output', async () => {
		const a = ctx.sandbox.createSession({ recipients });
		const result = await ctx.ok(sendParams('={{ $json.id }}'), {
			continueOnFail: 'continueErrorOutput',
			input: [{ json: { id: a.sessionId } }, { json: { id: SESSION_ID } }],
		});
		expect(result.outputs[0].map((i) => i.json.sessionId)).toEqual([a.sessionId]);
		expect(result.outputs[1]).toHaveLength(1);
		expect(result.outputs[1][0].json.error).toBe('AirSign has no session with this ID [NOT_FOUND]');
		expect(result.outputs[1][0].pairedItem).toEqual({ item: 1 });
	});

	it('legacy continueOnFail flag behaves the same', async () => {
		const result = await ctx.run(sendParams(SESSION_ID), { continueOnFail: 'legacy' });
		expect(result.items[0].json.error).toBe('AirSign has no session with this ID [NOT_FOUND]');
	});

	it('without it, the first error stops the node and carries the item index (one item after another)', async () => {
		const a = ctx.sandbox.createSession({ recipients });
		const b = ctx.sandbox.createSession({ recipients, selfSignOnly: true });
		const c = ctx.sandbox.createSession({ recipients });
		// Items at Once 1: strictly one after another, so item 2 never starts (at other settings
		// see pool.test.ts: the error then names the items that ran beside it).
		const result = await ctx.run(sendEach(1), { input: idItems([a, b, c]) });
		expect(result.items).toEqual([]);
		expectError(result, /\[SELF_SIGN_ONLY\]/, { type: NodeApiError, itemIndex: 1 });
		expect(result.run.status).toBe('error');
		expect(ctx.apiRequests()).toHaveLength(2);
		expect(ctx.sandbox.getSession(c.sessionId)?.status).toBe('draft');
	});

	it('a local error on item 1 carries itemIndex 1 too', async () => {
		const result = await ctx.run(uploadParams(), {
			input: [binaryItem(pdf(100)), binaryItem(Buffer.from('GIF89a'))],
		});
		expectError(result, /not a PDF/, { type: NodeOperationError, itemIndex: 1 });
		expect(ctx.apiRequests()).toHaveLength(1);
	});
});

// n8n's output table takes its columns from the items' keys: an error item that carries what its
// input was about reads at a glance next to the successful ones (Send: above).
describe('Continue On Fail: an error item says which input it was about', () => {
	const url = `https://app.airsign.example/sessions/${SESSION_ID}/edit`;
	const gif = binaryItem(Buffer.from('GIF89a'), { fileName: 'scan.gif' });
	const fromTemplate = { resource: 'session', operation: 'createFromTemplate' };
	it.each<[string, INodeParameters, IDataObject, HarnessInputItem[]?]>([
		[
			'a session chosen from the list or by URL: the locator value as given',
			{ ...sendParams(''), sessionId: locator(url, 'url') },
			{ sessionId: url, code: 'NOT_FOUND', httpCode: '404' },
		],
		[
			'Upload: the binary’s own file name',
			uploadParams(),
			{ fileName: 'scan.gif', error: expect.any(String) },
			[gif],
		],
		[
			'Upload: the file name given',
			uploadParams({ fileName: 'contract.pdf' }),
			{ fileName: 'contract.pdf' },
			[gif],
		],
		[
			'Template → Get: the template ID',
			{ resource: 'template', operation: 'get', templateId: SESSION_ID },
			{ templateId: SESSION_ID, httpCode: '404' },
		],
		[
			'Session → Create From Template: the template ID',
			{ ...fromTemplate, templateId: SESSION_ID, name: 'Offer for Ann' },
			{ templateId: SESSION_ID, name: 'Offer for Ann', error: expect.any(String) },
		],
		[
			'Send Invitation: the session and the recipient chosen',
			{
				resource: 'session',
				operation: 'sendInvitation',
				sessionId: SESSION_ID,
				recipient: 'specific',
				recipientLocator: locator('ann@example.com', 'email'),
			},
			{ sessionId: SESSION_ID, recipientEmail: 'ann@example.com', httpCode: '404' },
		],
	])('%s', async (_label, parameters, expected, input) => {
		const result = await ctx.run(parameters, { ...continueOnFail, input });
		expect(result.items[0].json).toMatchObject(expected);
	});

	it('a local refusal (no request sent) carries the ID as typed and no code', async () => {
		const result = await ctx.run(sendParams('../x'), continueOnFail);
		expect(result.items[0].json).toEqual({
			sessionId: '../x',
			error: expect.stringMatching(/is not a valid AirSign session ID/),
			description: expect.any(String),
		});
	});

	it('Get Many has no subject: its error item is the error alone', async () => {
		const params = getManyParams({ returnAll: false, limit: 0 });
		const result = await ctx.run(params, continueOnFail);
		expect(Object.keys(result.items[0].json)).toEqual(['error']);
	});
});

describe('write operations are not retried; network failures are clear', () => {
	it('Send: a 500 is reported after one attempt (not idempotent), the session untouched', async () => {
		const sleeps = recordSleeps();
		const draft = ctx.sandbox.createSession({ recipients });
		ctx.sandbox.injectFault({ kind: 'status', status: 500, path: '/api/v1/Session' });
		const result = await ctx.run(sendParams(draft.sessionId));
		expect(ctx.apiRequests()).toHaveLength(1);
		expect(sleeps.requested).toEqual([]);
		expectError(result, 'AirSign could not finish the request [HTTP 500]', { httpCode: '500' });
	});

	it('Upload: a dropped connection is reported after one attempt', async () => {
		ctx.sandbox.injectFault({ kind: 'drop', path: '/api/v1/File' });
		const result = await ctx.run(uploadParams(), { input: [binaryItem(pdf(100))] });
		expect(ctx.apiRequests()).toHaveLength(1);
		expect(result.error!.message).toBe('Could not reach AirSign: connection closed by the server');
	});

	it('a Base URL with nothing listening: "connection refused", for every operation', async () => {
		ctx.cred = await tokenCredential(ctx, 'some-token-1234', await closedPort());
		const sleeps = recordSleeps();
		for (const [params, input] of [
			[sendParams(SESSION_ID), undefined],
			[uploadParams(), [binaryItem(pdf(100))]],
			[getManyParams(), undefined],
		] as const) {
			const result = await ctx.run(params, { input: input as never });
			expectError(result, 'Could not reach AirSign: connection refused', baseUrlError);
		}
		// Get Many retried twice (reads are safe to retry).
		expect(sleeps.requested).toEqual([500, 2000]);
	});

	it('a network code without words of its own is still said in plain words (HTTPS to a plain HTTP port)', async () => {
		const plainHttp = ctx.sandbox.baseUrl.replace(/^http:/, 'https:');
		ctx.cred = await tokenCredential(ctx, 'some-token-1234', plainHttp);
		const result = await ctx.run(sendParams(SESSION_ID));
		expectError(result, 'Could not reach AirSign: no connection was made', baseUrlError);
	});
});
