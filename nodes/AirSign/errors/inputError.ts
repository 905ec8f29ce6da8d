import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CONFIGURATION_INVALID } from './causes';

/** Input refused before any request: the workflow's to fix, typed in the node or mapped. */
export function inputError(
	node: INode,
	message: string,
	options: { itemIndex?: number; description?: string } = {},
): NodeOperationError {
	return new NodeOperationError(node, message, { ...options, failure: CONFIGURATION_INVALID });
}

/** Refuses input of one item: a message, and a description when the fix is not obvious. */
export type Fail = (message: string, description?: string) => NodeOperationError;

export function failer(node: INode, itemIndex: number): Fail {
	return (message, description) => inputError(node, message, { itemIndex, description });
}
