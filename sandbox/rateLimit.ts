import type { SandboxClock } from './clock';

const WINDOW_MS = 60 * 60 * 1000;

export interface RateLimitDecision {
	allowed: boolean;
	headers: Record<string, string>;
}

interface Window {
	startedAt: number;
	used: number;
}

/**
 * Fixed hourly window per organisation, opened by its first counted request.
 * A refused request (429) does not consume budget.
 */
export class RateLimiter {
	private readonly windows = new Map<string, Window>();

	constructor(
		private readonly clock: Pick<SandboxClock, 'now'>,
		private readonly limitPerHour: () => number,
	) {}

	take(orgId: string): RateLimitDecision {
		const now = this.clock.now();
		let window = this.windows.get(orgId);
		if (!window || now >= window.startedAt + WINDOW_MS) {
			window = { startedAt: now, used: 0 };
			this.windows.set(orgId, window);
		}
		const limit = this.limitPerHour();
		const resetAt = window.startedAt + WINDOW_MS;
		if (window.used >= limit) {
			return {
				allowed: false,
				headers: {
					...rateLimitHeaders(limit, 0, resetAt),
					'Retry-After': String(Math.max(1, Math.ceil((resetAt - now) / 1000))),
				},
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

export function rateLimitHeaders(
	limit: number,
	remaining: number,
	resetAtMs: number,
): Record<string, string> {
	return {
		'X-RateLimit-Limit': String(limit),
		'X-RateLimit-Remaining': String(Math.max(0, remaining)),
		'X-RateLimit-Reset': String(Math.ceil(resetAtMs / 1000)),
	};
}
