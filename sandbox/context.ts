import type { IncomingMessage } from 'node:http';
import { Auth } from './auth';
import { createClock, seededRandom } from './clock';
import { seedDemoData, seedDemoTemplates } from './demo';
import { FaultList } from './faults';
import { ApiProblem } from './http';
import { PLAN_FEATURES, type PlanFeature } from './publicTypes';
import { BurstLimiter, RateLimiter } from './rateLimit';
import { Store } from './store';
import { TemplateStore } from './templateStore';
import type {
	OrgCredentials,
	RequestHook,
	RequestLogEntry,
	SandboxConfig,
	SandboxOptions,
} from './types';

/** An authenticated request to an endpoint, as its handler gets it. */
export interface Call {
	ctx: SandboxContext;
	orgId: string;
	/** The path's `:id`, a UUID. */
	id: string;
	/** The JSON body of a public API endpoint (read by the server). */
	body: Buffer;
	params: URLSearchParams;
	req: IncomingMessage;
}

/** Everything a running sandbox holds; handed to the server and the control plane. */
export type SandboxContext = ReturnType<typeof createContext>;

export const DEFAULT_CONFIG: SandboxConfig = {
	tokenTtlSeconds: 3600,
	timestampPrecision: 'ms',
	updatedAfterInclusive: false,
	tieOrder: 'id',
	tieSeed: 1,
	rateLimitPerHour: 60,
	publicRateLimitPerHour: 600,
	maxFileBytes: 7 * 1024 * 1024,
	burstLimit: 0,
	burstWindowSeconds: 2,
};

const DEMO_ORG = { orgId: 'org-demo', clientId: 'demo-client', clientSecret: 'demo-secret' };
const OTHER_ORG = { orgId: 'org-other', clientId: 'other-client', clientSecret: 'other-secret' };

/** The state of a sandbox as `options` start it: reset() makes it, and brings it back there. */
export function createContext(options: SandboxOptions) {
	const config: SandboxConfig = { ...DEFAULT_CONFIG };
	const clock = createClock(options.now);
	const auth = new Auth(clock, config);
	const [demo, other]: OrgCredentials[] = [DEMO_ORG, OTHER_ORG].map((org) => {
		auth.registerClient(org);
		return { ...org, accessToken: auth.issuePermanentToken(org.orgId) };
	});
	const store = new Store(clock, config, demo.orgId);
	const templates = new TemplateStore(store, demo.orgId);
	const orgs = new Organisations(demo.orgId);
	const ctx = {
		baseUrl: '',
		config,
		/** Draws the keys of `tieOrder: 'random'` (seeded by config.tieSeed at start and reset). */
		tieRandom: seededRandom(config.tieSeed),
		clock,
		store,
		templates,
		orgs,
		auth,
		/** List Sessions' budget, and the public API's (docs/api.md#rate-limits). */
		rateLimiter: new RateLimiter(clock, () => config.rateLimitPerHour),
		publicRateLimiter: new RateLimiter(clock, () => config.publicRateLimitPerHour),
		burstLimiter: new BurstLimiter(clock, config),
		faults: new FaultList(),
		hooks: new Set<RequestHook>(),
		requests: [] as RequestLogEntry[],
		demo,
		other,
		reset() {
			clock.restart();
			Object.assign(config, DEFAULT_CONFIG);
			applyConfig(config, options);
			ctx.tieRandom = seededRandom(config.tieSeed);
			for (const part of [store, templates, ctx.faults, ctx.hooks]) part.clear();
			orgs.reset();
			auth.revokeIssuedTokens();
			for (const limiter of [ctx.rateLimiter, ctx.publicRateLimiter, ctx.burstLimiter])
				limiter.reset();
			ctx.requests.length = 0;
			if (!options.seedDemoData) return;
			seedDemoData(store, demo.orgId, other.orgId, clock.now());
			seedDemoTemplates(templates, demo.orgId, other.orgId, clock.now());
		},
	};
	ctx.reset();
	return ctx;
}

const wholeFrom =
	(min: number, below = Infinity) =>
	(v: unknown) =>
		typeof v === 'number' && Number.isInteger(v) && v >= min && v < below;
const CHECKS: { [K in keyof SandboxConfig]: (value: unknown) => boolean } = {
	tokenTtlSeconds: (v) => typeof v === 'number' && v >= 0,
	timestampPrecision: (v) => v === 'ms' || v === 's',
	updatedAfterInclusive: (v) => typeof v === 'boolean',
	tieOrder: (v) => v === 'id' || v === 'random',
	tieSeed: wholeFrom(0, 2 ** 32),
	rateLimitPerHour: wholeFrom(0),
	publicRateLimitPerHour: wholeFrom(0),
	maxFileBytes: wholeFrom(0),
	burstLimit: wholeFrom(0),
	burstWindowSeconds: wholeFrom(1),
};

/** Applies the config keys of `patch` (other keys are ignored) after checking all of them. */
export function applyConfig(config: SandboxConfig, patch: Partial<SandboxConfig> | SandboxOptions) {
	const entries = Object.entries(patch).filter(([key, v]) => key in CHECKS && v !== undefined);
	for (const [key, value] of entries) {
		if (!CHECKS[key as keyof SandboxConfig](value))
			throw new Error(`Invalid value for ${key}: ${JSON.stringify(value)}`);
	}
	Object.assign(config, Object.fromEntries(entries));
}

/** The demo organisation's one verified sender profile (no endpoint lists them). */
export const DEMO_SENDER_PROFILE_ID = '5e0d3c2a-9b1f-4c6e-8a7d-2f4b6c8e0a1d';

/** Each organisation's plan (all features until tests take some away); the demo one's profile. */
export class Organisations {
	private readonly plans = new Map<string, Set<PlanFeature>>();

	constructor(private readonly demoOrgId: string) {}

	reset(): void {
		this.plans.clear();
	}

	features(orgId: string): PlanFeature[] {
		return [...(this.plans.get(orgId) ?? PLAN_FEATURES)];
	}

	setFeatures(orgId: string, features: string[]): PlanFeature[] {
		const unknown = features.find((f) => !(PLAN_FEATURES as readonly string[]).includes(f));
		if (unknown !== undefined)
			throw new Error(`Unknown plan feature "${unknown}"; known: ${PLAN_FEATURES.join(', ')}`);
		this.plans.set(orgId, new Set(features as PlanFeature[]));
		return this.features(orgId);
	}

	/** 403 naming the first feature the request uses that the plan lacks. */
	requireFeatures(orgId: string, used: PlanFeature[]): void {
		const plan = this.plans.get(orgId);
		const missing = plan && used.find((feature) => !plan.has(feature));
		const message = `Your AirSign plan does not include ${missing}`;
		if (missing)
			throw new ApiProblem(403, 'PLAN_FEATURE_UNAVAILABLE', message, undefined, {
				feature: missing,
			});
	}

	hasSenderProfile(orgId: string, profileId: string): boolean {
		return orgId === this.demoOrgId && profileId.toLowerCase() === DEMO_SENDER_PROFILE_ID;
	}
}
