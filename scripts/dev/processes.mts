// The processes `npm run dev` (scripts/dev.mts) starts (n8n, the sandbox, the demo model) and how
// they stop: together, on Ctrl-C or SIGTERM, or when one of them dies.
import type { startFakeOpenAi } from '../../e2e/lib/fakeOpenAi.mts';
import type { startN8n } from '../../e2e/lib/n8n.mts';
import { describeExit, onStopSignal } from '../../e2e/lib/proc.mts';
import type { startSandboxProcess } from '../../e2e/lib/sandbox.mts';
import { say } from './lib.mts';

/** The running processes, read where they are used: stopAll() clears them. */
export const procs: {
	sandbox?: Awaited<ReturnType<typeof startSandboxProcess>>;
	n8n?: Awaited<ReturnType<typeof startN8n>>;
	model?: Awaited<ReturnType<typeof startFakeOpenAi>>;
} = {};
let stopping: Promise<boolean> | null = null;
export const isStopping = (): boolean => stopping !== null;
/** Stops them all; resolves whether each has exited, said once it has: "stopped" is known, not hoped. */
export function stopAll(reason?: string): Promise<boolean> {
	stopping ??= (async () => {
		if (reason) say(`${reason}: stopping n8n and the sandbox ...`);
		const { n8n, sandbox, model } = procs;
		procs.n8n = procs.sandbox = procs.model = undefined;
		const stops = [
			{ name: 'n8n', stopped: n8n?.stop(15_000) },
			{ name: 'the sandbox', stopped: sandbox?.stop(5_000) },
		].filter((p) => p.stopped);
		void model?.close().catch(() => {}); // an in-process server: nothing left behind
		const results = await Promise.allSettled(stops.map((p) => p.stopped));
		for (const [i, result] of results.entries())
			say(
				result.status === 'fulfilled'
					? `${stops[i].name} stopped (${describeExit(result.value!)})`
					: `${stops[i].name} did not stop: ${result.reason}`,
			);
		const ok = results.every((r) => r.status === 'fulfilled');
		if (reason && ok) say(stops.length ? 'all stopped.' : 'stopped (nothing had started).');
		return ok;
	})();
	return stopping;
}

/** Ctrl-C or SIGTERM: n8n and the sandbox stop gracefully, then this process exits. */
export const takeOverSignals = (): void =>
	onStopSignal(async (signal) => ((await stopAll(signal)) ? 0 : 1));
