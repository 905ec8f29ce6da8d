import type { SandboxClock } from './clock';
import type { SandboxConfig } from './types';
import { rateLimitHeaders } from './rateLimit';

/**
 * The sandbox's burst limit (config `burstLimit` per `burstWindowSeconds`): a fixed window
 * opened by its first request, shared by every organisation; a refused request does not count.
 * Like a service whose headers describe its tightest window, every answer within the window
 * states the burst window when fewer requests are left in it than in the answer's own.
 */
export class BurstLimiter {
	private window: { startedAt: number; used: number } | undefined;

	constructor(
		private readonly clock: Pick<SandboxClock, 'now'>,
		private readonly config: Pick<SandboxConfig, 'burstLimit' | 'burstWindowSeconds'>,
	) {}

	/** Counts a request: the 429's headers when it is over the limit, else undefined. */
	refuse(): Record<string, string> | undefined {
		const { burstLimit } = this.config;
		if (burstLimit <= 0) return undefined;
		const window = this.current();
		if (window.used < burstLimit) {
			window.used++;
			return undefined;
		}
		const endsAt = this.endOf(window);
		return {
			...rateLimitHeaders(burstLimit, 0, endsAt),
			'Retry-After': String(Math.max(1, Math.ceil((endsAt - this.clock.now()) / 1000))),
		};
	}

	/** The answer's headers, with the burst window's in place of its own when that is tighter. */
	stated(headers: Record<string, string> | undefined): Record<string, string> | undefined {
		const { burstLimit } = this.config;
		if (burstLimit <= 0 || !this.window) return headers;
		const left = burstLimit - this.window.used;
		const ownLeft = Number(headers?.['X-RateLimit-Remaining'] ?? Number.POSITIVE_INFINITY);
		if (left >= ownLeft) return headers;
		return { ...headers, ...rateLimitHeaders(burstLimit, left, this.endOf(this.window)) };
	}

	reset(): void {
		this.window = undefined;
	}

	private current() {
		const now = this.clock.now();
		if (!this.window || now >= this.endOf(this.window)) this.window = { startedAt: now, used: 0 };
		return this.window;
	}

	private endOf(window: { startedAt: number }): number {
		return window.startedAt + this.config.burstWindowSeconds * 1000;
	}
}
