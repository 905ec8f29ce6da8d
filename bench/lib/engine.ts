// The project's engine harness, module by module. env-setup first: n8n reads process.env as its DI
// starts.
import '../../test/harness/env-setup';

import type {
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	IVersionedNodeType,
} from 'n8n-workflow';

import type { HarnessInputItem } from '../../test/harness/binary';
import { createTestEnvironment } from '../../test/harness/environment';
import type { CredentialRef, TestEnvironment } from '../../test/harness/environment';
import { HarnessNodeTypes, latestVersion } from '../../test/harness/node-types';
import { createPollingHarness } from '../../test/harness/poll';
import type { PollingHarness } from '../../test/harness/poll';
import { runNode, runWorkflow } from '../../test/harness/run-node';
import type { RunNodeOptions, RunNodeResult } from '../../test/harness/run-node';

import { AirSignApi } from '../../credentials/AirSignApi.credentials';
import { AirSign } from '../../nodes/AirSign/AirSign.node';
import { AirSignTrigger } from '../../nodes/AirSign/AirSignTrigger.node';

export { binaryItem } from '../../test/harness/binary';

export interface EngineContext {
	env: TestEnvironment;
	credential: CredentialRef;
}

/** One simulated n8n instance, one AirSign credential in Client Credentials mode (token kept). */
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

/** The AirSign node in a workflow, its execute() timed; `onStart` runs first inside execute(). */
export async function runAirSign(
	engine: EngineContext,
	options: Omit<RunNodeOptions, 'nodeType' | 'env' | 'credentials'>,
	onStart?: () => void,
): Promise<RunNodeResult & { executeMs: number }> {
	const inner = new AirSign();
	let executeMs = Number.NaN;
	const nodeType: INodeType = {
		description: inner.description,
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			onStart?.();
			const start = performance.now();
			try {
				return await inner.execute.call(this);
			} finally {
				executeMs = performance.now() - start;
			}
		},
	};
	const result = await runNode({
		...options,
		nodeType,
		env: engine.env,
		credentials: { airSignApi: engine.credential },
	});
	if (result.error)
		throw new Error(`AirSign node failed: ${result.error.message}`, { cause: result.error });
	return { ...result, executeMs };
}

/** A node as saved in a workflow (`type`: the full name, e.g. `n8n-nodes-base.httpRequest`), and its type. */
export type ChainNode = Pick<INode, 'name' | 'type' | 'parameters' | 'credentials'> & {
	nodeType: INodeType | IVersionedNodeType;
};

/** Test Input → chain[0] → … in the harness's `runWorkflow`; the last node's items. Throws on a node's error. */
export async function runChain(
	env: TestEnvironment,
	chain: ChainNode[],
	input?: HarnessInputItem[],
	binaryDataMode: 'default' | 'filesystem' = 'default',
): Promise<INodeExecutionData[]> {
	const nodeTypes = new HarnessNodeTypes();
	const nodes = chain.map((step, index) => {
		nodeTypes.add(step.type, step.nodeType);
		return {
			id: `node-${index}`,
			name: step.name,
			type: step.type,
			typeVersion: latestVersion(step.nodeType),
			position: [200 * (index + 1), 0] as [number, number],
			parameters: structuredClone(step.parameters),
			...(step.credentials && { credentials: step.credentials }),
		};
	});
	const { run } = await runWorkflow({ env, nodeTypes, nodes, input, binaryDataMode });
	const runData = run.data.resultData.runData;
	for (const [name, tasks] of Object.entries(runData)) {
		const error = tasks[0]?.error;
		if (error)
			throw new Error(`${name} failed: ${error.message} ${error.description ?? ''}`, {
				cause: error,
			});
	}
	return runData[chain[chain.length - 1].name]?.[0]?.data?.main?.[0] ?? [];
}

/** Default events: Any Change, one item per state read (the trigger section's figures). */
export function triggerHarness(
	engine: EngineContext,
	parameters: Record<string, unknown> = {},
): PollingHarness {
	return createPollingHarness({
		nodeType: new AirSignTrigger(),
		env: engine.env,
		credentials: { airSignApi: engine.credential },
		parameters: { events: ['anyChange'], ...parameters } as never,
	});
}
