import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { CREDENTIAL_TYPE, SECRET_FIELDS } from '../helpers/constants';
import type { RequestFailure } from './failure';
import { causeOfRequestFailure, MALFORMED_RESPONSE } from './failure';
import type { FailureMessages, FailureText } from './messages';
import { describeFailure } from './messages';

/**
 * The NodeApiError a workflow builder sees for a failed request: the operation's words, the
 * HTTP status and the service's code, and nothing of the credential; it declares the failure's
 * cause (causeOfRequestFailure). The secrets are read only here, when a failure needs them, so that any
 * of their values the service echoed back is replaced before the text leaves the node.
 */
export async function toNodeError(
	ctx: Context,
	failure: RequestFailure,
	itemIndex: number,
	messages: FailureMessages,
	/** Words that replace the usual ones (a write whose answer was lost). */
	override?: FailureText,
): Promise<NodeApiError> {
	const scrub = redactor(await credentialsOrNothing(ctx, itemIndex));
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
	// Not MALFORMED_RESPONSE: that is this node's name for an unreadable answer, not AirSign's code.
	if (failure.code !== undefined && failure.code !== MALFORMED_RESPONSE)
		serviceCodes.set(error, failure.code);
	return error;
}

/**
 * AirSign's error code (NOT_A_DRAFT, …) behind an error made by toNodeError, kept beside the error
 * so that n8n's error view does not show it (docs/compatibility.md).
 */
const serviceCodes = new WeakMap<NodeApiError, string>();

export function serviceCodeOf(error: unknown): string | undefined {
	return error instanceof NodeApiError ? serviceCodes.get(error) : undefined;
}

type Context = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

async function credentialsOrNothing(
	ctx: Context,
	itemIndex: number,
): Promise<ICredentialDataDecryptedObject> {
	try {
		return await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
	} catch {
		// No credential to read: nothing of it can be in the message either.
		return {};
	}
}

/** Replaces every secret value of the credential (4 characters or longer) in a text. */
function redactor(credentials: ICredentialDataDecryptedObject): (text: string) => string {
	const secrets = SECRET_FIELDS.map((field) => credentials[field]).filter(
		(value): value is string => typeof value === 'string' && value.length >= 4,
	);
	return (text) =>
		secrets.reduce((result, secret) => result.split(secret).join('[redacted]'), text);
}
