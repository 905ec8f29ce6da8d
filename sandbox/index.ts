import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxClock } from './clock';
import { createContext } from './context';
import type { CreateTemplateInput, PlanFeature, SignInput, Template } from './publicTypes';
import { completeSession, signRecipient } from './sessions';
import { createRequestListener } from './server';
import type { SessionRecord } from './store';
import type {
	CreateSessionInput,
	Fault,
	IssueTokenOptions,
	RecipientStatusInput,
	RequestHook,
	SandboxOptions,
	Session,
	UpdateSessionPatch,
} from './types';

export * from './types';
export * from './publicTypes';
export { DEMO_SENDER_PROFILE_ID } from './context';
export { seededRandom } from './clock';
export type { SandboxClock } from './clock';

/** A running sandbox: its address, its state, and the controls tests and demos use. */
export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

export async function startSandbox(options: SandboxOptions = {}) {
	const ctx = createContext(options);
	const { config, clock, auth, demo, other, store, templates, orgs } = ctx;

	const server = createServer(createRequestListener(ctx));
	// Never close idle keep-alive connections from this side: a client reusing one just as Node's
	// 5 s timeout closes it gets ECONNRESET. Clients close their own; close() closes the rest.
	server.keepAliveTimeout = 0;
	server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
	await once(server, 'listening'); // rejects on 'error' (a port in use)
	const address = server.address() as AddressInfo;
	const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
	ctx.baseUrl = `http://${host}:${address.port}`;

	const snapshot = (record: SessionRecord) => store.snapshot(record);
	return {
		baseUrl: ctx.baseUrl,
		// Keep-alive sockets would hold close() open until they time out.
		close: () =>
			new Promise<void>((resolve, reject) => {
				server.close((error) => (error ? reject(error) : resolve()));
				server.closeAllConnections();
			}),
		clock: clock as SandboxClock,
		/** Live options: changes apply to the next request. */
		config,
		demo,
		other,
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
		outbox: store.outbox,
		files: store.files,
		requests: ctx.requests,
		clearRequests: () => void (ctx.requests.length = 0),
		resetRateLimit: (orgId?: string) => {
			ctx.rateLimiter.reset(orgId);
			ctx.publicRateLimiter.reset(orgId);
		},
		injectFault: (fault: Fault) => ctx.faults.add(fault),
		clearFaults: () => ctx.faults.clear(),
		onRequest: (hook: RequestHook) => {
			ctx.hooks.add(hook);
			return () => void ctx.hooks.delete(hook);
		},
		reset: () => ctx.reset(),
	};
}
