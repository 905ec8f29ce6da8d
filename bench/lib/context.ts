import type { Sandbox } from '../../sandbox';
import type { EngineContext } from './engine';
import type { RawClient } from './raw';

export interface BenchContext {
	sandbox: Sandbox;
	engine: EngineContext;
	raw: RawClient;
	/** Measured runs per case (after one warm-up run). */
	runs: number;
	smoke: boolean;
}

export interface SectionResult {
	title: string;
	/** Markdown (tables and notes). */
	markdown: string;
}

/** Counts the logged API requests whose path starts with `prefix`. */
export function countRequests(sandbox: Sandbox, prefix: string): number {
	return sandbox.requests.filter((entry) => entry.path.startsWith(prefix)).length;
}

/** Back to an empty sandbox (sessions, files, outbox, log, rate-limit windows). */
export function resetSandbox(ctx: BenchContext): void {
	ctx.sandbox.reset();
	// reset() revokes tokens issued since start: the raw client uses the ready demo
	// token (never revoked); n8n renews its client-credentials token on the first 401.
	ctx.raw.token = ctx.sandbox.demo.accessToken;
}
