import type { Auth } from './auth';
import type { BurstLimiter } from './burstLimit';
import type { SandboxClock } from './clock';
import type { FaultList } from './faults';
import type { Organisations } from './orgs';
import type { RateLimiter } from './rateLimit';
import type { Store } from './store';
import type { TemplateStore } from './templateStore';
import type { OrgCredentials, RequestHook, RequestLogEntry, SandboxConfig } from './types';

/** Everything a running sandbox holds; handed to the server and the control plane. */
export interface SandboxContext {
	baseUrl: string;
	config: SandboxConfig;
	/** Draws the keys of `tieOrder: 'random'` (seeded by config.tieSeed at start and reset). */
	tieRandom: () => number;
	clock: SandboxClock;
	store: Store;
	templates: TemplateStore;
	orgs: Organisations;
	auth: Auth;
	rateLimiter: RateLimiter;
	/** The budget of the public API's endpoints (docs/api.md#rate-limits). */
	publicRateLimiter: RateLimiter;
	/** The burst limit on every /api/v1 request (config burstLimit; off by default). */
	burstLimiter: BurstLimiter;
	faults: FaultList;
	hooks: Set<RequestHook>;
	requests: RequestLogEntry[];
	demo: OrgCredentials;
	other: OrgCredentials;
	reset(): void;
}
