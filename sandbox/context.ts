import type { IncomingMessage } from 'node:http';
import type { Auth } from './auth';
import type { SandboxClock } from './clock';
import type { FaultList } from './faults';
import type { Organisations } from './orgs';
import type { BurstLimiter, RateLimiter } from './rateLimit';
import type { Store } from './store';
import type { TemplateStore } from './templateStore';
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
	/** List Sessions' budget. */
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
