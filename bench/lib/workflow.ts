/**
 * A chain of nodes (Test Input → first → … → last) run by n8n-core's `WorkflowExecute`, the way
 * the harness's `runNode` runs one node: the peer workflows a user would build from n8n's own
 * nodes (Extract From File → HTTP Request, HTTP Request → Split Out) need more than one node.
 */
import { WorkflowExecute } from 'n8n-core';
import type {
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowSettings,
} from 'n8n-workflow';
import { createRunExecutionData, NodeConnectionTypes, Workflow } from 'n8n-workflow';

import type { HarnessInputItem } from '../../test/harness/binary';
import type { CredentialRef, TestEnvironment } from '../../test/harness/environment';
import { buildAdditionalData } from '../../test/harness/environment';
import { ensureN8nRuntime, setBinaryDataMode } from '../../test/harness/n8n-runtime';
import { HarnessNodeTypes, latestVersion } from '../../test/harness/node-types';
import {
	createSourceNodeType,
	SOURCE_NODE_NAME,
	SOURCE_NODE_TYPE,
} from '../../test/harness/run-node';

export interface ChainNode {
	name: string;
	/** Full type name as in a saved workflow, e.g. `n8n-nodes-base.httpRequest`. */
	type: string;
	nodeType: INodeType | IVersionedNodeType;
	typeVersion?: number;
	parameters: INodeParameters;
	credentials?: Record<string, CredentialRef>;
}

export interface ChainResult {
	/** The last node's main output. */
	items: INodeExecutionData[];
	/** Items each node put out (main output 0), by node name. */
	itemsByNode: Record<string, INodeExecutionData[]>;
}

export async function runChain(
	env: TestEnvironment,
	chain: ChainNode[],
	input: HarnessInputItem[] = [{ json: {} }],
	binaryDataMode: 'default' | 'filesystem' = 'default',
): Promise<ChainResult> {
	await ensureN8nRuntime();
	await setBinaryDataMode(binaryDataMode);
	const nodeTypes = new HarnessNodeTypes();
	nodeTypes.add(SOURCE_NODE_TYPE, createSourceNodeType(input));
	const nodes: INode[] = [
		{
			id: 'source',
			name: SOURCE_NODE_NAME,
			type: SOURCE_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
	];
	const connections: Record<
		string,
		{ main: Array<Array<{ node: string; type: 'main'; index: number }>> }
	> = {};
	let previous = SOURCE_NODE_NAME;
	for (const [index, step] of chain.entries()) {
		nodeTypes.add(step.type, step.nodeType);
		nodes.push({
			id: `node-${index}`,
			name: step.name,
			type: step.type,
			typeVersion: step.typeVersion ?? latestVersion(step.nodeType),
			position: [200 * (index + 1), 0],
			parameters: structuredClone(step.parameters),
			...(step.credentials && { credentials: step.credentials }),
		});
		connections[previous] = {
			main: [[{ node: step.name, type: NodeConnectionTypes.Main, index: 0 }]],
		};
		previous = step.name;
	}
	const settings: IWorkflowSettings = { executionOrder: 'v1', timezone: 'UTC' };
	const workflowData = {
		id: 'bench-peer-workflow',
		name: 'Bench peer workflow',
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
	const additionalData = await buildAdditionalData({ env, workflowData, mode: 'manual' });
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
	const run = await new WorkflowExecute(
		additionalData,
		'manual',
		runExecutionData,
	).processRunExecutionData(workflow);
	const runData = run.data.resultData.runData;
	for (const node of nodes) {
		const error = runData[node.name]?.[0]?.error;
		if (error)
			throw new Error(`${node.name} failed: ${error.message} ${error.description ?? ''}`, {
				cause: error,
			});
	}
	const itemsByNode = Object.fromEntries(
		nodes.map((node) => [node.name, runData[node.name]?.[0]?.data?.main?.[0] ?? []]),
	);
	return { items: itemsByNode[previous], itemsByNode };
}
