// The queue-mode tier's log, timed from its start, and its summary: the checks' PASS/FAIL and facts.
import { createChecks, printResults } from '../lib/checks.mts';

const t00 = Date.now();
export const facts: string[] = [];
export const secs = (ms: number): string => (ms / 1000).toFixed(1);
export function log(msg: string): void {
	process.stdout.write(`[scale +${secs(Date.now() - t00)}s] ${msg}\n`);
}
/** Checks record PASS/FAIL with their time and never throw; setup steps are timed and throw. */
export const { results, check, step } = createChecks(log);

/** Prints the summary; true when the tier failed (`fatal`, a check missing, or one failed). */
export function printSummary({ short, fatal }: { short: boolean; fatal: unknown }): boolean {
	console.log(`\n[scale] queue-mode summary${short ? ' (--short)' : ''}`);
	printResults(results);
	for (const f of facts) console.log(`  ${f}`);
	const failed = Boolean(fatal) || results.length < 6 || results.some((r) => !r.ok);
	console.log(`  ${failed ? 'FAILED' : 'ALL PASSED'} in ${secs(Date.now() - t00)} s`);
	return failed;
}
