import type { INodeProperties } from 'n8n-workflow';

/** What the operations that create a session share: Send Immediately and their failures. */

export const sendImmediatelyField: INodeProperties = {
	displayName: 'Send Immediately',
	name: 'sendImmediately',
	type: 'boolean',
	default: false,
	description:
		'Whether to email the signing invitations at once. Off: the session stays a draft and the output carries its draftUrl, to review it in AirSign and send it (for example with Send).',
};

const valueRefused = {
	message: 'AirSign refused a value of the request',
	description: 'AirSign names the value below; correct it in the node and run again.',
};

export const createdSessionFailures = {
	VALIDATION_ERROR: valueRefused,
	// A validation failure without a code, or with one this node does not know.
	400: valueRefused,
	SELF_SIGN_ONLY: {
		message: 'The session is self-sign only, so it cannot be sent',
		description: 'Turn "Send Immediately" off: the owner signs a self-sign session in AirSign.',
	},
	403: {
		description:
			'Its token lacks the scope write:sessions, which creating a session needs. Ask the AirSign administrator for a client with that scope.',
	},
};
