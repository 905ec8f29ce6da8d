import type { IncomingMessage } from 'node:http';
import type { Principal } from './auth';
import type { SandboxContext } from './context';
import { apiError, type Reply } from './http';

/** Outcome of routing: the reply plus who asked, for the request log. */
export interface Handled {
	reply: Reply;
	orgId?: string;
}

/** The token is checked before anything else, so a 401 never depends on the body or the query. */
export async function authenticated(
	ctx: SandboxContext,
	req: IncomingMessage,
	handler: (principal: Principal) => Reply | Promise<Reply>,
): Promise<Handled> {
	const principal = ctx.auth.authenticate(req.headers.authorization);
	if (!principal) {
		return {
			reply: apiError(401, 'UNAUTHORIZED', 'Missing, invalid or expired access token', {
				headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
			}),
		};
	}
	return { reply: await handler(principal), orgId: principal.orgId };
}

export function insufficientScope(...scopes: string[]): Reply {
	return apiError(
		403,
		'INSUFFICIENT_SCOPE',
		`The access token needs the scope ${scopes.join(' or ')}`,
		{
			headers: {
				'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scopes.join(' ')}"`,
			},
		},
	);
}
