import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal } from './auth';
import { formatTimestamp } from './clock';
import type { Call, SandboxContext } from './context';
import { handleControlPlane } from './controlPlane';
import {
	bodyObject,
	createSession,
	createTemplate,
	getTemplate,
	listTemplates,
	sessionFromTemplate,
} from './creates';
import { faultReply, fuzzedReply, writeFuzzedReply } from './faults';
import {
	ApiProblem,
	apiError,
	drain,
	invalid,
	isJsonContentType,
	json,
	readBody,
	writeReply,
	UUID_PATTERN,
	type Reply,
} from './http';
import { getSession, listSessions, sendInvitation, sendSession } from './sessions';
import type { Fault, RequestLogEntry } from './types';

const TOKEN_BODY_LIMIT_BYTES = 64 * 1024;
const PUBLIC_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

/** Outcome of routing: the reply plus who asked, for the request log. */
type Handled = { reply: Reply; orgId?: string };

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
			if (res.headersSent) return void res.destroy();
			const message = (error as Error)?.message ?? String(error);
			writeReply(res, apiError(500, 'INTERNAL', `Sandbox error: ${message}`));
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
	const at = formatTimestamp(arrivedAt, 'ms');
	const log = (status: number, extra: Partial<RequestLogEntry> = {}) =>
		ctx.requests.push({ method, path, query, status, at, atMs: arrivedAt, ...extra });

	let dropAfter = false;
	let mangle: Fault | undefined;
	for (const fault of ctx.faults.take(method, path)) {
		if (fault.kind === 'dropAfter') dropAfter = true;
		else if (fault.kind === 'mangle') mangle = fault;
		else if (fault.kind === 'latency') await sleep(fault.delayMs ?? 0);
		else if (fault.kind === 'drop') {
			log(0, { fault: 'drop' });
			return void req.socket.destroy();
		} else {
			await drain(req);
			if (fault.kind === 'answer') {
				const fuzzed = fuzzedReply(fault);
				log(fuzzed.status, { fault: fault.kind });
				return writeFuzzedReply(res, fuzzed, fault.answer);
			}
			const reply = faultReply(ctx, fault, isPublicApiPath(path));
			log(reply.status, { fault: fault.kind });
			return writeReply(res, reply);
		}
	}

	for (const hook of [...ctx.hooks]) await hook({ method, path, query: { ...query } });

	const api = path.startsWith('/api/v1/');
	const burst = api ? ctx.burstLimiter.refuse() : undefined;
	if (burst) {
		await drain(req);
		log(429);
		writeReply(res, apiError(429, 'RATE_LIMITED', 'Too many requests at once', { headers: burst }));
		return;
	}

	const { reply, orgId } = await routeRequest(ctx, req, method, url);
	if (!req.readableEnded) await drain(req);
	const who = orgId === undefined ? {} : { orgId };
	if (dropAfter) {
		// Handled (a session may now exist), but the answer never reaches the client.
		log(0, { ...who, fault: 'dropAfter' });
		return void req.socket.destroy();
	}
	// Stamped again when answering: hooks may have moved the clock while the request was handled.
	res.setHeader('Date', new Date(ctx.clock.now()).toUTCString());
	if (mangle) {
		// Handled (its effects happened); the answer is edited on its way out.
		const fuzzed = fuzzedReply(mangle, reply);
		log(fuzzed.status, { ...who, fault: 'mangle' });
		return writeFuzzedReply(res, fuzzed, mangle.answer);
	}
	log(reply.status, who);
	writeReply(res, {
		...reply,
		headers: api ? ctx.burstLimiter.stated(reply.headers) : reply.headers,
	});
}

interface Route {
	method: string;
	pattern: RegExp;
	/** Needed scopes (any of them); none: any valid token. */
	scopes?: string[];
	/** The hourly budget counted (docs/api.md#rate-limits); public endpoints read a JSON body. */
	budget?: 'list' | 'public';
	handle(call: Call): Reply | Promise<Reply>;
}

/** `METHOD /Path/:id` under /api/v1; `:id` must be a UUID, or the answer is 404. */
const route = (spec: string, handle: Route['handle'], more: Partial<Route> = {}): Route => {
	const [method, path] = spec.split(' ');
	const pattern = new RegExp(`^/api/v1${path.replace(':id', '([^/]+)')}$`);
	return { method, pattern, handle, ...more };
};
const SESSIONS = { scopes: ['write:sessions'] };
const PUBLIC = { budget: 'public' } as const;

const ROUTES: Route[] = [
	route('POST /File', uploadFile, { scopes: ['write:files', 'write:sessions'] }),
	route('GET /Sessions', listSessions, { budget: 'list' }),
	route('POST /Session/:id/Send', sendSession, SESSIONS),
	route('POST /Session', createSession, { ...SESSIONS, ...PUBLIC }),
	route('POST /SessionFromTemplate', sessionFromTemplate, { ...SESSIONS, ...PUBLIC }),
	route('GET /Session/:id', getSession, PUBLIC),
	route('POST /Session/:id/SendInvitation', sendInvitation, { ...SESSIONS, ...PUBLIC }),
	route('GET /Templates', listTemplates, PUBLIC),
	route('GET /Template/:id', getTemplate, PUBLIC),
	route('POST /Template', createTemplate, { scopes: ['write:templates'], ...PUBLIC }),
];

/** Every path whose endpoints share the public budget (for faults that fake a 429 there). */
function isPublicApiPath(path: string): boolean {
	return ROUTES.some((route) => route.budget === 'public' && route.pattern.test(path));
}

const methodNotAllowed = (allowed: string, path: string): Handled => ({
	reply: apiError(405, 'METHOD_NOT_ALLOWED', `Use ${allowed} ${path}`, {
		headers: { Allow: allowed },
	}),
});

/**
 * Order: token (401, first, so it never depends on the body), budget (429; a 429 is not counted),
 * scope (403), the endpoint. Every answer after the token carries the budget's headers.
 */
async function routeRequest(
	ctx: SandboxContext,
	req: IncomingMessage,
	method: string,
	url: URL,
): Promise<Handled> {
	const path = url.pathname;
	if (path === '/oidc/token')
		return method === 'POST' ? tokenRequest(ctx, req) : methodNotAllowed('POST', path);
	const candidates = ROUTES.filter((r) => r.pattern.test(path));
	if (candidates.length === 0) {
		const page = method === 'GET' ? editorPage(ctx, path) : null;
		return { reply: page ?? apiError(404, 'NOT_FOUND', `No route ${method} ${path}`) };
	}
	const found = candidates.find((r) => r.method === method);
	if (!found) return methodNotAllowed(candidates.map((r) => r.method).join(', '), path);

	const principal = ctx.auth.authenticate(req.headers.authorization);
	const headers = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };
	const message = 'Missing, invalid or expired access token';
	if (!principal) return { reply: apiError(401, 'UNAUTHORIZED', message, { headers }) };
	const limiter =
		found.budget && ctx[found.budget === 'list' ? 'rateLimiter' : 'publicRateLimiter'];
	const budget = limiter?.take(principal.orgId);
	const what = found.budget === 'list' ? 'List Sessions rate limit' : 'Rate limit';
	const reply =
		budget && !budget.allowed
			? apiError(429, 'RATE_LIMITED', `${what} exceeded`, { headers: budget.headers })
			: await endpoint(ctx, req, url, found, principal);
	return {
		reply: { ...reply, headers: { ...reply.headers, ...budget?.headers } },
		orgId: principal.orgId,
	};
}

async function endpoint(
	ctx: SandboxContext,
	req: IncomingMessage,
	url: URL,
	route: Route,
	principal: Principal,
): Promise<Reply> {
	const { scopes } = route;
	if (scopes && !scopes.some((scope) => principal.scopes.includes(scope))) {
		const challenge = `Bearer error="insufficient_scope", scope="${scopes.join(' ')}"`;
		const message = `The access token needs the scope ${scopes.join(' or ')}`;
		const headers = { 'WWW-Authenticate': challenge };
		return apiError(403, 'INSUFFICIENT_SCOPE', message, { headers });
	}
	let body: Buffer = Buffer.alloc(0);
	if (route.budget === 'public') {
		const raw = await readBody(req, PUBLIC_BODY_LIMIT_BYTES);
		if (!raw.ok) return apiError(413, 'BODY_TOO_LARGE', 'The request body is too large');
		if (raw.body.length > 0 && !isJsonContentType(req.headers['content-type']))
			return apiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
		body = raw.body;
	}
	const id = route.pattern.exec(url.pathname)![1];
	const call: Call = { ctx, orgId: principal.orgId, id, body, params: url.searchParams, req };
	try {
		if (id !== undefined && !UUID_PATTERN.test(id)) {
			const kind = url.pathname.split('/')[3].toLowerCase(); // session or template
			throw new ApiProblem(404, 'NOT_FOUND', `No ${kind} ${id}`);
		}
		return await route.handle(call);
	} catch (error) {
		if (error instanceof ApiProblem) return error.reply();
		throw error;
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
	const token = result.body.access_token;
	const orgId = token ? ctx.auth.authenticate(`Bearer ${String(token)}`)?.orgId : undefined;
	return { reply: json(result.status, result.body, headers), orgId };
}

const EDITOR_PAGE = /^\/app\/(sessions|templates)\/([^/]+)\/edit$/;

/** What a draftUrl or editorUrl opens (AirSign's editor): a short read-only page, no auth. */
function editorPage(ctx: SandboxContext, path: string): Reply | null {
	const match = EDITOR_PAGE.exec(path);
	if (!match) return null;
	const [, kind, id] = match;
	const sessions = kind === 'sessions';
	const item = (sessions ? ctx.store.sessions : ctx.templates.templates).get(id.toLowerCase());
	const escape = (text: string) =>
		text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
	const body = item
		? `<h1>${escape(item.name)}</h1><p>${sessions ? 'Session' : 'Template'} ${escape(id)}, status ${escape(item.status)}.</p><p>The AirSign sandbox has no editor: in AirSign this page is where the ${sessions ? 'draft' : 'template'} is reviewed before it is sent or activated.</p>`
		: `<h1>Not found</h1><p>No ${kind.slice(0, -1)} ${escape(id)} in the sandbox.</p>`;
	return {
		status: item ? 200 : 404,
		rawBody: `<!doctype html><meta charset="utf-8"><title>AirSign sandbox</title>${body}`,
		headers: { 'Content-Type': 'text/html; charset=utf-8' },
	};
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Standard alphabet only, padding only at the end; the length is checked apart (a regex over 9 MB of groups is slow). */
const BASE64_ALPHABET = /^[A-Za-z0-9+/]*={0,2}$/;
const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');
const MAX_FILE_NAME_CHARS = 255;

/** docs/api.md#upload-file: 415, a body too large for a legal upload (413), fields, the file. */
export async function uploadFile({ ctx, orgId, req }: Call): Promise<Reply> {
	const { maxFileBytes } = ctx.config;
	if (!isJsonContentType(req.headers['content-type']))
		throw new ApiProblem(415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
	const raw = await readBody(req, Math.ceil((maxFileBytes * 4) / 3) + 64 * 1024);
	if (!raw.ok) {
		const message = `The request is larger than a ${maxFileBytes}-byte file can be`;
		throw new ApiProblem(413, 'FILE_TOO_LARGE', message);
	}
	const { fileName, data } = bodyObject(raw.body, true);
	if (typeof fileName !== 'string' || fileName.trim() === '')
		throw invalid('fileName', 'fileName is required and must be a non-empty string');
	if ([...fileName].length > MAX_FILE_NAME_CHARS)
		throw invalid('fileName', `fileName must be at most ${MAX_FILE_NAME_CHARS} characters`);
	if (typeof data !== 'string')
		throw invalid('data', 'data is required and must be a base64 string');
	if (data.length % 4 !== 0 || !BASE64_ALPHABET.test(data)) {
		const message =
			'data must be standard base64 (A-Z a-z 0-9 + /, = padding) without a data: URI prefix';
		throw new ApiProblem(400, 'INVALID_BASE64', message);
	}
	const bytes = Buffer.from(data, 'base64');
	if (!bytes.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC)) {
		const message = 'Only PDF files are accepted (the content does not start with %PDF-)';
		throw new ApiProblem(400, 'INVALID_FILE_TYPE', message);
	}
	if (bytes.length > maxFileBytes) {
		const message = `The decoded file is larger than ${maxFileBytes} bytes`;
		throw new ApiProblem(413, 'FILE_TOO_LARGE', message);
	}
	const storedName = /\.pdf$/i.test(fileName) ? fileName : `${fileName}.pdf`;
	const fileId = randomUUID();
	ctx.store.files.set(fileId, { fileName: storedName, bytes, orgId });
	return json(200, {
		fileId,
		fileName: storedName,
		fileType: 'application/pdf',
		sizeBytes: bytes.length,
	});
}
