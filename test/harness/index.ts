/** Runs this package's nodes and credentials through n8n's real engine (see README.md here). */
import './env-setup';
import './regex-engine';

export { binaryInput, binaryItem } from './binary';
export type { HarnessInputItem } from './binary';
export { createTestEnvironment, TestEnvironment, buildAdditionalData } from './environment';
export type { CredentialRef } from './environment';
export { runNode } from './run-node';
export type { RunNodeOptions, RunNodeResult } from './run-node';
export { createPollingHarness } from './poll';
export type { PollHooks, PollingHarness, PollingHarnessOptions, PollResult } from './poll';
export { testCredential } from './credential-test';
export { setSsrfProtection } from './n8n-runtime';
