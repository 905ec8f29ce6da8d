import { describeNetworkCode } from './causes';
import type { RequestFailure } from './failure';
import { MALFORMED_RESPONSE, readServiceErrorCode } from './failure';

export interface FailureText {
	message: string;
	description?: string;
}

/** An operation's words by AirSign code or HTTP status (a lone description: common message). */
export type FailureMessages = Record<string, FailureText | { description: string }>;

/** The operation's words, else the common ones; a message ends with the code, to search for. */
export function describeFailure(failure: RequestFailure, messages: FailureMessages): FailureText {
	const serviceSaid = failure.serviceMessage ? ` AirSign said: "${failure.serviceMessage}"` : '';
	const specific =
		(failure.code !== undefined ? messages[failure.code] : undefined) ??
		(failure.status !== undefined ? messages[String(failure.status)] : undefined);
	if (specific && 'message' in specific) {
		const code =
			failure.code ?? (failure.status !== undefined ? `HTTP ${failure.status}` : undefined);
		return {
			message: code ? `${specific.message} [${code}]` : specific.message,
			description: joined(specific.description, serviceSaid),
		};
	}
	if (failure.networkCode) {
		return {
			message: `Could not reach AirSign: ${describeNetworkCode(failure.networkCode)}`,
			description:
				'Check the Base URL in the AirSign credential and the network of this n8n instance, then try again.',
		};
	}
	if (failure.status === undefined) {
		return { message: failure.otherMessage ?? 'The request to AirSign failed' };
	}
	if (failure.code === MALFORMED_RESPONSE) {
		return {
			message: `AirSign answered HTTP ${failure.status} with a body that is not JSON`,
			description:
				'This is usually a passing fault of the service or of a proxy: try again in a few minutes. If it persists, check the Base URL in the credential.',
		};
	}
	const codeSuffix = `[HTTP ${failure.status}${failure.code ? ` ${failure.code}` : ''}]`;
	const common = COMMON_FAILURES[failure.status];
	if (common) {
		return {
			message: `${common.message} ${codeSuffix}`,
			description: joined(specific?.description ?? common.description, serviceSaid),
		};
	}
	if (failure.status >= 500) {
		return {
			message: `AirSign could not finish the request [HTTP ${failure.status}]`,
			description: `This is on AirSign's side and usually passes: try again in a few minutes.${serviceSaid}`,
		};
	}
	return { message: `AirSign refused the request ${codeSuffix}`, description: joined(serviceSaid) };
}

/** A 400 of a request that writes `what`: AirSign's words, shown below, name the value. */
export function valueRefused(what: string): FailureMessages {
	const text = {
		message: `AirSign refused a value of ${what}`,
		description: 'AirSign names the value below; correct it in the node and run again.',
	};
	return { VALIDATION_ERROR: text, 400: text };
}

function joined(...parts: Array<string | undefined>): string | undefined {
	return parts.join('').trim() || undefined;
}

const COMMON_FAILURES: Record<number, FailureText> = {
	401: {
		message: 'AirSign rejected the credential',
		description:
			"The access token is wrong, revoked or expired. AirSign tokens last one hour: use the 'Client Credentials' method of the AirSign credential so n8n renews them, or paste a new token.",
	},
	403: {
		message: 'The AirSign credential is not allowed to do this',
		description:
			'Its token lacks the scope this operation needs. Ask the AirSign administrator for a client with that scope.',
	},
	404: {
		message: 'AirSign has no such resource',
		description: 'Check the ID, and that the credential belongs to the organisation that owns it.',
	},
	429: {
		message: "AirSign's rate limit was reached",
		description: 'Wait a little and try again.',
	},
};

/** A write that may have reached AirSign: what happened, then what to check before a rerun. */
export function lostWriteText(failure: RequestFailure, mayExist: string): FailureText {
	const what =
		failure.status === undefined
			? `No answer from AirSign (${describeNetworkCode(failure.networkCode ?? '')})`
			: failure.code === MALFORMED_RESPONSE
				? `AirSign's answer could not be read [HTTP ${failure.status}]`
				: `AirSign could not finish the request [HTTP ${failure.status}${failure.code ? ` ${failure.code}` : ''}]`;
	return {
		message: `${what}: check AirSign before running again: ${mayExist}`,
		description:
			'The request may have reached AirSign, so the node does not send it again by itself: a second attempt could do the work twice. Look in AirSign (or list sessions with Get Many) and run the node again only if it is not there.',
	};
}

// AirSign answers 404 alike for an ID that does not exist and for one of another organisation.
export function notFound(kind: 'session' | 'template'): FailureText {
	return {
		message: `AirSign has no ${kind} with this ID`,
		description: `Check the ${kind} ID. ${kind === 'session' ? 'Sessions' : 'Templates'} of another AirSign organisation are invisible to this credential.`,
	};
}

export interface FeatureUse {
	feature: string;
	parameters: string[];
}

/**
 * An operation's failures, with a 403's words for the plan features it `used` or its scope: the
 * body names the feature (a `feature` field or its message); if not, either may be missing.
 */
export function withPlanFeatures(
	failures: FailureMessages,
	used: FeatureUse[],
	scopeDescription: string,
): (answer: { body: unknown }) => FailureMessages {
	return ({ body }) => {
		const code = readServiceErrorCode(body);
		if (used.length === 0 || code === 'INSUFFICIENT_SCOPE')
			return { ...failures, 403: { description: scopeDescription } };
		const data = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
		const said = `${String(data.feature ?? '')} ${String(data.message ?? '')}`.toLowerCase();
		const named = used.find((use) => said.includes(use.feature.toLowerCase()));
		const text = named
			? {
					message: `Your AirSign plan does not include ${named.feature}`,
					description: `Remove ${quoteList(named.parameters)} from the node (AirSign's defaults then apply), or ask AirSign to add ${named.feature} to your plan.`,
				}
			: {
					message: 'AirSign refused the request: a plan feature or a scope is missing',
					description: `Either your AirSign plan does not include ${used.map((u) => `${u.feature} (used by ${quoteList(u.parameters)})`).join(' or ')}: remove those options and run again; or: ${scopeDescription}`,
				};
		return { ...failures, 403: text, ...(code !== undefined && { [code]: text }) };
	};
}

function quoteList(parameters: string[]): string {
	return parameters.map((p) => `'${p}'`).join(', ');
}

const fixIt = 'Correct the documents in the node and run again.';

/** AirSign's refusals of a block document (docs/api.md#block-documents): Create and Create Template. */
export const blockFailures: FailureMessages = {
	TITLE_TOO_LONG: {
		message: 'AirSign says the title does not fit on one line',
		description: 'Shorten \'Title\' (AirSign says "about 30 characters").',
	},
	NO_BLOCK_DOCUMENT: {
		message: 'The session has no block document',
		description:
			'Signature fields live only on block documents: give at least one besides the uploaded PDFs.',
	},
	FILE_NOT_FOUND: {
		message: 'An attached PDF is not an upload of this organisation',
		description:
			"Check 'Attach Uploaded PDFs': each must be a fileId that Upload returned with this credential.",
	},
	DUPLICATE_RECIPIENT_KEY: { message: 'Two recipients have the same key', description: fixIt },
	UNKNOWN_RECIPIENT_KEY: { message: 'A signature block names no recipient', description: fixIt },
	MISSING_SIGNATURE_BLOCK: { message: 'A recipient has no signature block', description: fixIt },
	DUPLICATE_SIGNATURE_BLOCK: {
		message: 'A recipient has more than one signature block',
		description: fixIt,
	},
};
