import type { IncomingMessage, ServerResponse } from 'node:http';
import { hasAnyScope, type Principal } from './auth';
import { editorPage } from './editorPages';
import { authenticated, insufficientScope, type Handled } from './guard';
import { isPublicApiPath, routePublicApi } from './publicApi';
import { formatTimestamp } from './clock';
import type { SandboxContext } from './context';
import { handleControlPlane } from './controlPlane';
import {
	apiError,
	drain,
	isJsonContentType,
	json,
	readBody,
	writeReply,
	UUID_PATTERN,
	type Reply,
} from './http';
import { listSessions, parseListQuery, QueryError } from './listSessions';
import { rateLimitHeaders } from './rateLimit';
import { sessionListItem } from './responses';
import { sendSession } from './sendSession';
import { maxUploadBodyBytes, uploadFile } from './uploadFile';
import { fuzzedReply, writeFuzzedReply } from './fuzzAnswers';
import type { Fault, RequestLogEntry } from './types';

const TOKEN_BODY_LIMIT_BYTES = 64 * 1024;
const SEND_PATH = /^\/api\/v1\/Session\/([^/]+)\/Send$/;

export function createRequestListener(ctx: SandboxContext) {
	return (req: IncomingMessage, res: ServerResponse): void => {
		const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
		// The server's clock is the sandbox clock: Node would otherwise stamp Date from the real one.
		res.setHeader('Date', new Date(ctx.clock.now()).toUTCString());
		const handling =
			url.pathname === '/_sandbox' || url.pathname.startsWith('/_sandbox/')
				? handleControlPlane(ctx, req, res, url)
				: handleApiRequest(ctx, req, res, url);
		handling.catch((error: unknown) => {
			if (res.headersSent) {
				res.destroy();
				return;
			}
			writeReply(
				res,
				apiError(500, 'INTERNAL', `Sandbox error: ${(error as Error)?.message ?? String(error)}`),
			);
		});
	};
}

async function handleApiRequest(
	ctx: SandboxContext,
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
) {
	const method = req.method ?? 'GET';
	const path = url.pathname;
	const query = Object.fromEntries(url.searchParams);
	const arrivedAt = ctx.clock.now();
	const log = (status: number, extra: Partial<RequestLogEntry> = {}) =>
		ctx.requests.push({
			method,
			path,
			query,
			status,
			at: formatTimestamp(arrivedAt, 'ms'),
			atMs: arrivedAt,
			...extra,
		});

	let dropAfter = false;
	let mangle: Fault | undefined;
	for (const fault of ctx.faults.take(method, path)) {
		if (fault.kind === 'dropAfter') {
			dropAfter = true;
			continue;
		}
		if (fault.kind === 'mangle') {
			mangle = fault;
			continue;
		}
		if (fault.kind === 'latency') {
			await sleep(fault.delayMs ?? 0);
			continue;
		}
		if (fault.kind === 'drop') {
			log(0, { fault: 'drop' });
			req.socket.destroy();
			return;
		}
		await drain(req);
		if (fault.kind === 'answer') {
			const fuzzed = fuzzedReply(fault);
			log(fuzzed.status, { fault: fault.kind });
			writeFuzzedReply(res, fuzzed, fault.answer);
			return;
		}
		const reply = faultReply(ctx, fault, path);
		log(reply.status, { fault: fault.kind });
		writeReply(res, reply);
		return;
	}

	for (const hook of [...ctx.hooks]) await hook({ method, path, query: { ...query } });

	const burst = path.startsWith('/api/v1/') ? ctx.burstLimiter.refuse() : undefined;
	if (burst) {
		await drain(req);
		log(429);
		writeReply(res, apiError(429, 'RATE_LIMITED', 'Too many requests at once', { headers: burst }));
		return;
	}

	const { reply, orgId } = await route(ctx, req, method, url);
	if (!req.readableEnded) await drain(req);
	if (dropAfter) {
		// Handled (a session may now exist), but the answer never reaches the client.
		log(0, { ...(orgId !== undefined && { orgId }), fault: 'dropAfter' });
		req.socket.destroy();
		return;
	}
	// Stamped again when answering: hooks may have moved the clock while the request was handled.
	res.setHeader('Date', new Date(ctx.clock.now()).toUTCString());
	if (mangle) {
		// Handled (its effects happened); the answer is edited on its way out.
		const fuzzed = fuzzedReply(mangle, reply);
		log(fuzzed.status, { ...(orgId !== undefined && { orgId }), fault: 'mangle' });
		writeFuzzedReply(res, fuzzed, mangle.answer);
		return;
	}
	log(reply.status, orgId === undefined ? {} : { orgId });
	const headers = path.startsWith('/api/v1/')
		? ctx.burstLimiter.stated(reply.headers)
		: reply.headers;
	writeReply(res, { ...reply, headers });
}

function faultReply(ctx: SandboxContext, fault: Fault, path: string): Reply {
	switch (fault.kind) {
		case 'malformed':
			return { status: 200, rawBody: '{"sessions": [{"sessionId": "<html>Bad Gateway' };
		case 'rateLimit': {
			const retryAfter = fault.retryAfter ?? 1;
			const limit = isPublicApiPath(path)
				? ctx.config.publicRateLimitPerHour
				: ctx.config.rateLimitPerHour;
			return apiError(429, 'RATE_LIMITED', 'Rate limit exceeded (injected fault)', {
				headers: {
					...rateLimitHeaders(limit, 0, ctx.clock.now() + retryAfter * 1000),
					'Retry-After': String(retryAfter),
				},
			});
		}
		default: {
			const status = fault.status ?? 500;
			const message = fault.message ?? 'Injected fault';
			// AirSign's docs do not show the error body: a status may come with no code at all.
			if (fault.code === null) return { status, body: { message } };
			return apiError(status, fault.code ?? 'INTERNAL', message);
		}
	}
}

async function route(
	ctx: SandboxContext,
	req: IncomingMessage,
	method: string,
	url: URL,
): Promise<Handled> {
	const path = url.pathname;
	const allow = (allowed: string): Handled | null =>
		method === allowed
			? null
			: {
					reply: apiError(405, 'METHOD_NOT_ALLOWED', `Use ${allowed} ${path}`, {
						headers: { Allow: allowed },
					}),
				};

	if (path === '/oidc/token') return allow('POST') ?? (await tokenRequest(ctx, req));
	if (path === '/api/v1/File')
		return allow('POST') ?? (await authenticated(ctx, req, (p) => upload(ctx, req, p)));
	if (path === '/api/v1/Sessions')
		return allow('GET') ?? (await authenticated(ctx, req, (p) => list(ctx, p, url)));

	const send = SEND_PATH.exec(path);
	if (send) {
		return (
			allow('POST') ??
			(await authenticated(ctx, req, (principal) => {
				if (!hasAnyScope(principal, ['write:sessions'])) return insufficientScope('write:sessions');
				if (!UUID_PATTERN.test(send[1])) return apiError(404, 'NOT_FOUND', `No session ${send[1]}`);
				return sendSession(ctx, principal.orgId, send[1]);
			}))
		);
	}
	const page = method === 'GET' ? editorPage(ctx, path) : null;
	if (page) return { reply: page };
	const publicApi = await routePublicApi(ctx, req, method, url);
	if (publicApi) return publicApi;
	return { reply: apiError(404, 'NOT_FOUND', `No route ${method} ${path}`) };
}

async function upload(
	ctx: SandboxContext,
	req: IncomingMessage,
	principal: Principal,
): Promise<Reply> {
	if (!hasAnyScope(principal, ['write:files', 'write:sessions']))
		return insufficientScope('write:files', 'write:sessions');
	if (!isJsonContentType(req.headers['content-type'])) {
		return apiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
	}
	const body = await readBody(req, maxUploadBodyBytes(ctx.config.maxFileBytes));
	if (!body.ok) {
		return apiError(
			413,
			'FILE_TOO_LARGE',
			`The request is larger than a ${ctx.config.maxFileBytes}-byte file can be`,
		);
	}
	return uploadFile(ctx, principal.orgId, body.body);
}

function list(ctx: SandboxContext, principal: Principal, url: URL): Reply {
	const budget = ctx.rateLimiter.take(principal.orgId);
	if (!budget.allowed) {
		return apiError(429, 'RATE_LIMITED', 'List Sessions rate limit exceeded', {
			headers: budget.headers,
		});
	}
	try {
		const query = parseListQuery(url.searchParams);
		const { page, pagination } = listSessions(
			ctx.store.sessionsOfOrg(principal.orgId),
			query,
			ctx.config,
			ctx.tieRandom,
		);
		return json(
			200,
			{ sessions: page.map((s) => sessionListItem(ctx.store, s)), pagination },
			budget.headers,
		);
	} catch (error) {
		if (!(error instanceof QueryError)) throw error;
		return apiError(400, 'VALIDATION_ERROR', error.message, {
			field: error.field,
			headers: budget.headers,
		});
	}
}

async function tokenRequest(ctx: SandboxContext, req: IncomingMessage): Promise<Handled> {
	const body = await readBody(req, TOKEN_BODY_LIMIT_BYTES);
	if (!body.ok)
		return { reply: json(413, { error: 'invalid_request', error_description: 'Body too large' }) };
	const result = ctx.auth.tokenEndpoint(
		req.headers.authorization,
		new URLSearchParams(body.body.toString('utf8')),
	);
	const headers: Record<string, string> = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
	if (result.status === 401) headers['WWW-Authenticate'] = 'Basic realm="airsign-sandbox"';
	const orgId =
		result.status === 200
			? ctx.auth.authenticate(`Bearer ${String(result.body.access_token)}`)?.orgId
			: undefined;
	return { reply: json(result.status, result.body, headers), orgId };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
