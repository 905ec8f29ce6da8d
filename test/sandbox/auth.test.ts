import { describe, expect, it } from 'vitest';
import { useApi } from './helpers';

const { sandbox, call, get, list, send, upload } = useApi({ now: '2025-06-16T14:00:00.000Z' });

const CLIENT_CREDENTIALS = 'grant_type=client_credentials';
/** POST /oidc/token with this form body, and HTTP Basic `id:secret` when given. */
const tokenRequest = (basic?: string, body = CLIENT_CREDENTIALS) =>
	call('POST', '/oidc/token', {
		token: null,
		body,
		headers: {
			'Content-Type': 'application/x-www-form-urlencoded',
			...(basic !== undefined && {
				Authorization: `Basic ${Buffer.from(basic).toString('base64')}`,
			}),
		},
	});
const demoSecret = () => `${sandbox().demo.clientId}:${sandbox().demo.clientSecret}`;
const demoToken = async () => (await tokenRequest(demoSecret())).body.access_token;

describe('token endpoint (docs/api.md#token-endpoint): POST /oidc/token, client credentials', () => {
	it('200 { access_token, expires_in: 3600, token_type: Bearer } for the right client id and secret', async () => {
		const res = await tokenRequest(demoSecret());
		expect(res.status).toBe(200);
		const { body } = res;
		expect(body).toMatchObject({
			access_token: expect.any(String),
			expires_in: 3600,
			token_type: 'Bearer',
		});
		expect(body.access_token.split('.')).toHaveLength(3);
		expect((await list('', body.access_token)).status).toBe(200);
	});

	it('a token from /oidc/token can upload and send (write:files, write:sessions)', async () => {
		const token = await demoToken();
		expect((await send(sandbox().createSession().sessionId, token)).status).toBe(200);
		expect((await upload(undefined, token)).status).toBe(200);
	});

	it.each([
		['wrong secret → 401 { error: invalid_client }', () => `${sandbox().demo.clientId}:wrong`],
		['unknown client → 401 invalid_client', () => 'nobody:x'],
		['no credentials → 401 invalid_client', () => undefined],
		['another grant type → 400 { error: unsupported_grant_type }', demoSecret, 'password'],
	])('%s', async (_title, basic, grant?: string) => {
		const res = await tokenRequest(
			basic(),
			grant ? `grant_type=${grant}&username=a&password=b` : undefined,
		);
		expect(res.status).toBe(grant ? 400 : 401);
		expect(res.body).toMatchObject({ error: grant ? 'unsupported_grant_type' : 'invalid_client' });
	});

	it('client_id and client_secret in the form body are accepted too', async () => {
		const { clientId, clientSecret } = sandbox().other;
		const body = `${CLIENT_CREDENTIALS}&client_id=${clientId}&client_secret=${clientSecret}`;
		expect((await tokenRequest(undefined, body)).status).toBe(200);
	});

	it('tokenTtlSeconds sets expires_in', async () => {
		sandbox().config.tokenTtlSeconds = 120;
		expect((await tokenRequest(demoSecret())).body.expires_in).toBe(120);
	});

	it('tokens expire by the sandbox clock after tokenTtlSeconds → 401 on every endpoint', async () => {
		const token = await demoToken();
		sandbox().clock.advance(3600_000 - 1);
		expect((await list('', token)).status).toBe(200);
		sandbox().clock.advance(1);
		expect((await list('', token)).status).toBe(401);
		expect((await send(sandbox().createSession().sessionId, token)).status).toBe(401);
		expect((await upload(undefined, token)).status).toBe(401);
	});

	it('issueToken({ ttlSeconds }) expires too; the ready demo token never does', async () => {
		const token = sandbox().issueToken({ ttlSeconds: 10 });
		sandbox().clock.advance(10_000);
		expect((await list('', token)).status).toBe(401);
		sandbox().clock.advance(365 * 24 * 3600_000);
		expect((await list()).status).toBe(200);
	});

	it('a GET to the token endpoint → 405', async () => {
		expect((await fetch(`${sandbox().baseUrl}/oidc/token`)).status).toBe(405);
	});
});

describe('authentication (docs/api.md#authentication)', () => {
	const withHeader = (Authorization: string) =>
		call('GET', '/api/v1/Sessions', { token: null, headers: { Authorization } });

	it('the header is Authorization: Bearer <token>; another scheme → 401', async () => {
		expect((await withHeader(sandbox().demo.accessToken)).status).toBe(401);
		expect((await withHeader(`Basic ${sandbox().demo.accessToken}`)).status).toBe(401);
	});

	it('the Bearer scheme name is case-insensitive', async () => {
		expect((await withHeader(`bearer ${sandbox().demo.accessToken}`)).status).toBe(200);
	});

	it('a token of a reset sandbox is no longer valid (issued tokens are revoked)', async () => {
		const token = sandbox().issueToken();
		sandbox().reset();
		expect((await list('', token)).status).toBe(401);
		expect((await list()).status).toBe(200);
	});
});

describe('org isolation', () => {
	it("Get Session: another organisation's session → 404; own → 200 with files", async () => {
		const { fileId } = (await upload({ fileName: 'ref', data: 'JVBERi0=' })).body;
		const mine = sandbox().createSession({ files: [fileId] });
		const theirs = sandbox().createSession({ orgId: sandbox().other.orgId });
		const res = await get(`/Session/${mine.sessionId}`);
		expect(res.status).toBe(200);
		expect(res.body.files).toEqual([{ fileId, fileName: 'ref.pdf', fileType: 'application/pdf' }]);
		expect((await get(`/Session/${theirs.sessionId}`)).status).toBe(404);
		expect((await get(`/Session/${theirs.sessionId}`, sandbox().other.accessToken)).status).toBe(
			200,
		);
	});

	it('uploaded files belong to the uploading organisation', async () => {
		const res = await upload(undefined, sandbox().other.accessToken);
		expect(sandbox().files.get(res.body.fileId)!.orgId).toBe(sandbox().other.orgId);
	});

	it('unknown API paths → 404 NOT_FOUND; a wrong method on a known path → 405', async () => {
		expect((await call('GET', '/api/v2/Sessions')).body.code).toBe('NOT_FOUND');
		expect((await call('POST', '/api/v1/Sessions')).status).toBe(405);
	});
});
