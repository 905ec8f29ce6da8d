import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { inputError } from '../errors/inputError';
import { serviceCodeOf } from '../errors/nodeError';
import { asNodeError } from '../errors/unexpected';
import { DEFAULT_ITEMS_AT_ONCE, MAX_ITEMS_AT_ONCE } from '../helpers/constants';
import type { RequestPool } from '../transport/pool';
import { NotRun, openPool } from '../transport/pool';
import * as file from './file/File.resource';
import type { ItemIdentity } from './itemIdentity';
import * as session from './session/Session.resource';
import * as template from './template/Template.resource';
import { isToolCall } from './toolCall';

interface Operation {
	description: INodeProperties[];
	itemsAtOnce?: boolean;
	execute: (this: IExecuteFunctions, itemIndex: number) => Promise<IDataObject[]>;
	identify?: ItemIdentity;
}

const operations: Record<string, Record<string, Operation>> = {
	file: { upload: file.upload },
	session: {
		create: session.create,
		createFromTemplate: session.createFromTemplate,
		get: session.get,
		getMany: session.getMany,
		send: session.send,
		sendInvitation: session.sendInvitation,
	},
	template: {
		create: template.create,
		get: template.get,
		getMany: template.getMany,
	},
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const chosen = operations[resource]?.[operation];
	if (!chosen) {
		throw inputError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}

	const atOnce = chosen.itemsAtOnce ? readItemsAtOnce(this) : 1;
	const continueOnFail = this.continueOnFail() || isToolCall(this);
	const pool = openPool(this, atOnce);
	const outcomes = await runItems(items.length, pool, async (itemIndex) => {
		const outcome = await runItem(this, chosen, itemIndex, continueOnFail);
		if (outcome && 'failed' in outcome) pool.stopAfter(itemIndex);
		return outcome;
	});

	const failedAt = outcomes.findIndex((outcome) => outcome !== undefined && 'failed' in outcome);
	if (failedAt !== -1) {
		const { failed } = outcomes[failedAt] as { failed: NodeApiError | NodeOperationError };
		throw withItemsRunAfter(failed, outcomes, failedAt, atOnce);
	}
	return [outcomes.flatMap((outcome) => (outcome && 'output' in outcome ? outcome.output : []))];
}

async function runItems(
	count: number,
	pool: RequestPool,
	runOne: (itemIndex: number) => Promise<ItemOutcome | undefined>,
): Promise<Array<ItemOutcome | undefined>> {
	const outcomes = new Array<ItemOutcome | undefined>(count);
	let next = 0;
	const lane = async () => {
		while (next < count && pool.mayStart(next)) {
			const itemIndex = next++;
			outcomes[itemIndex] = await runOne(itemIndex);
			pool.itemEnded();
		}
	};
	await Promise.all(Array.from({ length: Math.min(pool.itemsAtOnce, count) }, lane));
	return outcomes;
}

type ItemOutcome = { output: INodeExecutionData[] } | { failed: NodeApiError | NodeOperationError };

async function runItem(
	ctx: IExecuteFunctions,
	chosen: Operation,
	itemIndex: number,
	continueOnFail: boolean,
): Promise<ItemOutcome | undefined> {
	try {
		const results = await chosen.execute.call(ctx, itemIndex);
		return {
			output: ctx.helpers.constructExecutionMetaData(ctx.helpers.returnJsonArray(results), {
				itemData: { item: itemIndex },
			}),
		};
	} catch (error) {
		if (error instanceof NotRun) return undefined;
		const nodeError = asNodeError(ctx.getNode(), error, itemIndex);
		if (!continueOnFail) return { failed: nodeError };
		const code = serviceCodeOf(nodeError);
		return {
			output: [
				{
					json: {
						// What the item was about first, so that its row in n8n's output table shows
						// the session (file, template) next to the error instead of empty columns.
						...chosen.identify?.call(ctx, itemIndex),
						error: nodeError.message,
						...(code !== undefined && { code }),
						...(nodeError.description && { description: nodeError.description }),
						...(error.httpCode && { httpCode: error.httpCode }),
					},
					pairedItem: { item: itemIndex },
					// "Continue (using error output)" moves an item to the error output only when it
					// carries `error` (n8n then keeps only json.error); the regular output keeps the
					// description and httpCode in json.
					...(ctx.getNode().onError === 'continueErrorOutput' && { error: nodeError }),
				},
			],
		};
	}
}

function withItemsRunAfter(
	failure: NodeApiError | NodeOperationError,
	outcomes: Array<ItemOutcome | undefined>,
	failedIndex: number,
	atOnce: number,
) {
	const ranAfter = outcomes
		.map((outcome, itemIndex) =>
			outcome !== undefined && itemIndex > failedIndex ? itemIndex : -1,
		)
		.filter((itemIndex) => itemIndex !== -1);
	if (ranAfter.length === 0) return failure;
	const note = `With "Items at Once" at ${atOnce}, the items at index ${ranAfter.join(', ')} ran beside it before it failed, so their requests may have reached AirSign; check them before running again.`;
	failure.description = failure.description ? `${failure.description} ${note}` : note;
	return failure;
}

function readItemsAtOnce(ctx: IExecuteFunctions): number {
	const value = ctx.getNodeParameter('options.itemsAtOnce', 0, DEFAULT_ITEMS_AT_ONCE) as unknown;
	if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > MAX_ITEMS_AT_ONCE) {
		throw inputError(
			ctx.getNode(),
			`"Items at Once" must be a whole number from 1 to ${MAX_ITEMS_AT_ONCE}; it is ${JSON.stringify(value)}`,
			{ itemIndex: 0 },
		);
	}
	return value as number;
}
