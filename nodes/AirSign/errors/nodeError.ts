import type { ICredentialDataDecryptedObject, INode, JsonObject } from 'n8n-workflow';
import { ExpressionError, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE, SECRET_FIELDS } from '../helpers/constants';
import type { AirSignContext } from '../transport/request';
import { CONFIGURATION_INVALID, declaredFailureOf, NODE_DEFECT } from './causes';
import type { RequestFailure } from './failure';
import { causeOfRequestFailure, MALFORMED_RESPONSE } from './failure';
import type { FailureMessages, FailureText } from './messages';
import { describeFailure } from './messages';

/**
 * A failed request as the NodeApiError a builder sees, with its cause declared. Any secret of the
 * credential that AirSign echoed back is redacted; the secrets are read only when a request fails.
 */
export async function toNodeError(
	ctx: AirSignContext,
	failure: RequestFailure,
	itemIndex: number,
	messages: FailureMessages,
	/** Words that replace the usual ones (a write whose answer was lost). */
	override?: FailureText,
): Promise<NodeApiError> {
	let credentials: ICredentialDataDecryptedObject = {};
	try {
		credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
	} catch {
		// No credential: nothing of it can be in the text either.
	}
	const secrets = SECRET_FIELDS.map((field) => credentials[field]).filter(
		(value): value is string => typeof value === 'string' && value.length >= 4,
	);
	const scrub = (text: string) =>
		secrets.reduce((result, secret) => result.split(secret).join('[redacted]'), text);
	const text = override ?? describeFailure(failure, messages);
	const message = scrub(text.message);
	const description = text.description === undefined ? undefined : scrub(text.description);
	const httpCode = failure.status === undefined ? undefined : String(failure.status);
	const response: JsonObject = {
		message,
		...(httpCode !== undefined && { httpCode }),
		...(failure.code !== undefined && { code: failure.code }),
	};
	const error = new NodeApiError(ctx.getNode(), response, {
		message,
		description,
		httpCode,
		itemIndex,
		failure: causeOfRequestFailure(failure),
	});
	// MALFORMED_RESPONSE is this node's name for an unreadable answer, not AirSign's code.
	if (failure.code !== undefined && failure.code !== MALFORMED_RESPONSE)
		serviceCodes.set(error, failure.code);
	return error;
}

/** AirSign's code behind a toNodeError error, kept aside so n8n's error view does not show it. */
const serviceCodes = new WeakMap<NodeApiError, string>();

export function serviceCodeOf(error: unknown): string | undefined {
	return error instanceof NodeApiError ? serviceCodes.get(error) : undefined;
}

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
