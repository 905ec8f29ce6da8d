import type { IncomingMessage, ServerResponse } from 'node:http';
import { applyConfig, type SandboxContext } from './context';
import { bodyObject } from './creates';
import { ApiProblem, apiError, json, readBody, writeReply, type Reply } from './http';
import type { CreateTemplateInput, PlanFeature, SignInput, Template } from './publicTypes';
import { completeSession, signRecipient } from './sessions';
import type { SessionRecord } from './store';
import type {
	CreateSessionInput,
	Fault,
	IssueTokenOptions,
	RecipientStatusInput,
	Session,
	UpdateSessionPatch,
} from './types';

const BODY_LIMIT_BYTES = 1024 * 1024;
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const OK = json(200, { ok: true });

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
			const body = bodyObject(raw.body);
			const path = url.pathname.slice('/_sandbox'.length);
			reply = controlRoute(ctx, req.method ?? 'GET', path, body);
		} catch (error) {
			if (error instanceof ApiProblem) reply = error.reply();
			else reply = apiError(400, 'VALIDATION_ERROR', (error as Error).message);
		}
	}
	writeReply(res, reply);
}

/** Routes by `METHOD /path`, `:id` of a session, file, template or org; templates made here. */
function controlRoute(
	ctx: SandboxContext,
	method: string,
	path: string,
	body: Record<string, unknown>,
): Reply {
	const { store } = ctx;
	const api = sandboxControls(ctx);
	const parts = path.split('/').filter(Boolean);
	const byId = parts.length >= 2 && ['sessions', 'files', 'templates', 'orgs'].includes(parts[0]);
	const rest = parts.slice(2).join('/');
	const key = byId ? `${method} /${parts[0]}/:id${rest ? `/${rest}` : ''}` : `${method} ${path}`;
	const id = byId ? decodeURIComponent(parts[1]) : '';
	const found = <T>(item: T | undefined, kind: string): T => {
		if (!item) throw new ApiProblem(404, 'NOT_FOUND', `No ${kind} ${id}`);
		return item;
	};
	const sessionId = () => found(api.getSession(id), 'session').sessionId;
	const template = () => found(api.getTemplate(id), 'template');
	const ok = (value: unknown) => json(200, value);
	const routes: Record<string, () => Reply> = {
		'GET /state': () => ok(describeState(ctx)),
		'POST /sessions': () => json(201, api.createSession(body as CreateSessionInput)),
		'GET /sessions/:id': () => ok(found(api.getSession(id), 'session')),
		'PATCH /sessions/:id': () => ok(api.updateSession(sessionId(), body)),
		'POST /sessions/:id/recipient-status': () =>
			ok(api.setRecipientStatus(sessionId(), body as unknown as RecipientStatusInput)),
		'POST /sessions/:id/sign': () => ok(api.signRecipient(sessionId(), body as SignInput)),
		'POST /sessions/:id/complete': () => ok(api.completeSession(sessionId())),
		'GET /outbox': () => json(200, store.outbox),
		'DELETE /outbox': () => ((store.outbox.length = 0), OK),
		'GET /files/:id': () => {
			const { fileName, bytes, orgId } = found(store.files.get(id), 'file');
			const data = bytes.toString('base64');
			return json(200, { fileName, sizeBytes: bytes.length, orgId, data });
		},
		'GET /templates': () => ok(api.listAllTemplates()),
		'POST /templates': () => json(201, api.createTemplate(body as CreateTemplateInput)),
		'GET /templates/:id': () => ok(template()),
		'POST /templates/:id/activate': () => ok(api.activateTemplate(template().templateId)),
		'GET /orgs/:id/plan': () => json(200, { orgId: id, features: ctx.orgs.features(id) }),
		'PUT /orgs/:id/plan': () => {
			if (!Array.isArray(body.features)) throw new Error('features must be an array');
			return json(200, { orgId: id, features: ctx.orgs.setFeatures(id, body.features) });
		},
		'GET /requests': () => json(200, ctx.requests),
		'DELETE /requests': () => ((ctx.requests.length = 0), OK),
		'POST /tokens': () => ok({ access_token: api.issueToken(body as IssueTokenOptions) }),
		'POST /rate-limit/reset': () => (
			api.resetRateLimit(typeof body.orgId === 'string' ? body.orgId : undefined),
			OK
		),
		'POST /faults': () => (
			api.injectFault(body as unknown as Fault),
			json(201, { faults: ctx.faults.active })
		),
		'DELETE /faults': () => (api.clearFaults(), OK),
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
		'POST /reset': () => (api.reset(), OK),
	};
	const handle = Object.hasOwn(routes, key) ? routes[key] : undefined;
	return handle
		? handle()
		: apiError(404, 'NOT_FOUND', `No control-plane route ${method} /_sandbox${path}`);
}

/** GET /_sandbox/state: where the sandbox is, its demo organisations, settings, clock and faults. */
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

/** The controls a `Sandbox` offers and the control plane serves: copies out, never the live records. */
export function sandboxControls(ctx: SandboxContext) {
	const { auth, demo, store, templates, orgs } = ctx;
	const snapshot = (record: SessionRecord) => store.snapshot(record);
	return {
		issueToken: (o: IssueTokenOptions = {}) =>
			auth.issueToken({ ...o, orgId: o.orgId ?? demo.orgId }),
		createSession: (input?: CreateSessionInput) => snapshot(store.createSession(input)),
		updateSession: (sessionId: string, patch: UpdateSessionPatch) =>
			snapshot(store.updateSession(sessionId, patch)),
		getSession: (sessionId: string): Session | undefined => {
			const record = store.sessions.get(sessionId.toLowerCase());
			return record && snapshot(record);
		},
		/** Every session of every organisation, as snapshots. */
		listAllSessions: () => [...store.sessions.values()].map(snapshot),
		/** Templates (docs/api.md#get-template): created as drafts unless `status: 'active'`. */
		createTemplate: (input?: CreateTemplateInput) => templates.snapshot(templates.create(input)),
		activateTemplate: (templateId: string) => templates.snapshot(templates.activate(templateId)),
		getTemplate: (templateId: string): Template | undefined => {
			const record = templates.templates.get(templateId.toLowerCase());
			return record && templates.snapshot(record);
		},
		listAllTemplates: () => [...templates.templates.values()].map((t) => templates.snapshot(t)),
		/** Recipient progress: one recipient signs (default: the next who has not). */
		signRecipient: (sessionId: string, pick: SignInput = {}) =>
			snapshot(signRecipient(store, store.get(sessionId), pick)),
		/** Every recipient who has not signed signs: the session is completed. */
		completeSession: (sessionId: string) => snapshot(completeSession(store, store.get(sessionId))),
		/** Recipient progress of any kind: a recipient's status becomes any text; updatedAt moves. */
		setRecipientStatus: (sessionId: string, input: RecipientStatusInput) =>
			snapshot(store.setRecipientStatus(sessionId, input)),
		/** What the organisation's plan includes (default: every feature). */
		setPlanFeatures: (orgId: string, features: PlanFeature[]) =>
			void orgs.setFeatures(orgId, features),
		resetRateLimit: (orgId?: string) => {
			ctx.rateLimiter.reset(orgId);
			ctx.publicRateLimiter.reset(orgId);
		},
		injectFault: (fault: Fault) => ctx.faults.add(fault),
		clearFaults: () => ctx.faults.clear(),
		reset: () => ctx.reset(),
	};
}
