import type { INode } from 'n8n-workflow';
import { ExpressionError, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { CONFIGURATION_INVALID, declaredFailureOf, NODE_DEFECT } from './causes';

/**
 * Any error an operation threw, as the node error n8n shows, with its cause declared. The node's
 * own errors declared theirs where they were made and come back untouched. An undeclared one came
 * from n8n: one of its node errors (no binary data under the field named, …) or an expression that
 * failed is the workflow's to fix; anything else (a TypeError, …) is a bug in this node.
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
	// Hands a NodeOperationError back as it is (n8n-workflow 2.41 adds the failure when missing).
	return new NodeOperationError(node, error as Error, { itemIndex, failure });
}
