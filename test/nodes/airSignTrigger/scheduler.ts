/**
 * n8n 2.39's database-backed poll scheduler (N8N_SCHEDULER_POLL_TRIGGERS_ENABLED; durable cursors:
 * N8N_POLLER_DURABLE_CURSORS_ENABLED) as a poll node sees it, from n8n/dist: each poll runs on a
 * new Workflow from the database; static data is saved after the activation poll and when a poll
 * emits; with durable cursors the node's state is its `poller_state` row, committed with an
 * emitting poll, or alone after a quiet scheduled one (never the activation's, nor a thrown one's);
 * scheduled polls get `getPollBudgetMs()` (36 s by default), the activation n8n-core's 5 min.
 */
import type { IDataObject } from 'n8n-workflow';

import type { PollResult } from '../../harness';
import type { Sandbox } from '../../../sandbox';
import { newTrigger, type TriggerOptions } from './helpers';

export interface SchedulerOptions extends TriggerOptions {
	durableCursors: boolean;
	/** `getPollBudgetMs()` of scheduled polls; default 36 s, n8n's with its default settings. */
	budgetMs?: number;
}

export interface SchedulerPollOptions {
	/** The poll n8n runs as it activates the workflow (default: the first), and whether n8n saves
	 * the static data after it (default true). */
	activation?: boolean;
	saveAfterActivation?: boolean;
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? {})) as T;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function schedulerTrigger(sandbox: Sandbox, options: SchedulerOptions) {
	/** What n8n's database holds: workflow_entity.staticData and the node's poller_state row. */
	const db: { staticData: IDataObject; cursorRow?: IDataObject } = {
		staticData: clone(options.staticData ?? {}),
	};
	let polls = 0;
	let activationPoll = true;
	let staged: { snapshot: IDataObject; seed: IDataObject } | undefined;
	let unsaved: IDataObject | undefined;

	const trigger = newTrigger(sandbox, {
		...options,
		staticData: db.staticData,
		pollHooks: (workflow, node) => {
			staged = undefined;
			const isActivation = activationPoll;
			return {
				runPoll: async (poll) => {
					if (options.durableCursors) {
						db.cursorRow ??= clone(workflow.getStaticData('node', node));
						staged = { snapshot: clone(db.cursorRow), seed: clone(db.cursorRow) };
					}
					return await poll();
				},
				resolveNodeStaticData: () => staged?.snapshot ?? workflow.getStaticData('node', node),
				commitCursor: async () => {
					if (isActivation || !staged || same(staged.snapshot, staged.seed)) return;
					db.cursorRow = clone(staged.snapshot);
				},
				getPollBudgetMs: isActivation ? undefined : () => options.budgetMs ?? 36_000,
			};
		},
	});

	return {
		db,
		trigger,
		get polls() {
			return polls;
		},
		/** The node's state as n8n would read it at the next poll. */
		nodeState(): IDataObject {
			return options.durableCursors
				? clone(db.cursorRow ?? {})
				: clone((db.staticData['node:Trigger'] as IDataObject | undefined) ?? {});
		},
		async poll(pollOptions: SchedulerPollOptions = {}): Promise<PollResult> {
			const isActivation = pollOptions.activation ?? polls === 0;
			activationPoll = isActivation;
			polls++;
			trigger.restart(db.staticData);
			const result = await trigger.poll();
			if (result.emitted) {
				// __emit: the staged cursor goes with the execution; saveStaticData(workflow)
				if (staged && !same(staged.snapshot, staged.seed)) db.cursorRow = clone(staged.snapshot);
				db.staticData = clone(trigger.staticData);
			}
			if (isActivation) {
				if (pollOptions.saveAfterActivation ?? true) db.staticData = clone(trigger.staticData);
				else unsaved = clone(trigger.staticData);
			}
			return result;
		},
		/** The activator's late `saveStaticData` of a `saveAfterActivation: false` activation. */
		saveActivation(): void {
			if (unsaved) db.staticData = unsaved;
			unsaved = undefined;
		},
	};
}
