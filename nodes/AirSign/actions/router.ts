import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { asNodeError, inputError, serviceCodeOf } from '../errors/nodeError';
import { DEFAULT_ITEMS_AT_ONCE, MAX_ITEMS_AT_ONCE } from '../helpers/constants';
import { withUtcTimestamps } from '../helpers/dates';
import { NotRun, openPool } from '../transport/pool';
import type { ItemIdentity } from './itemIdentity';
import { outputShaper, type ShapedPage } from './output';
import { resources } from './resources';

interface Operation extends ShapedPage {
	description: INodeProperties[];
	execute: (this: IExecuteFunctions, itemIndex: number) => Promise<IDataObject[]>;
	identify?: ItemIdentity;
}

// Each resource module exports its pages by operation ("send": send.operation.ts).
const pages: Record<string, { operations: Record<string, Operation> }> = resources;

type ItemOutcome = { output: INodeExecutionData[] } | { failed: NodeApiError | NodeOperationError };

// Runs the operation once per item, at most "Items at Once" at a time and as AirSign's answers allow
// (transport/pool.ts). The output keeps item order, each output paired with its item.
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const count = this.getInputData().length;
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const chosen = pages[resource]?.operations?.[operation];
	if (!chosen || !('execute' in chosen)) {
		throw inputError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}

	const atOnce = offersItemsAtOnce(chosen.description) ? readItemsAtOnce(this) : 1;
	// An AI agent runs the node as "<node>Tool": its failures must reach the model as words it
	// can act on, not end the agent's run, so a tool call fails like Continue On Fail.
	const continueOnFail = this.continueOnFail() || this.getNode().type.endsWith('Tool');
	const pool = openPool(this, atOnce, count);
	const outcomes = new Array<ItemOutcome | undefined>(count);
	let next = 0;
	// A lane takes the next item when its last one ends; once an item fails for good, none starts.
	const lane = async () => {
		while (next < count && pool.mayStart(next)) {
			const itemIndex = next++;
			const outcome = await runItem(this, chosen, itemIndex, continueOnFail);
			if (outcome && 'failed' in outcome) pool.stopAfter(itemIndex);
			outcomes[itemIndex] = outcome;
			pool.itemEnded();
		}
	};
	await Promise.all(Array.from({ length: Math.min(pool.itemsAtOnce, count) }, lane));

	const failedAt = outcomes.findIndex((outcome) => outcome !== undefined && 'failed' in outcome);
	if (failedAt === -1) {
		return [outcomes.flatMap((outcome) => (outcome && 'output' in outcome ? outcome.output : []))];
	}
	// The items that ran beside the failed one: their requests may have reached AirSign, although
	// their output is lost with the error.
	const { failed } = outcomes[failedAt] as { failed: NodeApiError | NodeOperationError };
	const ranAfter = outcomes.flatMap((outcome, index) =>
		outcome !== undefined && index > failedAt ? [index] : [],
	);
	if (ranAfter.length > 0) {
		const note = `With 'Items at Once' at ${atOnce}, the items at index ${ranAfter.join(', ')} ran beside it before it failed, so their requests may have reached AirSign; check them before running again.`;
		failed.description = failed.description ? `${failed.description} ${note}` : note;
	}
	throw failed;
}

// Its output; on a failure with Continue On Fail, an error item in its place; otherwise the failure.
async function runItem(
	ctx: IExecuteFunctions,
	chosen: Operation,
	itemIndex: number,
	continueOnFail: boolean,
): Promise<ItemOutcome | undefined> {
	try {
		// Every timestamp as ISO 8601 UTC, whatever form AirSign wrote it in
		// (docs/api.md#our-decisions-where-airsign-is-silent); then Simplify or a tool's Output.
		const shape = outputShaper(ctx, chosen, itemIndex);
		const results = shape(withUtcTimestamps(await chosen.execute.call(ctx, itemIndex)));
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

// A page declares that its items may run at once by offering the option (descriptions/options.ts
// itemOptions): one declaration, so the field and the behaviour cannot part.
function offersItemsAtOnce(description: INodeProperties[]): boolean {
	return description.some(
		(field) =>
			field.name === 'options' &&
			(field.options ?? []).some((option) => 'name' in option && option.name === 'itemsAtOnce'),
	);
}

function readItemsAtOnce(ctx: IExecuteFunctions): number {
	const value = ctx.getNodeParameter('options.itemsAtOnce', 0, DEFAULT_ITEMS_AT_ONCE) as unknown;
	if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > MAX_ITEMS_AT_ONCE) {
		throw inputError(
			ctx.getNode(),
			`'Items at Once' must be a whole number from 1 to ${MAX_ITEMS_AT_ONCE}; it is ${JSON.stringify(value)}`,
			{ itemIndex: 0 },
		);
	}
	return value as number;
}
