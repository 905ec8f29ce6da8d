import type { SandboxClock } from './clock';
import type { SandboxConfig } from './types';

const HOUR_MS = 60 * 60 * 1000;

interface Window {
	startedAt: number;
	used: number;
}

export function rateLimitHeaders(limit: number, remaining: number, resetAtMs: number) {
	return {
		'X-RateLimit-Limit': String(limit),
		'X-RateLimit-Remaining': String(Math.max(0, remaining)),
		'X-RateLimit-Reset': String(Math.ceil(resetAtMs / 1000)),
	} as Record<string, string>;
}

/** A fixed window per organisation (default an hour) from its first request; a 429 is free. */
export class RateLimiter {
	protected readonly windows = new Map<string, Window>();

	constructor(
		private readonly clock: Pick<SandboxClock, 'now'>,
		private readonly limit: () => number,
		protected readonly windowMs: () => number = () => HOUR_MS,
	) {}

	take(orgId: string): { allowed: boolean; headers: Record<string, string> } {
		const now = this.clock.now();
		let window = this.windows.get(orgId);
		if (!window || now >= window.startedAt + this.windowMs()) {
			window = { startedAt: now, used: 0 };
			this.windows.set(orgId, window);
		}
		const limit = this.limit();
		const resetAt = window.startedAt + this.windowMs();
		if (window.used >= limit) {
			const retryAfter = String(Math.max(1, Math.ceil((resetAt - now) / 1000)));
			return {
				allowed: false,
				headers: { ...rateLimitHeaders(limit, 0, resetAt), 'Retry-After': retryAfter },
			};
		}
		window.used += 1;
		return { allowed: true, headers: rateLimitHeaders(limit, limit - window.used, resetAt) };
	}

	reset(orgId?: string): void {
		if (orgId === undefined) this.windows.clear();
		else this.windows.delete(orgId);
	}
}

/** The burst limit, one window for all; answers state it when it is tighter than their own. */
export class BurstLimiter extends RateLimiter {
	constructor(
		clock: Pick<SandboxClock, 'now'>,
		private readonly config: Pick<SandboxConfig, 'burstLimit' | 'burstWindowSeconds'>,
	) {
		super(
			clock,
			() => config.burstLimit,
			() => config.burstWindowSeconds * 1000,
		);
	}

	/** Counts a request: the 429's headers when it is over the limit, else undefined. */
	refuse(): Record<string, string> | undefined {
		if (this.config.burstLimit <= 0) return undefined;
		const decision = this.take('');
		return decision.allowed ? undefined : decision.headers;
	}

	/** The answer's headers, with the burst window's in place of its own when that is tighter. */
	stated(headers: Record<string, string> | undefined): Record<string, string> | undefined {
		const { burstLimit } = this.config;
		const window = this.windows.get('');
		if (burstLimit <= 0 || !window) return headers;
		const left = burstLimit - window.used;
		const ownLeft = Number(headers?.['X-RateLimit-Remaining'] ?? Number.POSITIVE_INFINITY);
		if (left >= ownLeft) return headers;
		const endsAt = window.startedAt + this.windowMs();
		return { ...headers, ...rateLimitHeaders(burstLimit, left, endsAt) };
	}
}
