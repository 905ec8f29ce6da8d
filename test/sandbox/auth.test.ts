import { describe, expect, it } from 'vitest';
import { call, list } from './helpers';
import { useSandbox } from '../harness/sandbox';

const sandbox = useSandbox({ now: '2025-06-16T14:00:00.000Z' });

async function tokenRequest(body: string, basic?: string, headers: Record<string, string> = {}) {
	const res = await fetch(`${sandbox().baseUrl}/oidc/token`, {
		method: 'POST',
		headers: {
			'Content-Type': 'application/x-www-form-urlencoded',
			...(basic === undefined
				? {}
				: { Authorization: `Basic ${Buffer.from(basic).toString('base64')}` }),
			...headers,
		},
		body,
	});
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the sandbox's JSON, asserted field by field
	return { status: res.status, json: async (): Promise<any> => res.json() };
}

describe('token endpoint (docs/api.md#token-endpoint): POST /oidc/token, client credentials', () => {
	it('200 { access_token, expires_in: 3600, token_type: Bearer } for the right client id and secret', async () => {
		const { clientId, clientSecret } = sandbox().demo;
		const res = await tokenRequest('grant_type=client_credentials', `${clientId}:${clientSecret}`);
		expect(res.status).toBe(200);
		const body = await res.json();
		expect(body).toMatchObject({
			access_token: expect.any(String),
			expires_in: 3600,
			token_type: 'Bearer',
		});
		expect(body.access_token.split('.')).toHaveLength(3);
		expect((await list(sandbox(), '', body.access_token)).status).toBe(200);
	});

	it('a token from /oidc/token can upload and send (write:files, write:sessions)', async () => {
		const { clientId, clientSecret } = sandbox().demo;
		const { access_token: token } = await (
			await tokenRequest('grant_type=client_credentials', `${clientId}:${clientSecret}`)
		).json();
		const draft = sandbox().createSession();
		expect(
			(await call(sandbox(), 'POST', `/api/v1/Session/${draft.sessionId}/Send`, { token })).status,
		).toBe(200);
		expect(
			(
				await call(sandbox(), 'POST', '/api/v1/File', {
					token,
					json: { fileName: 'a', data: 'JVBERi0=' },
				})
			).status,
		).toBe(200);
	});

	it('wrong secret → 401 { error: invalid_client }', async () => {
		const res = await tokenRequest(
			'grant_type=client_credentials',
			`${sandbox().demo.clientId}:wrong`,
		);
		expect(res.status).toBe(401);
		expect(await res.json()).toMatchObject({ error: 'invalid_client' });
	});

	it('unknown client or no credentials → 401 invalid_client', async () => {
		expect((await tokenRequest('grant_type=client_credentials', 'nobody:x')).status).toBe(401);
		expect((await tokenRequest('grant_type=client_credentials')).status).toBe(401);
	});

	it('another grant type → 400 { error: unsupported_grant_type }', async () => {
		const { clientId, clientSecret } = sandbox().demo;
		const res = await tokenRequest(
			'grant_type=password&username=a&password=b',
			`${clientId}:${clientSecret}`,
		);
		expect(res.status).toBe(400);
		expect(await res.json()).toMatchObject({ error: 'unsupported_grant_type' });
	});

	it('client_id and client_secret in the form body are accepted too', async () => {
		const { clientId, clientSecret } = sandbox().other;
		const res = await tokenRequest(
			`grant_type=client_credentials&client_id=${clientId}&client_secret=${clientSecret}`,
		);
		expect(res.status).toBe(200);
	});

	it('tokenTtlSeconds sets expires_in', async () => {
		sandbox().config.tokenTtlSeconds = 120;
		const { clientId, clientSecret } = sandbox().demo;
		const body = await (
			await tokenRequest('grant_type=client_credentials', `${clientId}:${clientSecret}`)
		).json();
		expect(body.expires_in).toBe(120);
	});

	it('tokens expire by the sandbox clock after tokenTtlSeconds → 401 on every endpoint', async () => {
		const { clientId, clientSecret } = sandbox().demo;
		const { access_token: token } = await (
			await tokenRequest('grant_type=client_credentials', `${clientId}:${clientSecret}`)
		).json();
		sandbox().clock.advance(3600_000 - 1);
		expect((await list(sandbox(), '', token)).status).toBe(200);
		sandbox().clock.advance(1);
		expect((await list(sandbox(), '', token)).status).toBe(401);
		const draft = sandbox().createSession();
		expect(
			(await call(sandbox(), 'POST', `/api/v1/Session/${draft.sessionId}/Send`, { token })).status,
		).toBe(401);
		expect(
			(
				await call(sandbox(), 'POST', '/api/v1/File', {
					token,
					json: { fileName: 'a', data: 'JVBERi0=' },
				})
			).status,
		).toBe(401);
	});

	it('issueToken({ ttlSeconds }) expires too; the ready demo token never does', async () => {
		const token = sandbox().issueToken({ ttlSeconds: 10 });
		sandbox().clock.advance(10_000);
		expect((await list(sandbox(), '', token)).status).toBe(401);
		sandbox().clock.advance(365 * 24 * 3600_000);
		expect((await list(sandbox())).status).toBe(200);
	});

	it('a GET to the token endpoint → 405', async () => {
		expect((await fetch(`${sandbox().baseUrl}/oidc/token`)).status).toBe(405);
	});
});

describe('authentication (docs/api.md#authentication)', () => {
	it('the header is Authorization: Bearer <token>; another scheme → 401', async () => {
		const res = await fetch(`${sandbox().baseUrl}/api/v1/Sessions`, {
			headers: { Authorization: sandbox().demo.accessToken },
		});
		expect(res.status).toBe(401);
		const basic = await fetch(`${sandbox().baseUrl}/api/v1/Sessions`, {
			headers: { Authorization: `Basic ${sandbox().demo.accessToken}` },
		});
		expect(basic.status).toBe(401);
	});

	it('the Bearer scheme name is case-insensitive', async () => {
		const res = await fetch(`${sandbox().baseUrl}/api/v1/Sessions`, {
			headers: { Authorization: `bearer ${sandbox().demo.accessToken}` },
		});
		expect(res.status).toBe(200);
	});

	it('a token of a reset sandbox is no longer valid (issued tokens are revoked)', async () => {
		const token = sandbox().issueToken();
		sandbox().reset();
		expect((await list(sandbox(), '', token)).status).toBe(401);
		expect((await list(sandbox())).status).toBe(200);
	});
});

describe('org isolation', () => {
	it("Get Session: another organisation's session → 404; own → 200 with files", async () => {
		const upload = await call(sandbox(), 'POST', '/api/v1/File', {
			json: { fileName: 'ref', data: 'JVBERi0=' },
		});
		const mine = sandbox().createSession({ files: [upload.body.fileId] });
		const theirs = sandbox().createSession({ orgId: sandbox().other.orgId });
		const res = await call(sandbox(), 'GET', `/api/v1/Session/${mine.sessionId}`);
		expect(res.status).toBe(200);
		expect(res.body.files).toEqual([
			{ fileId: upload.body.fileId, fileName: 'ref.pdf', fileType: 'application/pdf' },
		]);
		expect((await call(sandbox(), 'GET', `/api/v1/Session/${theirs.sessionId}`)).status).toBe(404);
		expect(
			(
				await call(sandbox(), 'GET', `/api/v1/Session/${theirs.sessionId}`, {
					token: sandbox().other.accessToken,
				})
			).status,
		).toBe(200);
	});

	it('uploaded files belong to the uploading organisation', async () => {
		const res = await call(sandbox(), 'POST', '/api/v1/File', {
			token: sandbox().other.accessToken,
			json: { fileName: 'x', data: 'JVBERi0=' },
		});
		expect(sandbox().files.get(res.body.fileId)!.orgId).toBe(sandbox().other.orgId);
	});

	it('unknown API paths → 404 NOT_FOUND; a wrong method on a known path → 405', async () => {
		expect((await call(sandbox(), 'GET', '/api/v2/Sessions')).body.code).toBe('NOT_FOUND');
		expect((await call(sandbox(), 'POST', '/api/v1/Sessions')).status).toBe(405);
	});
});
