import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
	resolve: {
		alias: {
			// n8n-core loads n8n-workflow's CommonJS build; without this alias vitest would
			// hand the tests and nodes the ES-module build, a second copy whose error classes
			// fail every `instanceof` check against the engine's. n8n itself has one copy.
			'n8n-workflow': require.resolve('n8n-workflow'),
		},
	},
	test: {
		include: ['test/**/*.test.ts'],
		// Hang detectors, not speed limits: CI's machine may be busy (no test depends on timing).
		testTimeout: 5 * 60_000,
		hookTimeout: 5 * 60_000,
		// Two cores: run files in two processes; each starts its own sandbox on a free port.
		pool: 'forks',
		poolOptions: { forks: { maxForks: 2, minForks: 1 } },
		// A process runs its files one after another with one module cache: n8n's engine loads
		// once per process, not once per file (unit tests 415 s → 128 s). Safe because the nodes
		// keep nothing in memory between calls and the harness undoes what a test changes (fake
		// Date after each test, SSRF protection, spies); CONTRIBUTING says so for new tests.
		isolate: false,
	},
});
