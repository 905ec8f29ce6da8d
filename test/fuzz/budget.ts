/**
 * How many cases each property runs and from which seed: {@link DEFAULT_RUNS} per engine in
 * `npm test`, NUM_RUNS=10000 in `npm run fuzz`. A failure prints its seed and path:
 * FUZZ_SEED=<seed> FUZZ_PATH=<path> replays exactly that case.
 */
import fc from 'fast-check';

/** Cases per property in `npm test`. */
const DEFAULT_RUNS = 100;

function integerFromEnv(name: string): number | undefined {
	const text = process.env[name];
	if (text === undefined || text.trim() === '') return undefined;
	const value = Number(text);
	if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, not "${text}"`);
	return value;
}

export const NUM_RUNS = integerFromEnv('NUM_RUNS') ?? DEFAULT_RUNS;

/** One seed per test process, printed, so that any run can be replayed. */
export const SEED = integerFromEnv('FUZZ_SEED') ?? (Date.now() ^ (process.pid << 8)) | 0;

const PATH = process.env.FUZZ_PATH?.trim() || undefined;

/** What a property's cases tried, by kind, printed with its result (for docs/reliability.md). */
export const tally = new Map<string, number>();
export function count(what: string, n = 1): void {
	tally.set(what, (tally.get(what) ?? 0) + n);
}

/** Runs an async property with the run's seed, cases and replay path; its report says how to replay. */
export async function checkProperty<Ts extends [unknown, ...unknown[]]>(
	property: string,
	check: fc.IAsyncPropertyWithHooks<Ts>,
): Promise<void> {
	await fc.assert(check, {
		numRuns: NUM_RUNS,
		seed: SEED,
		...(PATH !== undefined && { path: PATH }),
		reporter: (details) => {
			const counted = [...tally].map(([what, n]) => `${what} ${n}`).join(', ');
			tally.clear();
			process.stdout.write(
				`[fuzz] ${details.failed ? 'FAILED' : 'passed'}: "${property}", ${details.numRuns} case(s), seed ${details.seed}; tried: ${counted}\n`,
			);
			if (!details.failed) return;
			const replay = `FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath ?? ''}`;
			throw new Error(
				`Property "${property}" failed after ${details.numRuns} case(s). Replay: ${replay}\n${fc.defaultReportMessage(details) ?? ''}`,
				{ cause: details.errorInstance },
			);
		},
	});
}

/** Printed once per file so that a log shows how to replay it. */
export function announce(file: string): void {
	process.stdout.write(
		`[fuzz] ${file}: seed ${SEED}, ${NUM_RUNS} case(s) per property (replay: FUZZ_SEED=${SEED})\n`,
	);
}
