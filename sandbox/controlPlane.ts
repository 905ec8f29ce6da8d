import type { IncomingMessage, ServerResponse } from 'node:http';
import { applyConfig } from './config';
import type { SandboxContext } from './context';
import { apiError, json, readBody, writeReply, type Reply } from './http';
import { publicControlRoute } from './publicControlPlane';
import type {
	CreateSessionInput,
	Fault,
	IssueTokenOptions,
	RecipientStatusInput,
	UpdateSessionPatch,
} from './types';

const BODY_LIMIT_BYTES = 1024 * 1024;
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

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
	if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) {
		reply = apiError(403, 'FORBIDDEN', 'The control plane answers loopback callers only');
	} else {
		const raw = await readBody(req, BODY_LIMIT_BYTES);
		let body: Record<string, unknown> = {};
		if (!raw.ok) {
			reply = apiError(413, 'VALIDATION_ERROR', 'Body too large');
		} else {
			try {
				const text = raw.body.toString('utf8').trim();
				body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
				reply = controlRoute(
					ctx,
					req.method ?? 'GET',
					url.pathname.slice('/_sandbox'.length),
					body,
				);
			} catch (error) {
				reply =
					error instanceof SyntaxError
						? apiError(400, 'INVALID_JSON', 'The request body is not valid JSON')
						: apiError(400, 'VALIDATION_ERROR', (error as Error).message);
			}
		}
	}
	writeReply(res, reply);
}

function controlRoute(
	ctx: SandboxContext,
	method: string,
	path: string,
	body: Record<string, unknown>,
): Reply {
	const { store } = ctx;
	const parts = path.split('/').filter(Boolean);
	const kinds = ['sessions', 'files', 'templates', 'orgs'];
	const byId = parts.length >= 2 && kinds.includes(parts[0]);
	const rest = parts.slice(2).join('/');
	const key = byId ? `${method} /${parts[0]}/:id${rest ? `/${rest}` : ''}` : `${method} ${path}`;
	const id = byId ? decodeURIComponent(parts[1]) : '';
	const progress = publicControlRoute(ctx, key, id, body);
	if (progress) return progress;

	switch (key) {
		case 'GET /state':
			return json(200, describeState(ctx));
		case 'POST /sessions':
			return json(201, store.snapshot(store.createSession(body as CreateSessionInput)));
		case 'GET /sessions/:id': {
			const session = store.sessions.get(id.toLowerCase());
			return session
				? json(200, store.snapshot(session))
				: apiError(404, 'NOT_FOUND', `No session ${id}`);
		}
		case 'PATCH /sessions/:id': {
			if (!store.sessions.has(id.toLowerCase()))
				return apiError(404, 'NOT_FOUND', `No session ${id}`);
			return json(200, store.snapshot(store.updateSession(id, body as UpdateSessionPatch)));
		}
		case 'POST /sessions/:id/recipient-status': {
			if (!store.sessions.has(id.toLowerCase()))
				return apiError(404, 'NOT_FOUND', `No session ${id}`);
			return json(
				200,
				store.snapshot(store.setRecipientStatus(id, body as unknown as RecipientStatusInput)),
			);
		}
		case 'GET /outbox':
			return json(200, store.outbox);
		case 'DELETE /outbox':
			store.outbox.length = 0;
			return json(200, { ok: true });
		case 'GET /files/:id': {
			const file = store.files.get(id);
			return file
				? json(200, {
						fileName: file.fileName,
						sizeBytes: file.bytes.length,
						orgId: file.orgId,
						data: file.bytes.toString('base64'),
					})
				: apiError(404, 'NOT_FOUND', `No file ${id}`);
		}
		case 'GET /requests':
			return json(200, ctx.requests);
		case 'DELETE /requests':
			ctx.requests.length = 0;
			return json(200, { ok: true });
		case 'POST /tokens': {
			const options = body as IssueTokenOptions;
			return json(200, {
				access_token: ctx.auth.issueToken({ ...options, orgId: options.orgId ?? ctx.demo.orgId }),
			});
		}
		case 'POST /rate-limit/reset': {
			const orgId = typeof body.orgId === 'string' ? body.orgId : undefined;
			ctx.rateLimiter.reset(orgId);
			ctx.publicRateLimiter.reset(orgId);
			return json(200, { ok: true });
		}
		case 'POST /faults':
			ctx.faults.add(body as unknown as Fault);
			return json(201, { faults: ctx.faults.active });
		case 'DELETE /faults':
			ctx.faults.clear();
			return json(200, { ok: true });
		case 'POST /clock': {
			if (body.frozen === true) ctx.clock.freeze();
			if (body.set !== undefined) ctx.clock.set(body.set as string | number);
			if (body.advanceMs !== undefined) ctx.clock.advance(Number(body.advanceMs));
			if (body.frozen === false) ctx.clock.unfreeze();
			return json(200, { now: new Date(ctx.clock.now()).toISOString(), frozen: ctx.clock.frozen });
		}
		case 'PATCH /config':
			applyConfig(ctx.config, body);
			return json(200, { config: { ...ctx.config } });
		case 'POST /reset':
			ctx.reset();
			return json(200, { ok: true });
		default:
			return apiError(404, 'NOT_FOUND', `No control-plane route ${method} /_sandbox${path}`);
	}
}
