import { BurstLimiter } from './burstLimit';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Auth } from './auth';
import { createClock, type SandboxClock } from './clock';
import { applyConfig, DEFAULT_CONFIG } from './config';
import type { SandboxContext } from './context';
import { seedDemoData } from './demoData';
import { seedDemoTemplates } from './demoTemplates';
import { FaultList } from './faults';
import { Organisations } from './orgs';
import type { CreateTemplateInput, PlanFeature, SignInput, Template } from './publicTypes';
import { RateLimiter } from './rateLimit';
import { completeSession, signRecipient } from './sendInvitation';
import { createRequestListener } from './server';
import { Store } from './store';
import { TemplateStore } from './templateStore';
import { seededRandom } from './seededRandom';
import type {
	CreateSessionInput,
	Fault,
	IssueTokenOptions,
	OrgCredentials,
	OutboxEmail,
	RecipientStatusInput,
	RequestHook,
	RequestLogEntry,
	SandboxConfig,
	SandboxOptions,
	Session,
	StoredFile,
	UpdateSessionPatch,
} from './types';

export * from './types';
export * from './publicTypes';
export { DEMO_SENDER_PROFILE_ID } from './orgs';
export { seededRandom } from './seededRandom';
export type { SandboxClock } from './clock';

export interface Sandbox {
	readonly baseUrl: string;
	close(): Promise<void>;
	readonly clock: SandboxClock;
	/** Live options: changes apply to the next request. */
	readonly config: SandboxConfig;
	readonly demo: OrgCredentials;
	readonly other: OrgCredentials;
	issueToken(options?: IssueTokenOptions): string;
	createSession(input?: CreateSessionInput): Session;
	updateSession(sessionId: string, patch: UpdateSessionPatch): Session;
	getSession(sessionId: string): Session | undefined;
	/** Every session of every organisation, as snapshots. */
	listAllSessions(): Session[];
	/** Templates (docs/api.md#get-template): created as drafts unless `status: 'active'`. */
	createTemplate(input?: CreateTemplateInput): Template;
	activateTemplate(templateId: string): Template;
	getTemplate(templateId: string): Template | undefined;
	listAllTemplates(): Template[];
	/** Recipient progress: one recipient signs (default: the next who has not). */
	signRecipient(sessionId: string, pick?: SignInput): Session;
	/** Every recipient who has not signed signs: the session is completed. */
	completeSession(sessionId: string): Session;
	/** Recipient progress of any kind: a recipient's status becomes any text; updatedAt moves. */
	setRecipientStatus(sessionId: string, input: RecipientStatusInput): Session;
	/** What the organisation's plan includes (default: every feature). */
	setPlanFeatures(orgId: string, features: PlanFeature[]): void;
	readonly outbox: OutboxEmail[];
	readonly files: Map<string, StoredFile>;
	readonly requests: RequestLogEntry[];
	clearRequests(): void;
	resetRateLimit(orgId?: string): void;
	injectFault(fault: Fault): void;
	clearFaults(): void;
	onRequest(hook: RequestHook): () => void;
	reset(): void;
}

const DEMO_ORG = { orgId: 'org-demo', clientId: 'demo-client', clientSecret: 'demo-secret' };
const OTHER_ORG = { orgId: 'org-other', clientId: 'other-client', clientSecret: 'other-secret' };

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const config: SandboxConfig = { ...DEFAULT_CONFIG };
	applyConfig(config, options);
	const clock = createClock(options.now);
	const auth = new Auth(clock, config);
	const demo: OrgCredentials = {
		...DEMO_ORG,
		accessToken: auth.issuePermanentToken(DEMO_ORG.orgId),
	};
	const other: OrgCredentials = {
		...OTHER_ORG,
		accessToken: auth.issuePermanentToken(OTHER_ORG.orgId),
	};
	auth.registerClient(DEMO_ORG);
	auth.registerClient(OTHER_ORG);
	const store = new Store(clock, config, demo.orgId);
	const templates = new TemplateStore(store, demo.orgId);
	const orgs = new Organisations(demo.orgId);
	const seed = () => {
		seedDemoData(store, demo.orgId, other.orgId, clock.now());
		seedDemoTemplates(templates, demo.orgId, other.orgId, clock.now());
	};

	const ctx: SandboxContext = {
		baseUrl: '',
		config,
		tieRandom: seededRandom(config.tieSeed),
		clock,
		store,
		templates,
		orgs,
		auth,
		rateLimiter: new RateLimiter(clock, () => config.rateLimitPerHour),
		publicRateLimiter: new RateLimiter(clock, () => config.publicRateLimitPerHour),
		burstLimiter: new BurstLimiter(clock, config),
		faults: new FaultList(),
		hooks: new Set<RequestHook>(),
		requests: [],
		demo,
		other,
		reset() {
			clock.restart();
			Object.assign(config, DEFAULT_CONFIG);
			applyConfig(config, options);
			ctx.tieRandom = seededRandom(config.tieSeed);
			store.clear();
			templates.clear();
			orgs.reset();
			auth.revokeIssuedTokens();
			ctx.rateLimiter.reset();
			ctx.publicRateLimiter.reset();
			ctx.burstLimiter.reset();
			ctx.faults.clear();
			ctx.hooks.clear();
			ctx.requests.length = 0;
			if (options.seedDemoData) seed();
		},
	};
	if (options.seedDemoData) seed();

	const server = createServer(createRequestListener(ctx));
	// Never close an idle keep-alive connection from this side. With Node's default (5 s), a
	// client that reuses a connection just as the server times it out gets ECONNRESET, and a busy
	// machine widens that window until it happens. Clients (undici, n8n's HTTP agent) close their
	// own idle connections after a few seconds; server.close() closes the rest.
	server.keepAliveTimeout = 0;
	await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
	const address = server.address() as AddressInfo;
	const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
	ctx.baseUrl = `http://${host}:${address.port}`;

	return {
		baseUrl: ctx.baseUrl,
		close: () => closeServer(server),
		clock,
		config,
		demo,
		other,
		issueToken: (tokenOptions = {}) =>
			auth.issueToken({ ...tokenOptions, orgId: tokenOptions.orgId ?? demo.orgId }),
		createSession: (input) => store.snapshot(store.createSession(input)),
		updateSession: (sessionId, patch) => store.snapshot(store.updateSession(sessionId, patch)),
		getSession: (sessionId) => {
			const record = store.sessions.get(sessionId.toLowerCase());
			return record && store.snapshot(record);
		},
		listAllSessions: () => [...store.sessions.values()].map((s) => store.snapshot(s)),
		createTemplate: (input) => templates.snapshot(templates.create(input)),
		activateTemplate: (templateId) => templates.snapshot(templates.activate(templateId)),
		getTemplate: (templateId) => {
			const record = templates.templates.get(templateId.toLowerCase());
			return record && templates.snapshot(record);
		},
		listAllTemplates: () => [...templates.templates.values()].map((t) => templates.snapshot(t)),
		signRecipient: (sessionId, pick = {}) => {
			const record = store.sessions.get(sessionId.toLowerCase());
			if (!record) throw new Error(`No session ${sessionId}`);
			signRecipient(store, record, pick);
			return store.snapshot(record);
		},
		completeSession: (sessionId) => {
			const record = store.sessions.get(sessionId.toLowerCase());
			if (!record) throw new Error(`No session ${sessionId}`);
			completeSession(store, record);
			return store.snapshot(record);
		},
		setRecipientStatus: (sessionId, input) =>
			store.snapshot(store.setRecipientStatus(sessionId, input)),
		setPlanFeatures: (orgId, features) => {
			orgs.setFeatures(orgId, features);
		},
		outbox: store.outbox,
		files: store.files,
		requests: ctx.requests,
		clearRequests: () => {
			ctx.requests.length = 0;
		},
		resetRateLimit: (orgId) => {
			ctx.rateLimiter.reset(orgId);
			ctx.publicRateLimiter.reset(orgId);
		},
		injectFault: (fault) => ctx.faults.add(fault),
		clearFaults: () => ctx.faults.clear(),
		onRequest: (hook) => {
			ctx.hooks.add(hook);
			return () => {
				ctx.hooks.delete(hook);
			};
		},
		reset: () => ctx.reset(),
	};
}

function listen(server: Server, port: number, host: string): Promise<void> {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
}

/** Keep-alive sockets would hold close() open until they time out. */
function closeServer(server: Server): Promise<void> {
	return new Promise((resolve, reject) => {
		server.close((error) => (error ? reject(error) : resolve()));
		server.closeAllConnections();
	});
}
