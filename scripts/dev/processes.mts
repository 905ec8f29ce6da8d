// The processes `npm run dev` (scripts/dev.mts) starts (n8n, the sandbox, the demo model) and how
// they stop: together, on Ctrl-C or SIGTERM, or when one of them dies.
import type { startFakeOpenAi } from '../../e2e/lib/fakeOpenAi.mts';
import type { startN8n } from '../../e2e/lib/n8n.mts';
import { describeExit, killTree, type ExitStatus } from '../../e2e/lib/proc.mts';
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
		const running = [
			['n8n', procs.n8n?.stop(15_000)],
			['the sandbox', procs.sandbox?.stop(5_000)],
		] as const;
		const [results] = await Promise.all([
			Promise.allSettled(running.map(([, stopped]) => stopped)),
			procs.model?.close().catch(() => {}), // an in-process server: nothing left behind
		]);
		procs.n8n = undefined;
		procs.sandbox = undefined;
		procs.model = undefined;
		// said once each has exited, so that "stopped" is known, not hoped
		const names: string[] = [];
		let ok = true;
		for (const [i, [name, stopped]] of running.entries()) {
			if (!stopped) continue; // never started
			const result = results[i];
			names.push(name);
			ok &&= result.status === 'fulfilled';
			say(
				result.status === 'fulfilled'
					? `${name} stopped (${describeExit(result.value as ExitStatus)})`
					: `${name} did not stop: ${result.reason}`,
			);
		}
		return { what: names.join(' and '), ok };
	})();
	return stopping;
}

// e2e/lib/n8n.mts SIGKILLs its n8n on SIGINT/SIGTERM and exits at once (right for tests); here n8n
// gets a graceful stop instead, so those handlers are replaced. Its 'exit' hook stays as a backstop.
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
			if (Date.now() - firstAt > 1_000) {
				// second Ctrl-C: no more waiting
				if (procs.n8n) killTree(procs.n8n.process, 'SIGKILL');
				if (procs.sandbox) killTree(procs.sandbox.process, 'SIGKILL');
				process.exit(130);
			}
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
