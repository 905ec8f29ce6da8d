// Named, timed checks for a tier: a check records PASS/FAIL and never throws (the tier goes on); a
// setup step is timed and throws. Shared by the real-n8n and queue-mode tiers.
export { pollUntil } from './proc.mts';

const secs = (ms: number): string => (ms / 1000).toFixed(1);

/** One check's outcome: its time in seconds and its detail (what it returned, or the error's first line). */
type CheckResult = { name: string; ok: boolean; s: number; detail: unknown };
export type Checks = ReturnType<typeof createChecks>;

/** The results so far (in the order they ended), and two ways to run a timed piece of work. */
export function createChecks(log: (line: string) => void) {
	const results: CheckResult[] = [];

	/** Runs a check; resolves whether it passed (never rejects). `fn` may resolve a detail to print. */
	async function check(name: string, fn: () => unknown): Promise<boolean> {
		const t0 = Date.now();
		const done = (ok: boolean, detail: unknown) =>
			results.push({ name, ok, s: (Date.now() - t0) / 1000, detail });
		try {
			const detail = await fn();
			done(true, detail ?? '');
			log(`PASS ${name} (${secs(Date.now() - t0)} s) ${detail ?? ''}`);
			return true;
		} catch (err) {
			done(false, String(err.message).split('\n')[0]);
			// fetch's "fetch failed" says why only in its cause
			log(
				`FAIL ${name}: ${err.stack ?? err}${err.cause ? `\n  cause: ${err.cause.stack ?? err.cause}` : ''}`,
			);
			return false;
		}
	}

	/** Runs a setup step, logs its time (`log`: with the tier's prefix) and resolves its value. */
	async function step<T>(label: string, fn: () => T | Promise<T>): Promise<T> {
		const t0 = Date.now();
		const value = await fn();
		log(`${label}: ${secs(Date.now() - t0)} s`);
		return value;
	}

	return { results, check, step };
}

/** Prints a tier's summary lines: each check's outcome, time and name, then its detail. */
export function printResults(results: CheckResult[]): void {
	for (const r of results)
		console.log(
			`  ${r.ok ? 'PASS' : 'FAIL'}  ${r.s.toFixed(1).padStart(6)} s  ${r.name}${r.detail ? `\n                  ${r.detail}` : ''}`,
		);
}
