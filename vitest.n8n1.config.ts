import { createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig, mergeConfig } from 'vitest/config';

import base from './vitest.config';

// The engine tests on the engine that n8n 1.123.81 pins (see test/harness/engine.ts). The test
// workers inherit this variable; the aliases send every import of the engine's packages by the
// tests and the nodes to the copies n8n-core 1.x itself loads, so that there is one copy of each,
// as in a real n8n.
process.env.AIRSIGN_TEST_ENGINE = 'n8n-1';
const engineRequire = createRequire(require.resolve('n8n-core-v1/package.json'));
const packageDir = (name: string) => path.dirname(engineRequire.resolve(`${name}/package.json`));

export default mergeConfig(
	base,
	defineConfig({
		resolve: {
			alias: {
				'n8n-core': path.dirname(require.resolve('n8n-core-v1/package.json')),
				'n8n-workflow': engineRequire.resolve('n8n-workflow'),
				'@n8n/di': packageDir('@n8n/di'),
				'@n8n/config': packageDir('@n8n/config'),
				'@n8n/backend-common': packageDir('@n8n/backend-common'),
			},
		},
		test: {
			// The engine tests; the sandbox's own conformance tests do not involve n8n.
			include: [
				'test/nodes/**/*.test.ts',
				'test/credentials/**/*.test.ts',
				'test/harness/**/*.test.ts',
				'test/fuzz/**/*.test.ts',
			],
			// n8n 2.x's database-backed poll scheduler and its poll time budget (getPollBudgetMs) do
			// not exist in n8n 1.x: there the trigger runs as in every other poll test.
			exclude: ['test/nodes/airSignTrigger/scheduler.test.ts'],
		},
	}),
);
