import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import * as file from './file/File.resource';
import * as session from './session/Session.resource';
import * as template from './template/Template.resource';

type OperationRunner = (this: IExecuteFunctions, itemIndex: number) => Promise<IDataObject[]>;

const operations: Record<string, Record<string, OperationRunner>> = {
	file: { upload: file.upload.execute },
	session: {
		create: session.create.execute,
		createFromTemplate: session.createFromTemplate.execute,
		get: session.get.execute,
		getMany: session.getMany.execute,
		send: session.send.execute,
		sendInvitation: session.sendInvitation.execute,
	},
	template: {
		create: template.create.execute,
		get: template.get.execute,
		getMany: template.getMany.execute,
	},
};

/** Runs the chosen operation once per input item, keeping each output paired with its item. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const run = operations[resource]?.[operation];
	if (!run) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}

	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const results = await run.call(this, itemIndex);
			returnData.push(
				...this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(results), {
					itemData: { item: itemIndex },
				}),
			);
		} catch (error) {
			// Both constructors hand back an error that is already of their kind, untouched.
			const nodeError =
				error instanceof NodeApiError
					? new NodeApiError(this.getNode(), error as unknown as JsonObject)
					: new NodeOperationError(this.getNode(), error as Error, { itemIndex });
			if (this.continueOnFail()) {
				returnData.push({
					json: {
						error: nodeError.message,
						...(nodeError.description && { description: nodeError.description }),
						...(error.httpCode && { httpCode: error.httpCode }),
					},
					pairedItem: { item: itemIndex },
					// "Continue (using error output)" moves an item to the error output only when it
					// carries `error` (n8n then keeps only json.error); the regular output keeps the
					// description and httpCode in json.
					...(this.getNode().onError === 'continueErrorOutput' && { error: nodeError }),
				});
				continue;
			}
			throw nodeError;
		}
	}
	return [returnData];
}
