/**
 * `runNode`: executes one action node inside a real n8n-workflow `Workflow` with
 * n8n-core's `WorkflowExecute`, fed by a source node that emits the test's items.
 */
import './env-setup';

import { WorkflowExecute } from 'n8n-core';
import type {
	ExecutionError,
	NodeApiError,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
	IRunData,
	ITaskData,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData, NodeConnectionTypes, Workflow } from 'n8n-workflow';

import type { HarnessInputItem } from './binary';
import { materializeItem } from './binary';
import type { CredentialRef, TestEnvironment } from './environment';
import { buildAdditionalData, createTestEnvironment } from './environment';
import type { BinaryDataMode } from './n8n-runtime';
import { ensureN8nRuntime, setBinaryDataMode } from './n8n-runtime';
import { fullNodeTypeName, HarnessNodeTypes, latestVersion } from './node-types';

export const SOURCE_NODE_NAME = 'Test Input';
export const SOURCE_NODE_TYPE = 'n8n-nodes-harness.testInput';

export interface RunNodeOptions {
	/** The node type under test (class instance, e.g. `new AirSign()`). */
	nodeType: INodeType | IVersionedNodeType;
	/** Node parameters as saved in a workflow; values may be expressions (`={{ $json.x }}`). */
	parameters?: INodeParameters;
	/**
	 * `node.credentials`: a ref from `env.addCredential(...)`, or plain credential data
	 * (stored in the environment's store for this call).
	 */
	credentials?: Record<string, CredentialRef | ICredentialDataDecryptedObject>;
	/** Simulated n8n instance (credential store shared across calls). Default: a fresh one. */
	env?: TestEnvironment;
	/** Credential types to register in the environment (if not already). */
	credentialTypes?: ICredentialType[];
	/** Items the source node emits (JSON and binary). Default: one empty item. */
	input?: HarnessInputItem[];
	/**
	 * `true` or `'continueRegularOutput'`: node setting "On Error: Continue";
	 * `'continueErrorOutput'`: "Continue (using error output)";
	 * `'legacy'`: the old `continueOnFail: true` node flag. Default: stop on error.
	 */
	continueOnFail?: boolean | 'continueRegularOutput' | 'continueErrorOutput' | 'legacy';
	/** Workflow setting "Timezone". Default 'UTC'. */
	timezone?: string;
	/** n8n binary data mode (N8N_DEFAULT_BINARY_DATA_MODE). Default 'default'. */
	binaryDataMode?: BinaryDataMode;
	/** `node.typeVersion`. Default: the latest version. */
	nodeTypeVersion?: number;
	/** Node name in the workflow. Default 'Node'. */
	nodeName?: string;
	/** Execution mode. Default 'manual' (editor "Execute workflow"); 'trigger' / 'webhook' for production runs. */
	mode?: WorkflowExecuteMode;
	/** Extra workflow settings. */
	settings?: IWorkflowSettings;
}

/** The error a node threw: usually a NodeApiError or NodeOperationError. */
export type HarnessNodeError = Error &
	Partial<
		Pick<NodeApiError, 'httpCode' | 'description' | 'context' | 'node' | 'level' | 'messages'>
	>;

export interface RunNodeResult {
	/** Items per output of the node under test (`outputs[0]` main, `outputs[1]` error output...). */
	outputs: INodeExecutionData[][];
	/** Shorthand for `outputs[0] ?? []`. */
	items: INodeExecutionData[];
	/**
	 * The error the node threw, as the real object (NodeApiError / NodeOperationError
	 * with message, description, httpCode, context...). Undefined when the node
	 * succeeded (also when continueOnFail turned errors into items).
	 */
	error?: HarnessNodeError;
	/**
	 * The error as n8n's engine records it in run data (a plain spread copy of the
	 * error: this is what is saved with the execution and shown in the UI).
	 */
	storedError?: ExecutionError;
	/** The node's task data (first run). */
	taskData?: ITaskData;
	/** Full run data of all nodes. */
	runData: IRunData;
	/** The whole IRun returned by WorkflowExecute. */
	run: IRun;
	/** The node as it sat in the workflow. */
	node: INode;
	/** The workflow (static data, settings...). */
	workflow: Workflow;
	env: TestEnvironment;
}

/** The source node: emits the test's items, materialising binary input with prepareBinaryData. */
export function createSourceNodeType(items: HarnessInputItem[]): INodeType {
	return {
		description: {
			displayName: 'Test Input',
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
				const data = await materializeItem(
					item,
					async (buffer, fileName, mimeType) =>
						await this.helpers.prepareBinaryData(buffer, fileName, mimeType),
				);
				data.pairedItem = { item: 0 };
				out.push(data);
			}
			return [out];
		},
	};
}

function onErrorSettings(option: RunNodeOptions['continueOnFail']): Partial<INode> {
	if (option === true || option === 'continueRegularOutput')
		return { onError: 'continueRegularOutput' };
	if (option === 'continueErrorOutput') return { onError: 'continueErrorOutput' };
	if (option === 'legacy') return { continueOnFail: true };
	return {};
}

/**
 * Executes an action node the way n8n does: a real `Workflow` (Test Input → node),
 * n8n-core's `WorkflowExecute`, parameters and expressions resolved by n8n, credentials
 * loaded/authenticated through the environment's CredentialsHelper. Never throws for
 * node errors: they come back in `error` / `storedError`.
 */
export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	const env = options.env ?? createTestEnvironment();
	for (const type of options.credentialTypes ?? []) {
		if (!env.credentialTypes.has(type.name)) env.credentialTypes.add(type);
	}

	let thrown: unknown;
	const nodeTypes = new HarnessNodeTypes((error) => {
		thrown = error;
	});
	const typeName = fullNodeTypeName(options.nodeType);
	nodeTypes.add(typeName, options.nodeType);

	const nodeName = options.nodeName ?? 'Node';
	const node: INode = {
		id: 'harness-node',
		name: nodeName,
		type: typeName,
		typeVersion: options.nodeTypeVersion ?? latestVersion(options.nodeType),
		position: [200, 0],
		parameters: structuredClone(options.parameters ?? {}),
		...onErrorSettings(options.continueOnFail),
	};
	const nodeCredentials = await env.resolveNodeCredentials(options.credentials);
	if (nodeCredentials) node.credentials = nodeCredentials;

	const settings: IWorkflowSettings = {
		executionOrder: 'v1',
		timezone: options.timezone ?? 'UTC',
		...options.settings,
	};
	const { run, workflow } = await runWorkflow({
		env,
		nodeTypes,
		nodes: [node],
		input: options.input,
		mode: options.mode,
		settings,
		binaryDataMode: options.binaryDataMode,
	});

	const runData = run.data.resultData.runData;
	const taskData = runData[nodeName]?.[0];
	const outputs = (taskData?.data?.main ?? []).map((items) => items ?? []);
	const storedError = taskData?.error ?? run.data.resultData.error;
	const sourceError = runData[SOURCE_NODE_NAME]?.[0]?.error;
	if (sourceError) {
		throw new Error(`The harness input node failed: ${sourceError.message}`, {
			cause: sourceError,
		});
	}
	const error = taskData?.error ? ((thrown as HarnessNodeError) ?? taskData.error) : undefined;

	return {
		outputs,
		items: outputs[0] ?? [],
		error,
		storedError,
		taskData,
		runData,
		run,
		node: workflow.getNode(nodeName)!,
		workflow,
		env,
	};
}

/**
 * Test Input → nodes[0] → … → nodes[n-1] in one `Workflow` run by n8n-core's `WorkflowExecute`:
 * `runNode`'s engine, and the bench's workflows of more than one node (HTTP Request → Split Out).
 */
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
	const settings = options.settings ?? { executionOrder: 'v1', timezone: 'UTC' };
	nodeTypes.add(SOURCE_NODE_TYPE, createSourceNodeType(options.input ?? [{ json: {} }]));
	const sourceNode: INode = {
		id: 'harness-source',
		name: SOURCE_NODE_NAME,
		type: SOURCE_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const nodes = [sourceNode, ...options.nodes];
	const connections = Object.fromEntries(
		nodes
			.slice(1)
			.map((next, i) => [
				nodes[i].name,
				{ main: [[{ node: next.name, type: NodeConnectionTypes.Main, index: 0 }]] },
			]),
	);
	const workflowData: IWorkflowBase = {
		id: 'harness-workflow',
		name: 'Harness workflow',
		active: false,
		isArchived: false,
		nodes,
		connections,
		settings,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as unknown as IWorkflowBase;

	const workflow = new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes,
		connections,
		active: false,
		nodeTypes,
		settings,
		staticData: {},
	});
	const additionalData = await buildAdditionalData({ env, workflowData, mode });

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
