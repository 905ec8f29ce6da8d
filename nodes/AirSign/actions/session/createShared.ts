import type { INodeProperties } from 'n8n-workflow';

import { valueRefused } from '../../errors/messages';

export const sendImmediatelyField: INodeProperties = {
	displayName: 'Send Immediately',
	name: 'sendImmediately',
	type: 'boolean',
	default: false,
	description:
		'Whether to email the signing invitations at once. Off: the session stays a draft and the output carries its draftUrl, to review it in AirSign and send it (for example with Send).',
};

export const createdSessionFailures = {
	...valueRefused('the request'),
	SELF_SIGN_ONLY: {
		message: 'The session is self-sign only, so it cannot be sent',
		description: 'Turn "Send Immediately" off: the owner signs a self-sign session in AirSign.',
	},
	403: {
		description:
			'Its token lacks the scope write:sessions, which creating a session needs. Ask the AirSign administrator for a client with that scope.',
	},
};
