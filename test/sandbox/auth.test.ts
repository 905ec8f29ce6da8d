import { beforeEach, describe, expect, it } from 'vitest';
import {
	blockDocument,
	createBody,
	expectError,
	limits,
	useApi,
	type ApiResponse,
} from './helpers';

const api = useApi({ now: '2025-06-16T14:00:00.000Z' });
const { sandbox, call, get, post, list, send, upload, createSession, fromTemplate } = api;

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

	it('tokens expire by the sandbox clock after tokenTtlSeconds → 401 (on every endpoint: below)', async () => {
		const token = await demoToken();
		sandbox().clock.advance(3600_000 - 1);
		expect((await list('', token)).status).toBe(200);
		sandbox().clock.advance(1);
		expect((await list('', token)).status).toBe(401);
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

describe('every endpoint: 401 without a valid token, 403 INSUFFICIENT_SCOPE without its scope', () => {
	const ann = { name: 'Ann', email: 'ann@example.com' };
	const SCOPES = ['write:sessions', 'write:files', 'write:templates'];
	const template = { name: 'T', document: blockDocument(['a']), recipients: [{ key: 'a' }] };
	let draft: string, pending: string, templateId: string;
	beforeEach(() => {
		draft = sandbox().createSession({ recipients: [ann] }).sessionId;
		pending = sandbox().createSession({ recipients: [ann], status: 'pending' }).sessionId;
		templateId = sandbox().createTemplate({
			status: 'active',
			recipients: [{ key: 'a', ...ann }],
		}).templateId;
	});
	/** What a refused request must leave as it was. */
	const state = (s = sandbox()) =>
		JSON.stringify([s.listAllSessions(), s.listAllTemplates(), [...s.files.keys()], s.outbox]);
	// Each endpoint, the scopes any one of which suffices (none: any valid token), its request.
	it.each<[string, string[], (token: string | null) => Promise<ApiResponse>]>([
		['List Sessions', [], (t) => list('', t)],
		['Get Session', [], (t) => get(`/Session/${draft}`, t)],
		['Send Session', ['write:sessions'], (t) => send(draft, t)],
		[
			'Send Invitation',
			['write:sessions'],
			(t) => post(`/Session/${pending}/SendInvitation`, {}, t),
		],
		['Upload File', ['write:files', 'write:sessions'], (t) => upload(undefined, t)],
		['Create Session', ['write:sessions'], (t) => createSession(createBody(), t)],
		['Create Session From Template', ['write:sessions'], (t) => fromTemplate({ templateId }, t)],
		['List Templates', [], (t) => get('/Templates', t)],
		['Get Template', [], (t) => get(`/Template/${templateId}`, t)],
		['Create Template', ['write:templates'], (t) => post('/Template', template, t)],
	])(
		'%s: none, a bogus or an expired token → 401; no %j → 403; with it → 200',
		async (_, needs, request) => {
			const before = state();
			const expired = sandbox().issueToken({ ttlSeconds: 1 });
			sandbox().clock.advance(1000);
			const denied = await request(null);
			expectError(denied, 401, 'UNAUTHORIZED');
			expect(denied.headers.get('www-authenticate')).toMatch(/^Bearer/);
			expect(limits(denied)).toMatchObject({ limit: null, remaining: null });
			for (const token of ['bogus', expired]) expect((await request(token)).status).toBe(401);
			const others = { scopes: SCOPES.filter((scope) => !needs.includes(scope)) };
			if (needs.length > 0)
				expectError(await request(sandbox().issueToken(others)), 403, 'INSUFFICIENT_SCOPE');
			expect(state()).toBe(before);
			for (const scopes of needs.length > 0 ? needs.map((scope) => [scope]) : [[]])
				expect((await request(sandbox().issueToken({ scopes }))).status).toBe(200);
		},
	);
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
