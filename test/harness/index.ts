/**
 * Test harness that runs n8n nodes and credentials through n8n's REAL execution engine
 * (n8n-core `WorkflowExecute`, `PollContext`, `RoutingNode`, n8n-workflow `Workflow` and
 * expressions). See README.md in this folder.
 *
 * Import this module FIRST in a test file (before node or n8n-workflow imports): it
 * makes vitest hand everyone the same (CommonJS) n8n-workflow that n8n-core uses.
 */
import './cjs-n8n-workflow';
import './env-setup';
import './regex-engine';

/** Binary input: `binaryItem(buffer, { fileName, mimeType })` / `binaryInput(...)` for `runNode` input items. */
export { binaryInput, binaryItem } from './binary';
export type { BinaryInput, HarnessInputItem } from './binary';

/** Credential store, credential type registry and the CLI-like CredentialsHelper. */
export { HarnessCredentialsHelper } from './credentials';
export { CredentialStore, CredentialTypeRegistry } from './credentialStore';
export type { CredentialStoreCounters, StoredCredentialRow } from './credentialStore';

/** `createTestEnvironment({ credentialTypes })`: one simulated n8n instance (shared credential store). */
export { createTestEnvironment, TestEnvironment, buildAdditionalData } from './environment';
export type { CredentialRef, TestEnvironmentOptions } from './environment';

/** `runNode(options)`: execute an action node in a real workflow via WorkflowExecute. */
export { runNode, SOURCE_NODE_NAME } from './run-node';
export type { HarnessNodeError, RunNodeOptions, RunNodeResult } from './run-node';

/** `createPollingHarness(options)`: one simulated active workflow around a polling trigger; `await h.poll()`, `h.staticData`. */
export { createPollingHarness } from './poll';
export type { PollHooks, PollingHarness, PollingHarnessOptions, PollResult } from './poll';

/** `testCredential({ type, credentials, env })`: the credential modal's Test button (CLI CredentialsTester). */
export { testCredential } from './credential-test';
export type { TestCredentialOptions, TestCredentialResult } from './credential-test';

/** n8n runtime switches: binary data mode and SSRF protection (n8n's own settings). */
export { ensureN8nRuntime, setBinaryDataMode, setSsrfProtection } from './n8n-runtime';
export type { BinaryDataMode } from './n8n-runtime';
