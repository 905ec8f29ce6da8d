import { defineConfig } from 'vitest/config';

export default defineConfig({
	test: {
		include: ['test/**/*.test.ts'],
		testTimeout: 30_000,
		hookTimeout: 30_000,
		// Two cores: run files in two processes; each starts its own sandbox on a free port.
		pool: 'forks',
		poolOptions: { forks: { maxForks: 2, minForks: 1 } },
	},
});
