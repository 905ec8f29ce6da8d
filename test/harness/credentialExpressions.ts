/**
 * Expressions in a credential's data, resolved as n8n's CLI resolves them: with the node's
 * workflow when there is one, else with a mock workflow of one mock node.
 */
import { getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsExpressionResolveValues,
	IExecuteData,
	INode,
	INodeParameters,
	INodeType,
	INodeTypes,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

/** Node type used only for the credential-expression mock workflow (the CLI's `createMockNodeTypes`). */
const mockNodeTypes: INodeTypes = {
	getKnownTypes: () => ({}),
	getByName: () => mockNodeType,
	getByNameAndVersion: () => mockNodeType,
};
const mockNodeType: INodeType = {
	description: {
		displayName: 'Mock',
		name: 'mock',
		group: [],
		version: 1,
		description: '',
		defaults: {},
		inputs: [],
		outputs: [],
		properties: [],
	},
};
const mockNode: INode = {
	id: 'mock',
	name: '',
	typeVersion: 1,
	type: 'mock',
	position: [0, 0],
	parameters: {},
};

export async function resolveCredentialExpressions(
	data: ICredentialDataDecryptedObject,
	additionalData: IWorkflowExecuteAdditionalData,
	mode: WorkflowExecuteMode,
	executeData?: IExecuteData,
	expressionResolveValues?: ICredentialsExpressionResolveValues,
): Promise<ICredentialDataDecryptedObject> {
	let decryptedData = data;
	const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });

	if (expressionResolveValues) {
		try {
			decryptedData = expressionResolveValues.workflow.expression.getParameterValue(
				decryptedData as INodeParameters,
				expressionResolveValues.runExecutionData,
				expressionResolveValues.runIndex,
				expressionResolveValues.itemIndex,
				expressionResolveValues.node.name,
				expressionResolveValues.connectionInputData,
				mode,
				additionalKeys,
				executeData,
				false,
				decryptedData,
			) as ICredentialDataDecryptedObject;
		} catch (e) {
			(e as Error).message += ' [Error resolving credentials]';
			throw e;
		}
	} else {
		const workflow = new Workflow({
			nodes: [mockNode],
			connections: {},
			active: false,
			nodeTypes: mockNodeTypes,
		});
		decryptedData = await workflow.expression.withIsolate(
			async () =>
				workflow.expression.getComplexParameterValue(
					mockNode,
					decryptedData as INodeParameters,
					mode,
					additionalKeys,
					undefined,
					undefined,
					decryptedData,
				) as ICredentialDataDecryptedObject,
		);
	}
	return decryptedData;
}
