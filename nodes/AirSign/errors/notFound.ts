import type { FailureText } from './wording';

/**
 * A 404 for an ID in the path. AirSign answers the same for an ID that does not exist and for
 * one of another organisation, so the hint covers both.
 */
export const sessionNotFound: FailureText = {
	message: 'AirSign has no session with this ID',
	description:
		'Check the session ID. Sessions of another AirSign organisation are invisible to this credential.',
};

export const templateNotFound: FailureText = {
	message: 'AirSign has no template with this ID',
	description:
		'Check the template ID. Templates of another AirSign organisation are invisible to this credential.',
};
