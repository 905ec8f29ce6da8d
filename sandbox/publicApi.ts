import type { IncomingMessage } from 'node:http';
import { hasAnyScope, type Principal } from './auth';
import type { SandboxContext } from './context';
import { createSession } from './createSession';
import { authenticated, insufficientScope, type Handled } from './guard';
import {
	ApiProblem,
	apiError,
	isJsonContentType,
	json,
	readBody,
	type Reply,
	UUID_PATTERN,
} from './http';
import { sessionDetail } from './responses';
import { sendInvitation } from './sendInvitation';
import { sessionFromTemplate } from './sessionFromTemplate';
import { createTemplate, listTemplates } from './templateApi';

const BODY_LIMIT_BYTES = 8 * 1024 * 1024;

interface Route {
	method: 'GET' | 'POST';
	pattern: RegExp;
	/** Needed scopes (any of them); none: any valid token. */
	scopes?: string[];
	handle(
		ctx: SandboxContext,
		principal: Principal,
		match: RegExpExecArray,
		request: Request,
	): Reply;
}

interface Request {
	url: URL;
	body: Buffer;
}

const byId = (kind: string, id: string) => {
	if (!UUID_PATTERN.test(id)) throw new ApiProblem(404, 'NOT_FOUND', `No ${kind} ${id}`);
	return id;
};

/** The public API's endpoints, all under one budget (docs/api.md#rate-limits). */
const ROUTES: Route[] = [
	{
		method: 'POST',
		pattern: /^\/api\/v1\/Session$/,
		scopes: ['write:sessions'],
		handle: (ctx, p, _m, r) => createSession(ctx, p.orgId, r.body),
	},
	{
		method: 'POST',
		pattern: /^\/api\/v1\/SessionFromTemplate$/,
		scopes: ['write:sessions'],
		handle: (ctx, p, _m, r) => sessionFromTemplate(ctx, p.orgId, r.body),
	},
	{
		method: 'GET',
		pattern: /^\/api\/v1\/Session\/([^/]+)$/,
		handle: (ctx, p, m) => {
			const session = ctx.store.findForOrg(byId('session', m[1]), p.orgId);
			if (!session) throw new ApiProblem(404, 'NOT_FOUND', `No session ${m[1]}`);
			return json(200, sessionDetail(ctx.store, session));
		},
	},
	{
		method: 'POST',
		pattern: /^\/api\/v1\/Session\/([^/]+)\/SendInvitation$/,
		scopes: ['write:sessions'],
		handle: (ctx, p, m, r) => sendInvitation(ctx, p.orgId, byId('session', m[1]), r.body),
	},
	{
		method: 'GET',
		pattern: /^\/api\/v1\/Templates$/,
		handle: (ctx, p, _m, r) => listTemplates(ctx, p.orgId, r.url.searchParams),
	},
	{
		method: 'GET',
		pattern: /^\/api\/v1\/Template\/([^/]+)$/,
		handle: (ctx, p, m) => {
			const template = ctx.templates.findForOrg(byId('template', m[1]), p.orgId);
			if (!template) throw new ApiProblem(404, 'NOT_FOUND', `No template ${m[1]}`);
			return json(200, ctx.templates.detail(template));
		},
	},
	{
		method: 'POST',
		pattern: /^\/api\/v1\/Template$/,
		scopes: ['write:templates'],
		handle: (ctx, p, _m, r) => createTemplate(ctx, p.orgId, r.body),
	},
];

/** Every path whose endpoints share the public budget (for faults that fake a 429 there). */
export function isPublicApiPath(path: string): boolean {
	return ROUTES.some((route) => route.pattern.test(path));
}

/**
 * Answers a request to one of the public API's endpoints, or null for any other path. Order:
 * token (401), budget (429; every authenticated request counts, a 429 does not), scope (403),
 * then the endpoint. Every answer after the token carries the budget's headers.
 */
export async function routePublicApi(
	ctx: SandboxContext,
	req: IncomingMessage,
	method: string,
	url: URL,
): Promise<Handled | null> {
	const candidates = ROUTES.filter((route) => route.pattern.test(url.pathname));
	if (candidates.length === 0) return null;
	const route = candidates.find((r) => r.method === method);
	if (!route) {
		const allowed = candidates.map((r) => r.method).join(', ');
		return {
			reply: apiError(405, 'METHOD_NOT_ALLOWED', `Use ${allowed} ${url.pathname}`, {
				headers: { Allow: allowed },
			}),
		};
	}
	const match = route.pattern.exec(url.pathname)!;
	return await authenticated(ctx, req, async (principal) => {
		const budget = ctx.publicRateLimiter.take(principal.orgId);
		if (!budget.allowed)
			return apiError(429, 'RATE_LIMITED', 'Rate limit exceeded', { headers: budget.headers });
		const reply = await answer(ctx, req, route, principal, match, url);
		return { ...reply, headers: { ...reply.headers, ...budget.headers } };
	});
}

async function answer(
	ctx: SandboxContext,
	req: IncomingMessage,
	route: Route,
	principal: Principal,
	match: RegExpExecArray,
	url: URL,
): Promise<Reply> {
	if (route.scopes && !hasAnyScope(principal, route.scopes))
		return insufficientScope(...route.scopes);
	const raw = await readBody(req, BODY_LIMIT_BYTES);
	if (!raw.ok) return apiError(413, 'BODY_TOO_LARGE', 'The request body is too large');
	if (raw.body.length > 0 && !isJsonContentType(req.headers['content-type']))
		return apiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
	try {
		return route.handle(ctx, principal, match, { url, body: raw.body });
	} catch (error) {
		if (error instanceof ApiProblem) return error.reply();
		throw error;
	}
}
