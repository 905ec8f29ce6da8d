import { binaryItem } from '../../harness';
import { ENGINE } from '../../harness/engine';

import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { causeOfRequestFailure, failureWithoutAnswer } from '../../../nodes/AirSign/errors/failure';
import { asNodeError } from '../../../nodes/AirSign/errors/nodeError';
import {
	clientCredential,
	closedPort,
	pdf,
	getManyParams,
	tokenCredential,
	recordSleeps,
	runAirSign,
	sendParams,
	UNKNOWN_ID as SESSION_ID,
	uploadParams,
	useAirSign,
	stubAirSign,
} from './helpers';

// Declared failure causes (n8n-workflow 2.41's `failure`); n8n 1.x's errors come without it.
const ctx = useAirSign();
const recipients = [{ name: 'Ann', email: 'ann@example.com' }];
const declaresCauses = ENGINE === 'n8n-2';

/** The declared failure, or (n8n 1.x) its absence, on the thrown error and on the stored one. */
function expectCause(
	result: Awaited<ReturnType<typeof runAirSign>>,
	expected: Record<string, unknown>,
) {
	const error = result.error as (Error & { failure?: unknown }) | undefined;
	expect(error).toBeDefined();
	if (declaresCauses) {
		expect(error!.failure).toEqual(expected);
	} else {
		expect(error!.failure).toBeUndefined();
		expect('failure' in error!).toBe(false);
	}
}

/** Send Session's failure: its HTTP status (when given) and its declared cause. */
async function sendFails(sessionId: string, cause: string, httpCode?: string) {
	const result = await ctx.run(sendParams(sessionId));
	if (httpCode) expect(result.error!.httpCode).toBe(httpCode);
	expectCause(result, { cause });
	return result;
}
const draftId = () => ctx.sandbox.createSession({ recipients }).sessionId;

describe('declared failure causes: answers from AirSign', () => {
	it('429 → rate-limited, with Retry-After and the reset as epoch ms', async () => {
		const draft = draftId();
		ctx.sandbox.injectFault({ kind: 'rateLimit', retryAfter: 3600, path: '/api/v1/Session' });
		const before = Date.now();
		const result = await ctx.run(sendParams(draft));
		const after = Date.now();
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect(result.error!.httpCode).toBe('429');
		if (!declaresCauses) return expectCause(result, {});
		const failure = (result.error as unknown as { failure: Record<string, number> }).failure;
		expect(failure.cause).toBe('rate-limited');
		expect(failure.retryAfterMs).toBe(3_600_000);
		// The sandbox's reset is its clock + Retry-After; its Date header has whole seconds.
		expect(failure.resetsAtEpochMs).toBeGreaterThanOrEqual(before + 3_600_000 - 1_000);
		expect(failure.resetsAtEpochMs).toBeLessThanOrEqual(after + 3_600_000 + 1_000);
	});

	it('429 without any header → rate-limited without wait hints', async () => {
		await stubAirSign(ctx, () => ({ status: 429, body: { message: 'slow down' } }));
		await sendFails(SESSION_ID, 'rate-limited');
	});

	it.each([500, 502, 503, 504])('%i on a write → temporarily-unavailable', async (status) => {
		const draft = draftId();
		ctx.sandbox.injectFault({ kind: 'status', status, path: '/api/v1/Session' });
		await sendFails(draft, 'temporarily-unavailable', String(status));
	});

	it('503 on a read, after its retries → temporarily-unavailable', async () => {
		recordSleeps(); // the read's back-off, without its real waits
		ctx.sandbox.injectFault({ kind: 'status', status: 503, count: 3, path: '/api/v1/Sessions' });
		const result = await ctx.run(getManyParams());
		expectCause(result, { cause: 'temporarily-unavailable' });
	});

	it('a dropped connection → temporarily-unavailable', async () => {
		ctx.sandbox.injectFault({ kind: 'drop', path: '/api/v1/File' });
		const result = await ctx.run(uploadParams(), { input: [binaryItem(pdf(100))] });
		expectCause(result, { cause: 'temporarily-unavailable' });
	});

	it('a timeout (axios ECONNABORTED / ETIMEDOUT, no answer) → temporarily-unavailable', () => {
		// The request's own time limit is 60 s: too long for a test; the error as the client raises it.
		for (const error of [
			Object.assign(new Error('timeout of 60000ms exceeded'), { code: 'ECONNABORTED' }),
			Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' }),
			{ message: 'wrapped', cause: { code: 'ETIMEDOUT' } },
		]) {
			expect(causeOfRequestFailure(failureWithoutAnswer(error))).toEqual({
				cause: 'temporarily-unavailable',
			});
		}
	});

	it('an answer that is not JSON → temporarily-unavailable', async () => {
		const draft = draftId();
		ctx.sandbox.injectFault({ kind: 'malformed', path: '/api/v1/Session' });
		await sendFails(draft, 'temporarily-unavailable');
	});

	it('connection refused (nothing listens at the Base URL) → temporarily-unavailable', async () => {
		recordSleeps();
		ctx.cred = await tokenCredential(ctx, 'some-token-1234', await closedPort());
		await sendFails(SESSION_ID, 'temporarily-unavailable');
	});

	it('401 after n8n renewed the client-credentials token → credential-invalid', async () => {
		// The token endpoint hands out tokens; the API rejects every one of them.
		const stub = await stubAirSign(
			ctx,
			(request) =>
				request.url.startsWith('/oidc/token')
					? { status: 200, body: { access_token: 'fresh-token-abcdef', expires_in: 3600 } }
					: { status: 401, body: { code: 'INVALID_TOKEN', message: 'token rejected' } },
			'clientCredentials',
		);
		await sendFails(SESSION_ID, 'credential-invalid', '401');
		expect(stub.requests.filter((r) => r.url.startsWith('/oidc/token')).length).toBeGreaterThan(1);
	});

	it('a pasted access token AirSign rejects → credential-invalid', async () => {
		ctx.cred = await tokenCredential(ctx, 'not-a-real-token-1234');
		await sendFails(SESSION_ID, 'credential-invalid', '401');
	});

	it('a client secret the token endpoint refuses → credential-invalid', async () => {
		ctx.cred = await clientCredential(ctx, 'wrong-secret-123456');
		await sendFails(SESSION_ID, 'credential-invalid');
	});

	it.each([
		['a Base URL with no token endpoint (404)', 404, 'configuration-invalid'],
		['AirSign cannot issue tokens right now (503)', 503, 'temporarily-unavailable'],
	] as const)('the token request: %s → %s', async (_label, status, cause) => {
		await stubAirSign(ctx, () => ({ status, body: { message: 'no' } }), 'clientCredentials');
		await sendFails(SESSION_ID, cause);
	});

	it('the token request: nothing listens at the Base URL → temporarily-unavailable', async () => {
		ctx.cred = await clientCredential(ctx, ctx.sandbox.demo.clientSecret, await closedPort());
		const result = await sendFails(SESSION_ID, 'temporarily-unavailable');
		expect(result.error!.message).toContain('Could not reach');
	});

	it('403 (a scope, a plan feature) → configuration-invalid', async () => {
		const draft = draftId();
		ctx.sandbox.injectFault({ kind: 'status', status: 403, path: '/api/v1/Session' });
		await sendFails(draft, 'configuration-invalid', '403');
	});

	it('a Base URL that answers 404 to everything → configuration-invalid', async () => {
		recordSleeps();
		const raw = '<html>Not Found</html>';
		await stubAirSign(ctx, () => ({ status: 404, headers: { 'content-type': 'text/html' }, raw }));
		for (const params of [sendParams(SESSION_ID), getManyParams()]) {
			const result = await ctx.run(params);
			expect(result.error!.httpCode).toBe('404');
			expectCause(result, { cause: 'configuration-invalid' });
		}
	});

	it('a session AirSign does not know (404) → configuration-invalid', async () => {
		await sendFails(SESSION_ID, 'configuration-invalid', '404');
	});

	it('a request AirSign refuses as it stands (400 NOT_A_DRAFT) → configuration-invalid', async () => {
		const sent = ctx.sandbox.createSession({ recipients, status: 'inProgress' });
		await sendFails(sent.sessionId, 'configuration-invalid', '400');
	});
});

describe('declared failure causes: refused before any request', () => {
	it('a malformed session ID → configuration-invalid, nothing sent', async () => {
		const result = await sendFails('not-a-uuid', 'configuration-invalid');
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(ctx.sandbox.requests.filter((r) => r.path.startsWith('/api/v1'))).toHaveLength(0);
	});

	it('an item that is not a PDF → configuration-invalid', async () => {
		const result = await ctx.run(uploadParams(), {
			input: [binaryItem(Buffer.from('GIF89a'))],
		});
		expectCause(result, { cause: 'configuration-invalid' });
	});

	it("n8n's own refusal (no binary data under the field named) → configuration-invalid", async () => {
		const result = await ctx.run(uploadParams(), { input: [{ json: {} }] });
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expectCause(result, { cause: 'configuration-invalid' });
	});

	it('"Limit" below 1 → configuration-invalid', async () => {
		const result = await ctx.run(getManyParams({ returnAll: false, limit: 0 }));
		expectCause(result, { cause: 'configuration-invalid' });
	});
});

describe('declared failure causes: a bug of the node', () => {
	const node = {
		id: '1',
		name: 'AirSign',
		type: 'n8n-nodes-airsign.airSign',
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters: {},
	};

	it('a TypeError becomes a NodeOperationError declared node-defect', () => {
		const error = asNodeError(
			node,
			new TypeError("Cannot read properties of undefined (reading 'x')"),
			2,
		);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.context.itemIndex).toBe(2);
		expect((error as { failure?: unknown }).failure).toEqual(
			declaresCauses ? { cause: 'node-defect' } : undefined,
		);
	});

	it("the node's own errors come back untouched, their cause kept", () => {
		const declared = new NodeOperationError(node, 'bad input', {
			itemIndex: 0,
			failure: { cause: 'configuration-invalid' },
		} as never);
		expect(asNodeError(node, declared, 0)).toBe(declared);
		const apiError = new NodeApiError(node, { message: 'x' }, {
			failure: { cause: 'temporarily-unavailable' },
		} as never);
		expect(asNodeError(node, apiError, 0)).toBe(apiError);
		if (declaresCauses)
			expect((apiError as { failure?: unknown }).failure).toEqual({
				cause: 'temporarily-unavailable',
			});
	});
});
