// What the trigger delivered, from PostgreSQL: the stream's executions, their trigger items, and
// which process ran each.
import { hasEnded, parseFlatted } from '../lib/n8n.mts';
import { ctx } from './cluster.mts';
import { STREAM_WORKFLOW_ID, TRIGGER_NAME } from './workflows.mts';

/** A row of n8n's execution_entity (a type: rows need an index signature). */
type ExecutionRow = {
	id: number | string;
	mode: string;
	status: string;
	createdAt: Date | string;
	startedAt: Date | string | null;
	stoppedAt: Date | string | null;
};

type TriggerItem = { json: DeliveredItem };

/** Where a stored execution keeps the trigger's items. */
interface StoredRun {
	resultData?: {
		metadata?: Record<string, string>;
		runData?: Record<string, { data?: { main?: (TriggerItem[] | null)[] } }[]>;
	};
	executionData?: {
		nodeExecutionStack?: { node?: { name: string }; data?: { main?: (TriggerItem[] | null)[] } }[];
	};
}

type DeliveredItem = { sessionId: string; updatedAt: string; status: string; name: string };

export interface Delivery {
	id: number;
	status: string;
	mode: string;
	createdAt: number;
	/** Who ran it (the Execution Data node's `process`), once it has ended. */
	process: string | undefined;
	items: DeliveredItem[] | undefined;
}

async function executionRows(workflowId: string): Promise<ExecutionRow[]> {
	return await ctx.pg!.query<ExecutionRow>(
		`select id, mode, status, "createdAt", "startedAt", "stoppedAt" from execution_entity
		 where "workflowId" = $1 order by id`,
		[workflowId],
	);
}

async function executionRun(id: number): Promise<StoredRun | undefined> {
	const [row] = await ctx.pg!.query<{ data: string }>(
		'select data from execution_data where "executionId" = $1',
		[id],
	);
	return row ? (parseFlatted(row.data) as StoredRun) : undefined;
}

/**
 * The `process` the Execution Data node set, from the run data: n8n saves it with the end status in
 * one transaction, while its execution_metadata row is a later write whose failure n8n only logs.
 */
export const recordedProcess = (run: StoredRun | undefined): string | undefined =>
	run?.resultData?.metadata?.process;

/**
 * Every execution of the stream workflow with its trigger items: first on the execution stack,
 * then in the run data.
 */
export const deliveries = new Map<number, Delivery>(); // execution id → delivery
export async function refreshDeliveries(): Promise<Map<number, Delivery>> {
	for (const row of await executionRows(STREAM_WORKFLOW_ID)) {
		const id = Number(row.id);
		const d = deliveries.get(id) ?? ({ id, items: undefined, process: undefined } as Delivery);
		d.status = row.status;
		d.mode = row.mode;
		d.createdAt = new Date(row.createdAt).getTime();
		const needsProcess = hasEnded(d) && d.process === undefined;
		if (d.items === undefined || needsProcess) {
			const run = await executionRun(id);
			if (needsProcess) d.process = recordedProcess(run);
			const fromRun = run?.resultData?.runData?.[TRIGGER_NAME]?.[0]?.data?.main?.[0];
			const fromStack = run?.executionData?.nodeExecutionStack?.find(
				(e) => e.node?.name === TRIGGER_NAME,
			)?.data?.main?.[0];
			const items = fromRun ?? fromStack;
			if (items && d.items === undefined)
				d.items = items.map(({ json: { sessionId, updatedAt, status, name } }) => ({
					sessionId,
					updatedAt,
					status,
					name,
				}));
		}
		deliveries.set(id, d);
	}
	return deliveries;
}

/** One state of a session: its id and the instant of its `updatedAt`. */
export const stateKey = (sessionId: string, updatedAt: string): string =>
	`${sessionId}@${Date.parse(updatedAt)}`;

/** How many times each state (stateKey) arrived. */
export function deliveredCounts(): Map<string, number> {
	const counts = new Map<string, number>();
	for (const d of deliveries.values())
		for (const item of d.items ?? []) {
			const key = stateKey(item.sessionId, item.updatedAt);
			counts.set(key, (counts.get(key) ?? 0) + 1);
		}
	return counts;
}
