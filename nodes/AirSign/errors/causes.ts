/**
 * Why an operation failed, declared on the error as n8n-workflow 2.41 defines it (`failure` on
 * NodeApiError and NodeOperationError, plain data): the timed causes carry AirSign's wait hints,
 * so that n8n (its poll scheduler first) can back off by them; the others say who has to act.
 * Older n8n-workflow ignores the option (docs/compatibility.md).
 *
 * No imports: the credential declares its token failures and words its network failures with
 * this file too.
 */
export type DeclaredFailure =
	| {
			cause: 'rate-limited' | 'quota-exhausted' | 'temporarily-unavailable';
			/** Least wait AirSign asked for (Retry-After), in ms. */
			retryAfterMs?: number;
			/** When AirSign's budget resets, as Unix epoch ms on this machine's clock. */
			resetsAtEpochMs?: number;
	  }
	| { cause: 'credential-invalid' | 'configuration-invalid' | 'node-defect' };

/**
 * A parameter or an input value the node cannot use (checked before any request), or a request
 * AirSign refused as it stands (a 400, 403, 404, 409, 413, 422 …): the workflow has to change.
 */
export const CONFIGURATION_INVALID: DeclaredFailure = { cause: 'configuration-invalid' };
/** A 401 that n8n's own token renewal did not cure: the credential has to be fixed. */
export const CREDENTIAL_INVALID: DeclaredFailure = { cause: 'credential-invalid' };
/** AirSign (or the way to it) is down, slow or broken right now: a later attempt may work. */
export const TEMPORARILY_UNAVAILABLE: DeclaredFailure = { cause: 'temporarily-unavailable' };
/** Neither the credential nor the configuration: a bug in this node. */
export const NODE_DEFECT: DeclaredFailure = { cause: 'node-defect' };

/** The cause an error already declares (n8n-workflow 2.41+), else undefined. */
export function declaredFailureOf(error: unknown): DeclaredFailure | undefined {
	if (error === null || typeof error !== 'object') return undefined;
	const failure = (error as { failure?: unknown }).failure;
	if (failure === null || typeof failure !== 'object') return undefined;
	return typeof (failure as { cause?: unknown }).cause === 'string'
		? (failure as DeclaredFailure)
		: undefined;
}

/**
 * A Node network error code in words. Messages must not contain the raw code: n8n's NodeApiError
 * replaces any message that contains one (ECONNREFUSED, ...) with its own generic text, which
 * would drop the address and the hint.
 */
export function describeNetworkCode(code: string): string {
	switch (code.toUpperCase()) {
		case 'ECONNREFUSED':
			return 'connection refused';
		case 'ENOTFOUND':
		case 'EAI_AGAIN':
			return 'host name not found';
		case 'ETIMEDOUT':
		case 'ECONNABORTED':
			return 'timed out';
		case 'ECONNRESET':
		case 'EPIPE':
			return 'connection closed by the server';
		case 'EHOSTUNREACH':
		case 'ENETUNREACH':
			return 'host unreachable';
		default:
			return 'network error';
	}
}
