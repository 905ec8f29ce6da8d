// Why an operation failed, declared on the error as `failure` (docs/compatibility.md): the
// timed causes carry AirSign's wait hints; the others say who has to act. No imports: the
// credential uses this file too.
export type DeclaredFailure =
	| {
			cause: 'rate-limited' | 'quota-exhausted' | 'temporarily-unavailable';
			retryAfterMs?: number;
			/** Unix epoch ms on this machine's clock. */
			resetsAtEpochMs?: number;
	  }
	| { cause: 'credential-invalid' | 'configuration-invalid' | 'node-defect' };

/** The workflow has to change: bad input, or a request AirSign refused as it stands. */
export const CONFIGURATION_INVALID: DeclaredFailure = { cause: 'configuration-invalid' };
export const CREDENTIAL_INVALID: DeclaredFailure = { cause: 'credential-invalid' };
export const TEMPORARILY_UNAVAILABLE: DeclaredFailure = { cause: 'temporarily-unavailable' };
export const NODE_DEFECT: DeclaredFailure = { cause: 'node-defect' };

export function declaredFailureOf(error: unknown): DeclaredFailure | undefined {
	const failure = (error as { failure?: { cause?: unknown } } | null | undefined)?.failure;
	return typeof failure?.cause === 'string' ? (failure as DeclaredFailure) : undefined;
}

const NETWORK_WORDS: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ENOTFOUND: 'host name not found',
	EAI_AGAIN: 'host name not found',
	ETIMEDOUT: 'timed out',
	ECONNABORTED: 'timed out',
	ECONNRESET: 'connection closed by the server',
	EPIPE: 'connection closed by the server',
	EHOSTUNREACH: 'host unreachable',
	ENETUNREACH: 'host unreachable',
};

/**
 * A network error code in words. A message must not contain the raw code: n8n's NodeApiError
 * replaces such a message with its own generic text, dropping the address and the hint.
 */
export function describeNetworkCode(code: string): string {
	return NETWORK_WORDS[code.toUpperCase()] ?? 'no connection was made';
}
