import type { IncomingMessage, ServerResponse } from 'node:http';
import { applyConfig, type SandboxContext } from './context';
import { ApiProblem, apiError, json, readBody, writeReply, type Reply } from './http';
import type { CreateTemplateInput, SignInput } from './publicTypes';
import { completeSession, signRecipient } from './sessions';
import type { SessionRecord } from './store';
import type { TemplateRecord } from './templateStore';
import type { CreateSessionInput, Fault, IssueTokenOptions, RecipientStatusInput } from './types';

const BODY_LIMIT_BYTES = 1024 * 1024;
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const OK = json(200, { ok: true });

/** What GET /_sandbox/state and the CLI show. */
export function describeState(ctx: SandboxContext) {
	return {
		baseUrl: ctx.baseUrl,
		demo: ctx.demo,
		other: ctx.other,
		config: { ...ctx.config },
		now: new Date(ctx.clock.now()).toISOString(),
		clockFrozen: ctx.clock.frozen,
		faults: ctx.faults.active,
	};
}

/** `/_sandbox/*`: test and demo controls. Never faulted, never logged, no auth, loopback callers only. */
export async function handleControlPlane(
	ctx: SandboxContext,
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
) {
	let reply: Reply;
	const raw = LOOPBACK.has(req.socket.remoteAddress ?? '')
		? await readBody(req, BODY_LIMIT_BYTES)
		: undefined;
	if (!raw) reply = apiError(403, 'FORBIDDEN', 'The control plane answers loopback callers only');
	else if (!raw.ok) reply = apiError(413, 'VALIDATION_ERROR', 'Body too large');
	else {
		try {
			const text = raw.body.toString('utf8').trim();
			const body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
			const path = url.pathname.slice('/_sandbox'.length);
			reply = controlRoute(ctx, req.method ?? 'GET', path, body);
		} catch (error) {
			if (error instanceof ApiProblem) reply = error.reply();
			else if (error instanceof SyntaxError)
				reply = apiError(400, 'INVALID_JSON', 'The request body is not valid JSON');
			else reply = apiError(400, 'VALIDATION_ERROR', (error as Error).message);
		}
	}
	writeReply(res, reply);
}

/**
 * The routes, by `METHOD /path` with `:id` for the id of a session, file, template or
 * organisation. Templates are created and activated here, as AirSign's editor would.
 */
function controlRoute(
	ctx: SandboxContext,
	method: string,
	path: string,
	body: Record<string, unknown>,
): Reply {
	const { store, templates } = ctx;
	const parts = path.split('/').filter(Boolean);
	const byId = parts.length >= 2 && ['sessions', 'files', 'templates', 'orgs'].includes(parts[0]);
	const rest = parts.slice(2).join('/');
	const key = byId ? `${method} /${parts[0]}/:id${rest ? `/${rest}` : ''}` : `${method} ${path}`;
	const id = byId ? decodeURIComponent(parts[1]) : '';
	const found = <T>(item: T | undefined, kind: string): T => {
		if (!item) throw new ApiProblem(404, 'NOT_FOUND', `No ${kind} ${id}`);
		return item;
	};
	const session = () => found(store.sessions.get(id.toLowerCase()), 'session');
	const template = () => found(templates.templates.get(id.toLowerCase()), 'template');

	const sessionJson = (record: SessionRecord) => json(200, store.snapshot(record));
	const templateJson = (record: TemplateRecord, status = 200) =>
		json(status, templates.snapshot(record));
	const routes: Record<string, () => Reply> = {
		'GET /state': () => json(200, describeState(ctx)),
		'POST /sessions': () =>
			json(201, store.snapshot(store.createSession(body as CreateSessionInput))),
		'GET /sessions/:id': () => sessionJson(session()),
		'PATCH /sessions/:id': () => sessionJson(store.updateSession(session().sessionId, body)),
		'POST /sessions/:id/recipient-status': () =>
			sessionJson(
				store.setRecipientStatus(session().sessionId, body as unknown as RecipientStatusInput),
			),
		'POST /sessions/:id/sign': () =>
			sessionJson(signRecipient(store, session(), body as SignInput)),
		'POST /sessions/:id/complete': () => sessionJson(completeSession(store, session())),
		'GET /outbox': () => json(200, store.outbox),
		'DELETE /outbox': () => ((store.outbox.length = 0), OK),
		'GET /files/:id': () => {
			const { fileName, bytes, orgId } = found(store.files.get(id), 'file');
			const data = bytes.toString('base64');
			return json(200, { fileName, sizeBytes: bytes.length, orgId, data });
		},
		'GET /templates': () =>
			json(
				200,
				[...templates.templates.values()].map((t) => templates.snapshot(t)),
			),
		'POST /templates': () => templateJson(templates.create(body as CreateTemplateInput), 201),
		'GET /templates/:id': () => templateJson(template()),
		'POST /templates/:id/activate': () => templateJson(templates.activate(template().templateId)),
		'GET /orgs/:id/plan': () => json(200, { orgId: id, features: ctx.orgs.features(id) }),
		'PUT /orgs/:id/plan': () => {
			if (!Array.isArray(body.features)) throw new Error('features must be an array');
			return json(200, { orgId: id, features: ctx.orgs.setFeatures(id, body.features) });
		},
		'GET /requests': () => json(200, ctx.requests),
		'DELETE /requests': () => ((ctx.requests.length = 0), OK),
		'POST /tokens': () => {
			const options = body as IssueTokenOptions;
			const orgId = options.orgId ?? ctx.demo.orgId;
			return json(200, { access_token: ctx.auth.issueToken({ ...options, orgId }) });
		},
		'POST /rate-limit/reset': () => {
			const orgId = typeof body.orgId === 'string' ? body.orgId : undefined;
			ctx.rateLimiter.reset(orgId);
			ctx.publicRateLimiter.reset(orgId);
			return OK;
		},
		'POST /faults': () => {
			ctx.faults.add(body as unknown as Fault);
			return json(201, { faults: ctx.faults.active });
		},
		'DELETE /faults': () => (ctx.faults.clear(), OK),
		'POST /clock': () => {
			if (body.frozen === true) ctx.clock.freeze();
			if (body.set !== undefined) ctx.clock.set(body.set as string | number);
			if (body.advanceMs !== undefined) ctx.clock.advance(Number(body.advanceMs));
			if (body.frozen === false) ctx.clock.unfreeze();
			return json(200, { now: new Date(ctx.clock.now()).toISOString(), frozen: ctx.clock.frozen });
		},
		'PATCH /config': () => {
			applyConfig(ctx.config, body);
			return json(200, { config: { ...ctx.config } });
		},
		'POST /reset': () => (ctx.reset(), OK),
	};
	const handle = Object.hasOwn(routes, key) ? routes[key] : undefined;
	return handle
		? handle()
		: apiError(404, 'NOT_FOUND', `No control-plane route ${method} /_sandbox${path}`);
}
