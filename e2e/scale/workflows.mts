// The queue-mode tier's workflows: the stream's trigger, and the node that records which n8n
// process ran an execution, added to every workflow the tier runs.
import type { WorkflowWithId } from '../lib/fixtures.mts';
import { PACKAGE_NAME } from '../lib/n8n.mts';

/** Every stream session's name contains this; the trigger filters on it (Name Contains). */
export const MARKER = 'scale-stream';
export const STREAM_WORKFLOW_ID = 'AirSignScaleStrm1';
export const TRIGGER_NAME = 'Session updated';
const RECORDER_NAME = 'Record process';
type Credential = { id: string; name: string };

/**
 * An Execution Data node after the trigger saves `process` = AIRSIGN_SCALE_PROCESS ("main#1",
 * "worker-2", …) as execution metadata: n8n records no worker in its executions. Items pass through.
 */
function withProcessRecorder<W extends WorkflowWithId>(workflow: W): W {
	const wf = structuredClone(workflow);
	const first = wf.nodes.find(
		(n) => n.type === 'n8n-nodes-base.manualTrigger' || n.type === `${PACKAGE_NAME}.airSignTrigger`,
	)!;
	wf.nodes.push({
		parameters: {
			operation: 'save',
			dataToSave: {
				values: [{ key: 'process', value: '={{ $env.AIRSIGN_SCALE_PROCESS }}' }],
			},
		},
		id: 'a1b2c3d4-0000-4000-8000-00000000ec01',
		name: RECORDER_NAME,
		type: 'n8n-nodes-base.executionData',
		typeVersion: 1.1,
		position: [first.position![0] + 110, first.position![1] + 160],
	});
	const connections = wf.connections!;
	connections[RECORDER_NAME] = connections[first.name];
	connections[first.name] = { main: [[{ node: RECORDER_NAME, type: 'main', index: 0 }]] };
	return wf;
}

/** An example as the tier stores it: its process recorded, its AirSign nodes on `credential`. */
export function forCluster<W extends WorkflowWithId>(workflow: W, credential: Credential): W {
	const wf = withProcessRecorder(workflow);
	for (const node of wf.nodes)
		if (node.credentials?.airSignApi) node.credentials.airSignApi = credential;
	return wf;
}

/** The trigger under test: every update of a stream session, one item. */
export function streamWorkflow(credential: Credential): WorkflowWithId {
	const creds = { airSignApi: { id: credential.id, name: credential.name } };
	return withProcessRecorder({
		id: STREAM_WORKFLOW_ID,
		name: 'AirSign scale: every stream session update',
		nodes: [
			{
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					events: ['anyChange'],
					filters: { name: MARKER },
					options: {},
				},
				id: 'a1b2c3d4-0000-4000-8000-00000000ec11',
				name: TRIGGER_NAME,
				type: `${PACKAGE_NAME}.airSignTrigger`,
				typeVersion: 1,
				position: [0, 0],
				credentials: creds,
			},
			{
				// one call per execution on the worker, so that workers too hold tokens that expire
				parameters: {
					resource: 'session',
					operation: 'getMany',
					returnAll: false,
					limit: 1,
					filters: { name: 'scale-probe-matches-nothing' },
					options: {},
				},
				id: 'a1b2c3d4-0000-4000-8000-00000000ec12',
				name: 'Call AirSign from the worker',
				type: `${PACKAGE_NAME}.airSign`,
				typeVersion: 1,
				position: [220, 0],
				executeOnce: true,
				credentials: creds,
			},
		],
		connections: {
			[TRIGGER_NAME]: {
				main: [[{ node: 'Call AirSign from the worker', type: 'main', index: 0 }]],
			},
		},
		settings: { executionOrder: 'v1' },
		active: false,
	});
}
