import type { DeclaredFailure } from './declaredFailure';
import {
	CONFIGURATION_INVALID,
	CREDENTIAL_INVALID,
	TEMPORARILY_UNAVAILABLE,
} from './declaredFailure';
import type { RequestFailure } from './failure';
import { MALFORMED_RESPONSE } from './failure';

/** The cause of a failed request, from its status (or its absence). */
export function causeOfRequestFailure(failure: RequestFailure): DeclaredFailure {
	const { status } = failure;
	if (status === undefined) {
		// The credential's token request declares its own (see AirSignApi.credentials.ts).
		if (failure.declared) return failure.declared;
		// No answer: refused, dropped, timed out, host not found.
		if (failure.networkCode !== undefined) return TEMPORARILY_UNAVAILABLE;
		// n8n refused to send it (a blocked private address, a domain the credential does not allow).
		return CONFIGURATION_INVALID;
	}
	if (status === 429) {
		return {
			cause: 'rate-limited',
			...(failure.retryAfterMs !== undefined && { retryAfterMs: failure.retryAfterMs }),
			...(failure.resetsAtEpochMs !== undefined && { resetsAtEpochMs: failure.resetsAtEpochMs }),
		};
	}
	// A 2xx or other answer that is not the JSON the spec promises: a proxy page, a cut body.
	if (failure.code === MALFORMED_RESPONSE) return TEMPORARILY_UNAVAILABLE;
	if (status >= 500 || status === 408) return TEMPORARILY_UNAVAILABLE;
	if (status === 401) return CREDENTIAL_INVALID;
	return CONFIGURATION_INVALID;
}
