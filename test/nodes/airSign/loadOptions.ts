/** The editor's calls into `methods` as n8n's DynamicNodeParametersService makes them. */
import { buildAdditionalData } from '../../harness';

import { LoadOptionsContext } from 'n8n-core';
import type {
	INode,
	INodeListSearchResult,
	INodeParameters,
	IWorkflowBase,
	ResourceMapperFields,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { AirSign } from '../../../nodes/AirSign/AirSign.node';
import { fullNodeTypeName, HarnessNodeTypes } from '../../harness/node-types';
import type { TestContext } from './helpers';

async function loadOptionsContext(
	ctx: TestContext,
	parameters: INodeParameters,
	path: string,
): Promise<LoadOptionsContext> {
	const nodeType = new AirSign();
	const nodeTypes = new HarnessNodeTypes().add(fullNodeTypeName(nodeType), nodeType);
	const node: INode = {
		id: 'temp-node',
		name: 'Temp-Node',
		type: fullNodeTypeName(nodeType),
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { airSignApi: { id: ctx.cred.id, name: ctx.cred.name } },
	};
	const workflowData = { nodes: [node], connections: {}, active: false, settings: {} };
	const workflow = new Workflow({ ...workflowData, nodeTypes });
	const additionalData = await buildAdditionalData({
		env: ctx.env,
		workflowData: { id: 'load-options', name: 'Load options', ...workflowData } as IWorkflowBase,
		mode: 'internal',
	});
	additionalData.currentNodeParameters = parameters;
	return new LoadOptionsContext(workflow, workflow.getNode('Temp-Node')!, additionalData, path);
}

/** A resource locator's "From List" search, as the editor asks for it. */
export async function listSearch(
	ctx: TestContext,
	method: keyof AirSign['methods']['listSearch'],
	options: { filter?: string; paginationToken?: string; parameters?: INodeParameters } = {},
): Promise<INodeListSearchResult> {
	const context = await loadOptionsContext(ctx, options.parameters ?? {}, 'parameters.x');
	const search = new AirSign().methods.listSearch[method];
	return await search.call(context, options.filter, options.paginationToken);
}

/** The resource mapper's fields for the node's current parameters. */
export async function mapperFields(
	ctx: TestContext,
	method: string,
	parameters: INodeParameters,
): Promise<ResourceMapperFields> {
	const context = await loadOptionsContext(ctx, parameters, 'parameters.fields');
	const methods = new AirSign().methods as unknown as {
		resourceMapping: Record<string, (this: LoadOptionsContext) => Promise<ResourceMapperFields>>;
	};
	return await methods.resourceMapping[method].call(context);
}
