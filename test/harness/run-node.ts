/** `runNode`: one action node in a real `Workflow` run by n8n-core's `WorkflowExecute`. */
import './env-setup';

import { WorkflowExecute } from 'n8n-core';
import type {
	NodeApiError,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	IRun,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData, NodeConnectionTypes, Workflow } from 'n8n-workflow';

import type { HarnessInputItem } from './binary';
import { materializeItem } from './binary';
import type { TestEnvironment } from './environment';
import { buildAdditionalData, environmentOf } from './environment';
import { ensureN8nRuntime, setBinaryDataMode, type BinaryDataMode } from './engine';
import { HarnessNodeTypes, type NodeUnderTest } from './node-types';

const SOURCE_NODE_NAME = 'Test Input';
const SOURCE_NODE_TYPE = 'n8n-nodes-harness.testInput';

export interface RunNodeOptions extends NodeUnderTest {
	/** What the source node emits. Default: one empty item. */
	input?: HarnessInputItem[];
	/** "On Error" (ON_ERROR below); 'legacy': the old `continueOnFail: true`. Default: stop. */
	continueOnFail?: boolean | 'continueRegularOutput' | 'continueErrorOutput' | 'legacy';
	/** Default 'manual' (the editor's "Execute workflow"). */
	mode?: WorkflowExecuteMode;
	settings?: IWorkflowSettings;
}

/** The error a node threw: usually a NodeApiError or NodeOperationError. */
export type HarnessNodeError = Error &
	Partial<
		Pick<NodeApiError, 'httpCode' | 'description' | 'context' | 'node' | 'level' | 'messages'>
	>;

export type RunNodeResult = Awaited<ReturnType<typeof runNode>>;

/** The source node: emits the test's items, binary input through prepareBinaryData. */
function sourceNodeType(items: HarnessInputItem[]): INodeType {
	return {
		description: {
			displayName: SOURCE_NODE_NAME,
			name: 'testInput',
			group: ['input'],
			version: 1,
			description: 'Emits the items of a harness test',
			defaults: { name: SOURCE_NODE_NAME },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(this: IExecuteFunctions) {
			const out: INodeExecutionData[] = [];
			for (const item of items) {
				const data = await materializeItem(item, async (...file) =>
					this.helpers.prepareBinaryData(...file),
				);
				out.push({ ...data, pairedItem: { item: 0 } });
			}
			return [out];
		},
	};
}

const ON_ERROR: Record<string, Partial<INode>> = {
	true: { onError: 'continueRegularOutput' },
	continueRegularOutput: { onError: 'continueRegularOutput' },
	continueErrorOutput: { onError: 'continueErrorOutput' },
	legacy: { continueOnFail: true },
};

/** Runs an action node as n8n does (Test Input → node); node errors come back in `error`. */
export async function runNode(options: RunNodeOptions) {
	const env = environmentOf(options);
	let thrown: unknown;
	const nodeTypes = new HarnessNodeTypes((error) => (thrown = error));
	const node: INode = {
		...nodeTypes.addNode(options, 'harness-node', 'Node'),
		...ON_ERROR[String(options.continueOnFail)],
	};
	const credentials = await env.resolveNodeCredentials(options.credentials);
	if (credentials) node.credentials = credentials;

	const { run, workflow } = await runWorkflow({
		...options,
		env,
		nodeTypes,
		nodes: [node],
		settings: { executionOrder: 'v1', timezone: options.timezone ?? 'UTC', ...options.settings },
	});
	const runData = run.data.resultData.runData;
	const sourceError = runData[SOURCE_NODE_NAME]?.[0]?.error;
	if (sourceError) {
		throw new Error(`The harness input node failed: ${sourceError.message}`, {
			cause: sourceError,
		});
	}
	const taskData = runData[node.name]?.[0];
	const outputs = (taskData?.data?.main ?? []).map((items) => items ?? []);
	return {
		/** Items per output of the node (`outputs[1]`: the error output); `items` is `outputs[0]`. */
		outputs,
		items: outputs[0] ?? [],
		/** The error object the node threw; undefined when it succeeded or continued on fail. */
		error: taskData?.error ? ((thrown ?? taskData.error) as HarnessNodeError) : undefined,
		/** The error as the engine records it in run data (what the execution saves and shows). */
		storedError: taskData?.error ?? run.data.resultData.error,
		runData,
		run,
		node: workflow.getNode(node.name)!,
		workflow,
		env,
	};
}

/** Test Input → nodes[0] → … in one `Workflow` run by `WorkflowExecute` (runNode, the bench). */
export async function runWorkflow(options: {
	env: TestEnvironment;
	/** Holds every type of `nodes`; the source node's is added here. */
	nodeTypes: HarnessNodeTypes;
	nodes: INode[];
	input?: HarnessInputItem[];
	mode?: WorkflowExecuteMode;
	settings?: IWorkflowSettings;
	binaryDataMode?: BinaryDataMode;
}): Promise<{ run: IRun; workflow: Workflow }> {
	await ensureN8nRuntime();
	await setBinaryDataMode(options.binaryDataMode ?? 'default');
	const { env, nodeTypes } = options;
	const mode = options.mode ?? 'manual';
	nodeTypes.add(SOURCE_NODE_TYPE, sourceNodeType(options.input ?? [{ json: {} }]));
	const source: INode = {
		id: 'harness-source',
		name: SOURCE_NODE_NAME,
		type: SOURCE_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const nodes = [source, ...options.nodes];
	const main = (next: INode) => [[{ node: next.name, type: NodeConnectionTypes.Main, index: 0 }]];
	const workflow = new Workflow({
		id: 'harness-workflow',
		name: 'Harness workflow',
		nodes,
		connections: Object.fromEntries(
			nodes.slice(1).map((next, i) => [nodes[i].name, { main: main(next) }]),
		),
		active: false,
		nodeTypes,
		settings: options.settings ?? { executionOrder: 'v1', timezone: 'UTC' },
		staticData: {},
	});
	const additionalData = await buildAdditionalData({ env, workflow, mode });
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{
					node: workflow.getNode(SOURCE_NODE_NAME)!,
					data: { main: [[{ json: {} }]] },
					source: null,
				},
			],
		},
	});
	const workflowExecute = new WorkflowExecute(additionalData, mode, runExecutionData);
	return { run: await workflowExecute.processRunExecutionData(workflow), workflow };
}
