import type { RequestFailure } from './failure';
import { MALFORMED_RESPONSE } from './failure';
import { describeNetworkCode } from './networkCodes';
import type { FailureText } from './wording';

/** Network failures that happen before a request leaves: nothing reached AirSign. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * A failure after which AirSign may have done the work: the connection dropped or timed out
 * after sending, a 5xx, or an answer that could not be read. A write is never repeated after
 * one of these, since that could create a second session.
 */
export function mayHaveReachedAirSign(failure: RequestFailure): boolean {
	if (failure.status !== undefined)
		return failure.status >= 500 || failure.code === MALFORMED_RESPONSE;
	if (failure.networkCode === undefined) return false;
	return !NOT_SENT.has(failure.networkCode.toUpperCase());
}

/** The words for such a failure: what happened, then "check AirSign before running again: …". */
export function lostWriteText(failure: RequestFailure, mayExist: string): FailureText {
	const what =
		failure.status === undefined
			? `No answer from AirSign (${describeNetworkCode(failure.networkCode ?? '')})`
			: failure.code === MALFORMED_RESPONSE
				? `AirSign's answer could not be read [HTTP ${failure.status}]`
				: `AirSign had an internal problem [HTTP ${failure.status}${failure.code ? ` ${failure.code}` : ''}]`;
	return {
		message: `${what}: check AirSign before running again: ${mayExist}`,
		description:
			'The request may have reached AirSign, so the node does not send it again by itself: a second attempt could do the work twice. Look in AirSign (or list sessions with Get Many) and run the node again only if it is not there.',
	};
}
