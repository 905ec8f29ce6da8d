/** A poll trigger in one simulated active workflow: n8n-core's `PollContext`, run by engine.ts. */
import './env-setup';

import { AsyncLocalStorage } from 'node:async_hooks';

import { PollContext } from 'n8n-core';
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { createPollTick, ensureN8nRuntime, setBinaryDataMode, type PollTick } from './engine';
import { buildAdditionalData, environmentOf } from './environment';
import { HarnessNodeTypes, type NodeUnderTest } from './node-types';

export interface PollingHarnessOptions extends NodeUnderTest {
	/** 'trigger' (an active workflow; default) or 'manual' ("Fetch test event", a context per poll). */
	mode?: 'trigger' | 'manual';
	workflowId?: string;
	/** As loaded from the database. */
	staticData?: IDataObject;
	/** What n8n 2.x's scheduler passes each poll's own `PollContext` (`getPollBudgetMs: null`:
	 * none, as before n8n 2.9). */
	pollHooks?: (workflow: Workflow, node: INode) => PollHooks;
}

/** PollContext's optional constructor arguments (n8n-core 2.41). */
export interface PollHooks {
	commitCursor?: () => Promise<void>;
	runPoll?: <T>(poll: () => Promise<T>) => Promise<T>;
	resolveNodeStaticData?: () => IDataObject;
	getPollBudgetMs?: (() => number) | null;
}

export interface PollResult {
	response: INodeExecutionData[][] | null;
	items: INodeExecutionData[];
	/** `__emit` was called: n8n would have started an execution. */
	emitted: boolean;
	/** What poll() threw (trigger mode: what n8n hands to `__emitError`). */
	error?: Error;
}

export type PollingHarness = ReturnType<typeof createPollingHarness>;

export function createPollingHarness(options: PollingHarnessOptions) {
	const env = environmentOf(options);
	const mode = options.mode ?? 'trigger';

	const nodeTypes = new HarnessNodeTypes();
	const baseNode = nodeTypes.addNode(options, 'harness-trigger', 'Trigger');
	const nodeName = baseNode.name;
	const settings = { executionOrder: 'v1' as const, timezone: options.timezone ?? 'UTC' };

	let credentialsResolved = false;
	let workflow = newWorkflow(structuredClone(options.staticData ?? {}));
	let polls = 0;

	function newWorkflow(staticData: IDataObject): Workflow {
		return new Workflow({
			id: options.workflowId ?? 'harness-poll-workflow',
			name: 'Harness polling workflow',
			nodes: [structuredClone(baseNode)],
			connections: {},
			active: mode === 'trigger',
			nodeTypes,
			settings,
			staticData,
		});
	}

	/** This activation's context and tick (legacy engine), built at its first poll. */
	let activated: Promise<PollTick> | undefined;
	/** Which poll's result `__emit` and `__emitError` write into, followed across awaits. */
	const currentPoll = new AsyncLocalStorage<PollResult>();

	async function activate(hooks: PollHooks = {}): Promise<PollTick> {
		const node = workflow.getNode(nodeName)!;
		const additionalData = await buildAdditionalData({ env, workflow, mode });
		const pollFunctions = new PollContext(
			workflow,
			node,
			additionalData,
			mode,
			mode === 'manual' ? 'manual' : 'activate',
			(data) => {
				const result = currentPoll.getStore()!;
				result.emitted = true;
				result.response = data;
			},
			(error) => {
				currentPoll.getStore()!.error = error;
			},
			hooks.commitCursor,
			hooks.runPoll,
			hooks.resolveNodeStaticData,
			hooks.getPollBudgetMs ?? undefined,
		);
		if (hooks.getPollBudgetMs === null)
			delete (pollFunctions as { getPollBudgetMs?: unknown }).getPollBudgetMs;
		return createPollTick(workflow, node, pollFunctions);
	}

	return {
		/** One scheduler tick; node errors come back in `error`. */
		async poll(): Promise<PollResult> {
			await ensureN8nRuntime();
			await setBinaryDataMode(options.binaryDataMode ?? 'default');
			if (!credentialsResolved) {
				const creds = await env.resolveNodeCredentials(options.credentials);
				if (creds) {
					baseNode.credentials = creds;
					workflow.getNode(nodeName)!.credentials = creds;
				}
				credentialsResolved = true;
			}
			polls += 1;
			// n8n's legacy engine runs every tick of an activation with one context; the database-backed
			// scheduler (pollHooks) builds one per tick, and each Fetch Test Event is an execution.
			const execute =
				options.pollHooks || mode === 'manual'
					? await activate(options.pollHooks?.(workflow, workflow.getNode(nodeName)!))
					: await (activated ??= activate());
			const result: PollResult = { response: null, items: [], emitted: false };
			try {
				await currentPoll.run(result, async () => await execute(mode === 'manual'));
			} catch (error) {
				result.error = error as Error;
			}
			result.items = result.response?.[0] ?? [];
			return result;
		},
		/** The workflow's static data and this node's (`getWorkflowStaticData('node')`), live. */
		get staticData(): IDataObject {
			return workflow.staticData;
		},
		get nodeStaticData(): IDataObject {
			return workflow.getStaticData('node', workflow.getNode(nodeName)!);
		},
		/** An n8n restart: static data (or `staticData`) through JSON into a new Workflow and context. */
		restart(staticData?: IDataObject): void {
			const saved = JSON.parse(JSON.stringify(staticData ?? workflow.staticData)) as IDataObject;
			delete saved.__dataChanged;
			workflow = newWorkflow(saved);
			activated = undefined;
		},
		get node(): INode {
			return workflow.getNode(nodeName)!;
		},
		env,
		get polls(): number {
			return polls;
		},
	};
}
