import { defineConfig, mergeConfig } from 'vitest/config';

import base from './vitest.config';

/**
 * `npm run fuzz`: the property-based tests of test/fuzz alone, 10,000 cases per property unless
 * NUM_RUNS says otherwise (FUZZ_SEED replays a run: test/fuzz/budget.ts). Not part of `npm test`,
 * which runs the same properties with a few hundred cases.
 */
process.env.NUM_RUNS ??= '10000';

const config = mergeConfig(
	base,
	defineConfig({
		test: {
			// Hang detectors only: 10,000 cases of a property take many minutes on a busy machine.
			testTimeout: 6 * 60 * 60_000,
			hookTimeout: 5 * 60_000,
		},
	}),
);
// mergeConfig would add to the base's list; the fuzz run is these files only.
config.test!.include = ['test/fuzz/**/*.test.ts'];
export default config;
