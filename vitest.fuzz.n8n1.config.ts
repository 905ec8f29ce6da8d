import { defineConfig, mergeConfig } from 'vitest/config';

import n8n1 from './vitest.n8n1.config';

/** `npm run fuzz` on the n8n 1.x engine (see vitest.fuzz.config.ts and vitest.n8n1.config.ts). */
process.env.NUM_RUNS ??= '10000';

const config = mergeConfig(
	n8n1,
	defineConfig({ test: { testTimeout: 6 * 60 * 60_000, hookTimeout: 5 * 60_000 } }),
);
config.test!.include = ['test/fuzz/**/*.test.ts'];
export default config;
