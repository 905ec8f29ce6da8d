// The processes `npm run dev` (scripts/dev.mts) starts (n8n, the sandbox, the demo model) and how
// they stop: together, on Ctrl-C or SIGTERM, or when one of them dies.
import type { startFakeOpenAi } from '../../e2e/lib/fakeOpenAi.mts';
import type { startN8n } from '../../e2e/lib/n8n.mts';
import { describeExit, type ExitStatus } from '../../e2e/lib/proc.mts';
import type { startSandboxProcess } from '../../e2e/lib/sandbox.mts';
import { say } from './lib.mts';

export type N8nServer = Awaited<ReturnType<typeof startN8n>>;
export type SandboxServer = Awaited<ReturnType<typeof startSandboxProcess>>;
export type DemoModel = Awaited<ReturnType<typeof startFakeOpenAi>>;

/** The running processes, read where they are used: stopAll() clears them. */
export const procs: { sandbox?: SandboxServer; n8n?: N8nServer; model?: DemoModel } = {};
/** What stopAll() says once it is done: what was running, and whether each has exited. */
export interface Stopped {
	/** "n8n and the sandbox", "the sandbox", or "" when neither had started. */
	what: string;
	ok: boolean;
}
let stopping: Promise<Stopped> | null = null;
export const isStopping = (): boolean => stopping !== null;
export function stopAll(reason?: string): Promise<Stopped> {
	stopping ??= (async () => {
		if (reason) say(`${reason}: stopping n8n and the sandbox ...`);
		const { n8n, sandbox, model } = procs;
		procs.n8n = procs.sandbox = procs.model = undefined;
		const running = [
			{ name: 'n8n', stopped: n8n?.stop(15_000) },
			{ name: 'the sandbox', stopped: sandbox?.stop(5_000) },
		].filter((p): p is { name: string; stopped: Promise<ExitStatus> } => p.stopped !== undefined);
		const [results] = await Promise.all([
			Promise.allSettled(running.map((p) => p.stopped)),
			model?.close().catch(() => {}), // an in-process server: nothing left behind
		]);
		// said once each has exited, so that "stopped" is known, not hoped
		for (const [i, { name }] of running.entries()) {
			const result = results[i];
			say(
				result.status === 'fulfilled'
					? `${name} stopped (${describeExit(result.value)})`
					: `${name} did not stop: ${result.reason}`,
			);
		}
		return {
			what: running.map((p) => p.name).join(' and '),
			ok: results.every((r) => r.status === 'fulfilled'),
		};
	})();
	return stopping;
}

// e2e/lib/n8nServer.mts exits at once on SIGINT/SIGTERM (right for tests), and proc.mts's 'exit'
// hook SIGKILLs what is still running; here n8n gets a graceful stop instead, so those handlers
// are replaced. The 'exit' hook stays as a backstop: a second Ctrl-C ends everything through it.
// Only the listed handlers go: tsx's hidden one (under the tsx command) tells its parent process
// that the signal arrived; without it, tsx sends it again, then SIGKILLs this process.
export function takeOverSignals(): void {
	for (const sig of ['SIGINT', 'SIGTERM'] as const)
		for (const listener of process.listeners(sig)) process.off(sig, listener);
	let firstAt: number | undefined;
	for (const sig of ['SIGINT', 'SIGTERM'] as const) {
		process.on(sig, () => {
			firstAt ??= Date.now();
			// One Ctrl-C arrives more than once: from the terminal, and forwarded again by npm run.
			// Only a later one is the user's second.
			if (Date.now() - firstAt > 1_000) process.exit(130); // second Ctrl-C: no more waiting
			if (isStopping()) return;
			stopAll(sig).then(({ what, ok }) => {
				if (ok)
					say(
						what.includes(' and ')
							? `${what} have stopped.`
							: what
								? `${what} has stopped (the other had not started).`
								: 'stopped (n8n and the sandbox had not started).',
					);
				process.exit(ok ? 0 : 1);
			});
		});
	}
}
