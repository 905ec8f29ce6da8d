import type { INode } from 'n8n-workflow';
import { ExpressionError, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { CONFIGURATION_INVALID, declaredFailureOf, NODE_DEFECT } from './causes';

/**
 * Any error an operation threw, with its cause declared. The node's own errors declared theirs;
 * n8n's node errors and failed expressions are the workflow's to fix; anything else is a bug here.
 */
export function asNodeError(
	node: INode,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError) return error;
	const failure =
		declaredFailureOf(error) ??
		(error instanceof NodeOperationError || error instanceof ExpressionError
			? CONFIGURATION_INVALID
			: NODE_DEFECT);
	return new NodeOperationError(node, error as Error, { itemIndex, failure });
}
