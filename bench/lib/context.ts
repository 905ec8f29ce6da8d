import type { Sandbox } from '../../sandbox';
import type { EngineContext } from './engine';
import { runAirSign } from './engine';
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

/** An empty sandbox, each request `delayMs` late, n8n's token fetched anew: no run pays it. */
export async function withLatency(ctx: BenchContext, delayMs: number): Promise<void> {
	resetSandbox(ctx);
	if (delayMs > 0)
		ctx.sandbox.injectFault({ kind: 'latency', delayMs, count: Number.MAX_SAFE_INTEGER });
	await runAirSign(ctx.engine, {
		parameters: { resource: 'session', operation: 'getMany', returnAll: false, limit: 1 },
	});
}

/** `count` draft sessions ready to send (one recipient each); their IDs. */
export function drafts(ctx: BenchContext, count: number): string[] {
	return Array.from(
		{ length: count },
		(_, i) =>
			ctx.sandbox.createSession({
				name: `Bench send ${i}`,
				recipients: [{ name: `Signer ${i}`, email: `signer${i}@example.com` }],
			}).sessionId,
	);
}

/** Sessions created a second apart, from 2025-01-01 (Return All's input). */
export function sessions(ctx: BenchContext, count: number): void {
	const base = Date.parse('2025-01-01T00:00:00.000Z');
	for (let i = 0; i < count; i++)
		ctx.sandbox.createSession({ name: `Bench list ${i}`, createdAt: base + i * 1000 });
}
