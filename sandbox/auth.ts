import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { SandboxClock } from './clock';
import type { IssueTokenOptions, OrgCredentials, SandboxConfig } from './types';

const DEFAULT_SCOPES = ['write:sessions', 'write:files'];
/** What a registered client may be granted through /oidc/token. */
const CLIENT_SCOPES = ['write:sessions', 'write:files', 'write:templates'];

export interface Principal {
	orgId: string;
	scopes: string[];
}

interface TokenRecord extends Principal {
	/** null: never expires (the ready demo tokens). */
	expiresAt: number | null;
}

type Client = Omit<OrgCredentials, 'accessToken'>;
type TokenEndpointResult = { status: number; body: Record<string, unknown> };
const oauthError = (status: number, error: string, description: string): TokenEndpointResult => ({
	status,
	body: { error, error_description: description },
});

/** Bearer tokens shaped as JWTs, valid while in this registry (reset() revokes) and unexpired. */
export class Auth {
	private readonly tokens = new Map<string, TokenRecord>();
	private readonly clients = new Map<string, Client>();
	private readonly signingKey = randomBytes(32);
	/** Tokens that survive reset(): the ready demo tokens are part of the start state. */
	private readonly permanent = new Set<string>();

	constructor(
		private readonly clock: Pick<SandboxClock, 'now'>,
		private readonly config: SandboxConfig,
	) {}

	registerClient(client: Client): void {
		this.clients.set(client.clientId, client);
	}

	issuePermanentToken(orgId: string): string {
		const token = this.issueToken({ orgId, ttlSeconds: null });
		this.permanent.add(token);
		return token;
	}

	issueToken(options: IssueTokenOptions & { orgId: string; clientId?: string }): string {
		const { scopes: given = DEFAULT_SCOPES } = options;
		const scopes = typeof given === 'string' ? given.split(/\s+/).filter(Boolean) : [...given];
		const ttl = options.ttlSeconds === undefined ? this.config.tokenTtlSeconds : options.ttlSeconds;
		const issuedAt = this.clock.now();
		const expiresAt = ttl !== null && Number.isFinite(ttl) ? issuedAt + ttl * 1000 : null;
		const token = this.signJwt({
			sub: options.clientId ?? `sandbox:${options.orgId}`,
			org: options.orgId,
			scope: scopes.join(' '),
			iat: Math.floor(issuedAt / 1000),
			...(expiresAt === null ? {} : { exp: Math.floor(expiresAt / 1000) }),
			jti: randomUUID(),
		});
		this.tokens.set(token, { orgId: options.orgId, scopes, expiresAt });
		return token;
	}

	/** The caller behind an Authorization header, or null for missing, unknown or expired tokens. */
	authenticate(authorization: string | undefined): Principal | null {
		const match = /^Bearer +(\S+)\s*$/i.exec(authorization ?? '');
		if (!match) return null;
		const record = this.tokens.get(match[1]);
		if (!record) return null;
		if (record.expiresAt !== null && this.clock.now() >= record.expiresAt) return null;
		return { orgId: record.orgId, scopes: record.scopes };
	}

	revokeIssuedTokens(): void {
		for (const token of this.tokens.keys())
			if (!this.permanent.has(token)) this.tokens.delete(token);
	}

	/** OAuth 2.0 client-credentials grant, answers shaped as RFC 6749 section 5. */
	tokenEndpoint(authorization: string | undefined, form: URLSearchParams): TokenEndpointResult {
		const credentials = readClientCredentials(authorization, form);
		const client = credentials && this.clients.get(credentials.clientId);
		if (!client || client.clientSecret !== credentials?.clientSecret)
			return oauthError(401, 'invalid_client', 'Unknown client or wrong secret');
		const grantType = form.get('grant_type');
		if (!grantType) return oauthError(400, 'invalid_request', 'grant_type is required');
		if (grantType !== 'client_credentials')
			return oauthError(400, 'unsupported_grant_type', 'Only client_credentials');
		const requested = (form.get('scope') ?? '').split(/\s+/).filter(Boolean);
		if (requested.some((scope) => !CLIENT_SCOPES.includes(scope)))
			return oauthError(400, 'invalid_scope', 'Scope not allowed for this client');
		const scopes = requested.length > 0 ? requested : CLIENT_SCOPES;
		const accessToken = this.issueToken({ orgId: client.orgId, clientId: client.clientId, scopes });
		return {
			status: 200,
			body: {
				access_token: accessToken,
				expires_in: this.config.tokenTtlSeconds,
				token_type: 'Bearer',
				scope: scopes.join(' '),
			},
		};
	}

	private signJwt(payload: Record<string, unknown>): string {
		const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
		const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}`;
		const signature = createHmac('sha256', this.signingKey).update(unsigned).digest('base64url');
		return `${unsigned}.${signature}`;
	}
}

/** HTTP Basic (what the real service documents) or, as OAuth allows, the form body. */
function readClientCredentials(
	authorization: string | undefined,
	form: URLSearchParams,
): { clientId: string; clientSecret: string } | null {
	const basic = /^Basic +(\S+)\s*$/i.exec(authorization ?? '');
	if (basic) {
		const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
		const colon = decoded.indexOf(':');
		if (colon < 0) return null;
		// RFC 6749 2.3.1: id and secret are form-urlencoded before Basic encoding.
		const unescape = (text: string) => {
			try {
				return decodeURIComponent(text.replace(/\+/g, ' '));
			} catch {
				return text;
			}
		};
		return {
			clientId: unescape(decoded.slice(0, colon)),
			clientSecret: unescape(decoded.slice(colon + 1)),
		};
	}
	const clientId = form.get('client_id');
	const clientSecret = form.get('client_secret');
	return clientId !== null && clientSecret !== null ? { clientId, clientSecret } : null;
}
