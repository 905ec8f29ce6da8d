// The processes `npm run dev` (scripts/dev.mts) starts (n8n, the sandbox, the demo model) and how
// they stop: together, on Ctrl-C or SIGTERM, or when one of them dies.
import type { startFakeOpenAi } from '../../e2e/lib/fakeOpenAi.mts';
import type { startN8n } from '../../e2e/lib/n8n.mts';
import { killTree } from '../../e2e/lib/proc.mts';
import type { startSandboxProcess } from '../../e2e/lib/sandbox.mts';
import { say } from './lib.mts';

export type N8nServer = Awaited<ReturnType<typeof startN8n>>;
export type SandboxServer = Awaited<ReturnType<typeof startSandboxProcess>>;
export type DemoModel = Awaited<ReturnType<typeof startFakeOpenAi>>;

/** The running processes, read where they are used: stopAll() clears them. */
export const procs: { sandbox?: SandboxServer; n8n?: N8nServer; model?: DemoModel } = {};
let stopping: Promise<PromiseSettledResult<unknown>[]> | null = null;
export const isStopping = (): boolean => stopping !== null;
export function stopAll(reason?: string): Promise<PromiseSettledResult<unknown>[]> {
	stopping ??= (async () => {
		if (reason) say(`${reason}: stopping n8n and the sandbox ...`);
		const results = await Promise.allSettled([
			procs.n8n?.stop(15_000),
			procs.sandbox?.stop(5_000),
			procs.model?.close(),
		]);
		procs.n8n = undefined;
		procs.sandbox = undefined;
		procs.model = undefined;
		return results;
	})();
	return stopping;
}

// e2e/lib/n8n.mts SIGKILLs its n8n on SIGINT/SIGTERM and exits at once (right for tests); here n8n
// gets a graceful stop instead, so those handlers are replaced. Its 'exit' hook stays as a backstop.
export function takeOverSignals(): void {
	process.removeAllListeners('SIGINT');
	process.removeAllListeners('SIGTERM');
	let signals = 0;
	for (const sig of ['SIGINT', 'SIGTERM'] as const) {
		process.on(sig, () => {
			if (++signals > 1) {
				// second Ctrl-C: no more waiting
				if (procs.n8n) killTree(procs.n8n.process, 'SIGKILL');
				if (procs.sandbox) killTree(procs.sandbox.process, 'SIGKILL');
				process.exit(130);
			}
			stopAll(sig).then(() => {
				say('stopped.');
				process.exit(0);
			});
		});
	}
}
