/**
 * The n8n side of the benches: the project's engine harness (n8n-core WorkflowExecute,
 * PollContext), imported module by module.
 *
 * Why not `test/harness/index.ts`: it starts with `cjs-n8n-workflow.ts`, which calls
 * vitest's `vi.mock` and so throws outside vitest. That module only exists to make
 * vitest hand out the CommonJS n8n-workflow. Under plain `tsx` this project is
 * CommonJS (no "type": "module"), every `import 'n8n-workflow'` becomes a `require`
 * and already gets the CJS build n8n-core uses, so the rest of the harness works as is.
 * `env-setup` must still come first (n8n reads process.env when its DI container
 * builds its configuration objects).
 */
import '../../test/harness/env-setup';

import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import { createTestEnvironment } from '../../test/harness/environment';
import type { CredentialRef, TestEnvironment } from '../../test/harness/environment';
import { runNode } from '../../test/harness/run-node';
import type { RunNodeOptions, RunNodeResult } from '../../test/harness/run-node';
import { createPollingHarness } from '../../test/harness/poll';
import type { PollingHarness } from '../../test/harness/poll';
import { binaryItem } from '../../test/harness/binary';
import type { HarnessInputItem } from '../../test/harness/binary';

import { AirSignApi } from '../../credentials/AirSignApi.credentials';
import { AirSign } from '../../nodes/AirSign/AirSign.node';
import { AirSignTrigger } from '../../nodes/AirSign/AirSignTrigger.node';

export { binaryItem, runNode, createPollingHarness };
export type { HarnessInputItem, PollingHarness, RunNodeResult };

export interface EngineContext {
	env: TestEnvironment;
	credential: CredentialRef;
}

/**
 * One simulated n8n instance with one AirSign credential in "Client Credentials" mode
 * (the recommended one): n8n fetches the token once and keeps it in the credential.
 */
export async function createEngine(
	baseUrl: string,
	clientId: string,
	clientSecret: string,
): Promise<EngineContext> {
	const env = createTestEnvironment({ credentialTypes: [new AirSignApi()] });
	const credential = await env.addCredential('airSignApi', {
		authentication: 'clientCredentials',
		clientId,
		clientSecret,
		baseUrl,
	});
	return { env, credential };
}

export interface ExecuteTiming {
	/** Wall time of AirSign.execute() alone (the engine's work around it excluded). */
	executeMs: number;
}

/**
 * The AirSign node with a stopwatch around execute() (same description, same code),
 * so a run reports both the whole workflow and the node's own share. `onStart` runs
 * first thing inside execute() (the memory bench takes its idle level there).
 */
export function timedAirSign(timing: ExecuteTiming, onStart?: () => void): INodeType {
	const inner = new AirSign();
	return {
		description: inner.description,
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			onStart?.();
			const start = performance.now();
			try {
				return await inner.execute.call(this);
			} finally {
				timing.executeMs = performance.now() - start;
			}
		},
	};
}

export async function runAirSign(
	engine: EngineContext,
	options: Omit<RunNodeOptions, 'nodeType' | 'env' | 'credentials'>,
	onStart?: () => void,
): Promise<RunNodeResult & { executeMs: number }> {
	const timing: ExecuteTiming = { executeMs: Number.NaN };
	const result = await runNode({
		...options,
		nodeType: timedAirSign(timing, onStart),
		env: engine.env,
		credentials: { airSignApi: engine.credential },
	});
	if (result.error)
		throw new Error(`AirSign node failed: ${result.error.message}`, { cause: result.error });
	return { ...result, executeMs: timing.executeMs };
}

export function triggerHarness(
	engine: EngineContext,
	/** Default events: Any Change, one item per state read (the trigger section's figures). */
	parameters: Record<string, unknown> = {},
): PollingHarness {
	return createPollingHarness({
		nodeType: new AirSignTrigger(),
		env: engine.env,
		credentials: { airSignApi: engine.credential },
		parameters: { events: ['anyChange'], ...parameters } as never,
	});
}
