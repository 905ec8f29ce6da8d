/**
 * A Node network error code in words. Messages must not contain the raw code:
 * n8n's NodeApiError replaces any message that contains one (ECONNREFUSED, ...)
 * with its own generic text, which would drop the address and the hint. No imports:
 * the credential words its token-request failures with it too.
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
