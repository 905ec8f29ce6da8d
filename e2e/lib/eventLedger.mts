// What the executions of an active workflow delivered, read from a running n8n: one ledger per
// workflow of the events track (e2e/lib/events.mts), and the wait for what a phase must cause.
import { getExecution, hasEnded, listExecutions } from './n8n.mts';
import { pollUntil } from './checks.mts';
import type { ExampleWorkflow } from './examples.mts';

/** An item of a trigger's session event (docs/trigger.md), as the checks read it. */
export interface SessionEventItem {
	event: string;
	sessionId: string;
	name: string;
	status: string;
	previousStatus?: string;
	previousStatusSeenAt?: string;
}

/** An item of Recipient Status Changed: the session's fields and the recipient that changed. */
export interface RecipientEventItem extends SessionEventItem {
	recipient: { name: string; email: string; status: string; previousStatus: string };
}

/** An item of the node after the trigger (the examples' Set node composing the message). */
type ComposedMessage = Partial<
	Record<'sessionId' | 'message' | 'to' | 'signerEmail' | 'subject', string>
>;

/** What the executions of one active workflow delivered, as read from n8n so far. */
export type ExecutionLedger<T extends SessionEventItem> = ReturnType<typeof executionLedger<T>>;

export const triggerOf = (wf: ExampleWorkflow) =>
	wf.nodes.find((n) => n.type.endsWith('.airSignTrigger'))!;
/** The node the trigger feeds (a workflow's connections: per node, per output, its targets). */
const nextOf = (wf: ExampleWorkflow) =>
	(wf.connections![triggerOf(wf).name] as { main: { node: string }[][] }).main[0][0].node;

/** Per execution of an active workflow: mode, status, the trigger's items and the next node's. */
export function executionLedger<T extends SessionEventItem>({
	instance,
	cookie,
	workflow,
}: {
	instance: { url: string };
	cookie: string;
	workflow: ExampleWorkflow;
}) {
	// execution id → its mode, status, error, the trigger's items and the next node's
	const seen = new Map<
		string,
		{
			id: string;
			mode: string;
			status: string;
			error?: string;
			items: T[];
			composed: ComposedMessage[];
		}
	>();
	const trigger = triggerOf(workflow).name;
	const next = nextOf(workflow);
	return {
		workflow,
		executions: () => [...seen.values()],
		items: () => [...seen.values()].flatMap((e) => e.items),
		/** Reads the executions n8n has finished since the last call. */
		async refresh() {
			for (const summary of await listExecutions(instance.url, cookie, {
				workflowId: workflow.id,
			})) {
				if (seen.has(summary.id) || !hasEnded(summary)) continue;
				const full = await getExecution(instance.url, cookie, summary.id);
				const run = full.data.resultData.runData;
				const out = (name: string) =>
					(run[name]?.[0]?.data?.main?.[0] ?? []).map((i): unknown => i.json);
				seen.set(summary.id, {
					id: summary.id,
					mode: summary.mode,
					status: summary.status,
					error: full.data.resultData.error?.message,
					// the items as the trigger and the Set node shape them (docs/trigger.md, the examples)
					items: out(trigger) as T[],
					composed: out(next) as ComposedMessage[],
				});
			}
		},
	};
}

/** Waits until `done()` holds for the ledgers (read each second); `describe()`: what is missing. */
export async function waitFor(
	ledgers: ExecutionLedger<SessionEventItem>[],
	done: () => boolean,
	describe: () => string,
	deadline: number,
): Promise<void> {
	await pollUntil(
		async () => {
			for (const ledger of ledgers) await ledger.refresh();
			const failed = ledgers.flatMap((l) => l.executions()).find((e) => e.status !== 'success');
			if (failed) throw new Error(`execution ${failed.id} ended ${failed.status}: ${failed.error}`);
			return done();
		},
		() => `within the time limit, ${describe()}`,
		{ timeoutMs: deadline - Date.now(), everyMs: 1_000 },
	);
}
