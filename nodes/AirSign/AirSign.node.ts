import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { operationFields, resourceField } from './actions/resources';
import { router } from './actions/router';
import { AIRSIGN_DESCRIPTION } from './descriptions/nodesPanel';
import { actionSubtitle } from './descriptions/subtitle';
import { listSearch, resourceMapping } from './methods';

export class AirSign implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AirSign',
		name: 'airSign',
		icon: { light: 'file:airsign.svg', dark: 'file:airsign.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: actionSubtitle(operationFields),
		description: AIRSIGN_DESCRIPTION,
		defaults: { name: 'AirSign' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'airSignApi', required: true }],
		properties: [resourceField, ...operationFields],
	};

	methods = { listSearch, resourceMapping };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
