import type { SandboxClock } from './clock';
import type { SandboxConfig } from './types';
import { rateLimitHeaders } from './rateLimit';

/**
 * The sandbox's burst limit (config `burstLimit` per `burstWindowSeconds`): a fixed window
 * opened by its first request, shared by every organisation; a refused request does not count.
 * Returns the 429's headers when the request is over the limit, else undefined.
 */
export class BurstLimiter {
	private window: { startedAt: number; used: number } | undefined;

	constructor(
		private readonly clock: Pick<SandboxClock, 'now'>,
		private readonly config: Pick<SandboxConfig, 'burstLimit' | 'burstWindowSeconds'>,
	) {}

	refuse(): Record<string, string> | undefined {
		const { burstLimit, burstWindowSeconds } = this.config;
		if (burstLimit <= 0) return undefined;
		const now = this.clock.now();
		const windowMs = burstWindowSeconds * 1000;
		if (!this.window || now >= this.window.startedAt + windowMs)
			this.window = { startedAt: now, used: 0 };
		const endsAt = this.window.startedAt + windowMs;
		if (this.window.used < burstLimit) {
			this.window.used++;
			return undefined;
		}
		return {
			...rateLimitHeaders(burstLimit, 0, endsAt),
			'Retry-After': String(Math.max(1, Math.ceil((endsAt - now) / 1000))),
		};
	}

	reset(): void {
		this.window = undefined;
	}
}
