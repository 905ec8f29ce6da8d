/** Runs this package's nodes and credentials through n8n's real engine (see README.md here). */
import './env-setup';

import type { RegexEngine } from 'n8n-workflow';

import { engineRequire } from './engine';

export { binaryInput, binaryItem } from './binary';
export type { HarnessInputItem } from './binary';
export { createTestEnvironment, TestEnvironment, buildAdditionalData } from './environment';
export type { CredentialRef } from './environment';
export { runNode } from './run-node';
export type { RunNodeOptions, RunNodeResult } from './run-node';
export { createPollingHarness } from './poll';
export type { PollHooks, PollingHarness, PollingHarnessOptions, PollResult } from './poll';
export { testCredential } from './environment';
export { setSsrfProtection } from './engine';

// n8n-workflow's regex vm has a 250 ms wall-clock watchdog a loaded machine can outlast: a native
// engine instead, with the same results and no timing.
const { setSafeRegexEngine } = engineRequire('n8n-workflow') as {
	setSafeRegexEngine: (engine: RegexEngine) => void;
};
const withGlobal = (flags = '') => (flags.includes('g') ? flags : `${flags}g`);
setSafeRegexEngine({
	exec: (pattern, input, flags) => new RegExp(pattern, flags).exec(input),
	test: (pattern, input, flags) => new RegExp(pattern, flags).test(input),
	replace: (pattern, input, flags, replacement) =>
		input.replace(new RegExp(pattern, flags), replacement),
	matchAll: (pattern, input, flags) =>
		Array.from(input.matchAll(new RegExp(pattern, withGlobal(flags)))),
	split: (pattern, input, flags) => input.split(new RegExp(pattern, flags)),
});
