/**
 * Why an operation failed, declared on the error as n8n-workflow 2.41 defines it (`failure` on
 * NodeApiError and NodeOperationError, plain data): the timed causes carry AirSign's wait hints,
 * so that n8n (its poll scheduler first) can back off by them; the others say who has to act.
 *
 * No imports: the credential declares its token failures with it too.
 *
 * Given as the constructors' `failure` option. n8n-workflow before 2.41 (n8n 1.x, 2.0–2.40) does
 * not know the option and ignores it: the error is then exactly what it was without it.
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
