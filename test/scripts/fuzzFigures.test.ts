/**
 * scripts/fuzz-figures.mts records a green `npm run fuzz` from its log and nothing else: both
 * engines' runs in order, every property passed, the same properties on each.
 */
import { describe, expect, it } from 'vitest';

interface Run {
	properties: Array<{ name: string; cases: number; seed: number; tried: Record<string, number> }>;
	durationSeconds: number;
}
interface FuzzFigures {
	parseLog(log: string): Run[];
	renderReadme(runs: Run[], meta: { date: string; commit?: string }): string;
	renderDoc(runs: Run[], meta: { date: string; commit?: string }): string;
}

// A path in a variable: the script is an ES module checked by tsconfig.support.json, not by the
// tests' tsconfig.
const script = '../../scripts/fuzz-figures.mts';
const load = async () => (await import(script)) as FuzzFigures;

const passed = (name: string, seed: number, tried: string) =>
	`[fuzz] passed: "${name}", 10000 case(s), seed ${seed}; tried: ${tried}`;

const INPUTS = 'requests 9, items valid 6000, items invalid 4000, items junk 8000, succeeded 9';
const ANSWERS = 'answers answer 4957, answers mangle 5043, failed clearly 6718';

/** One engine's `vitest run` log, with these property lines. */
function run(
	seed: number,
	seconds: number,
	lines = [
		passed('inputs: Session Get', seed, INPUTS),
		passed('answers: actions', seed + 1, ANSWERS),
	],
): string {
	return [
		'',
		' RUN  v3.2.4 /tmp/fz',
		'',
		`[fuzz] inputs (sessions): seed ${seed}, 10000 case(s) per property (replay: FUZZ_SEED=${seed})`,
		...lines,
		' \x1b[32m✓\x1b[39m test/fuzz/answers.test.ts (1 test) 68104ms',
		'',
		' Test Files  2 passed (2)',
		'      Tests  2 passed (2)',
		`   Duration  ${seconds}.12s (transform 1.2s, setup 0ms, collect 4s, tests ${seconds}s)`,
		'',
	].join('\n');
}

describe('fuzz-figures', () => {
	it('reads both engines, 2.x first, and totals items of input and fuzzed answers', async () => {
		const { parseLog, renderReadme, renderDoc } = await load();
		const runs = parseLog(run(11, 1500) + run(22, 1620));
		expect(runs.map((r) => r.properties.map((p) => p.seed))).toEqual([
			[11, 12],
			[22, 23],
		]);
		const meta = { date: '2026-11-25', commit: 'abc1234' };
		const readme = renderReadme(runs, meta);
		expect(readme).toContain('fresh clone of `abc1234`, 2026-11-25');
		expect(readme).toContain(
			'n8n 2.x: 2 properties × 10,000 cases, all passed (20,000 cases: 18,000 items of input, 10,000 fuzzed answers) in 25 min',
		);
		expect(readme).toContain('n8n 1.x: 2 properties × 10,000 cases, all passed');
		expect(readme).toContain('in 27 min');
		const doc = renderDoc(runs, meta);
		// Inputs first, each with both engines' seeds.
		expect(
			doc.indexOf('| Inputs: Session Get | 10,000 passed (seed 11) | 10,000 passed (seed 22) |'),
		).toBeLessThan(
			doc.indexOf('| Answers: actions | 10,000 passed (seed 12) | 10,000 passed (seed 23) |'),
		);
	});

	it('refuses a log with a failed property, one run only, or different properties per engine', async () => {
		const { parseLog } = await load();
		const failed = run(22, 10, [
			'[fuzz] FAILED: "inputs: Session Get", 13 case(s), seed 22; tried: items valid 3',
		]).replace('2 passed (2)', '1 failed | 1 passed (2)');
		expect(() => parseLog(run(11, 10) + failed)).toThrow('n8n 1.x: failed: inputs: Session Get');
		expect(() => parseLog(run(11, 10))).toThrow('expected 2 vitest runs');
		const cutShort = run(22, 10).split(' Test Files')[0]!;
		expect(() => parseLog(run(11, 10) + cutShort)).toThrow(
			'n8n 1.x: not green (Test Files missing)',
		);
		const fewer = run(22, 10, [passed('inputs: Session Get', 22, 'items valid 1')]);
		expect(() => parseLog(run(11, 10) + fewer)).toThrow('different properties');
	});
});
