import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { recipientLocator, sessionLocator } from '../../descriptions/locators';
import { itemOptions, maxRateLimitWaitMs, optionsCollection } from '../../descriptions/options';
import type { FailureMessages } from '../../errors/messages';
import { notFound } from '../../errors/messages';
import { failer } from '../../errors/nodeError';
import { readLocatorId, readRecipient } from '../../helpers/validation';
import { callAirSign } from '../../transport/call';
import { identifyByParameters, parameterAsGiven } from '../itemIdentity';

export const description: INodeProperties[] = [
	sessionLocator('The session whose recipient is reminded. It must be pending or in progress.'),
	{
		displayName: 'Send To',
		name: 'recipient',
		type: 'options',
		default: 'next',
		options: [
			{
				name: 'Next Who Has Not Signed',
				value: 'next',
				description: 'AirSign picks the next recipient, in signing order, who has not signed',
			},
			{
				name: 'A Specific Recipient',
				value: 'specific',
				description: 'One recipient of the session, from its list, by ID or by email',
			},
		],
	},
	{
		...recipientLocator('The recipient to remind: one who has not signed yet'),
		displayOptions: { show: { recipient: ['specific'] } },
	},
	optionsCollection(itemOptions),
];

// Send Invitation's one 400 (code SESSION_NOT_ACTIVE, or none).
const sessionNotActive = {
	message: 'The session is not waiting for signatures, so no invitation was sent',
	description:
		'Send Invitation reminds recipients of a session that is pending or in progress. Send a draft with Send; a completed, cancelled or expired session needs no reminder.',
};

// AirSign answers the same 404 for a missing session and a missing recipient.
const sessionOrRecipientNotFound = {
	message: 'AirSign has no such session, or the session has no such recipient',
	description:
		"Check both: the session ID (sessions of another AirSign organisation are invisible to this credential) and 'Recipient', whose ID or email is in the recipients of a Get Session result.",
};

const failures: FailureMessages = {
	SESSION_NOT_ACTIVE: sessionNotActive,
	400: sessionNotActive,
	RECIPIENT_NOT_FOUND: {
		message: 'The session has no such recipient',
		description:
			"Check 'Recipient': its ID or email must be one of the recipients of a Get Session result.",
	},
	RECIPIENT_ALREADY_SIGNED: {
		message: 'This recipient has already signed, so no invitation was sent',
		description:
			"Choose 'Next Who Has Not Signed' in 'Send To' to remind whoever is still to sign.",
	},
	403: {
		description:
			'Its token lacks the scope write:sessions, which Send Invitation needs. Ask the AirSign administrator for a client with that scope.',
	},
	404: notFound('session'),
};

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const fail = failer(this.getNode(), itemIndex);
	const sessionId = readLocatorId(this.getNodeParameter('sessionId', itemIndex), 'session', fail);
	const recipient = this.getNodeParameter('recipient', itemIndex, 'next') as string;
	// AirSign does not say what it does with both recipientId and recipientEmail: only one is sent.
	const body =
		recipient === 'specific'
			? readRecipient(this.getNodeParameter('recipientLocator', itemIndex), fail)
			: {};
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const answer = await callAirSign(
		this,
		{
			method: 'POST',
			path: `/Session/${encodeURIComponent(sessionId)}/SendInvitation`,
			body,
			itemIndex,
		},
		{
			failures: recipient === 'next' ? failures : { ...failures, 404: sessionOrRecipientNotFound },
			maxRateLimitWaitMs: maxRateLimitWaitMs(this, options),
			write: { mayExist: 'the invitation may have been sent' },
		},
	);
	return [answer.body as IDataObject];
}

const identifySession = identifyByParameters('sessionId');

/** An error item's subject: the session, and 'Recipient' under the field AirSign takes for its mode. */
export function identify(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const identity = identifySession.call(this, itemIndex);
	const value = parameterAsGiven(this, 'recipientLocator', itemIndex);
	if (value === undefined) return identity;
	const { mode } = this.getNodeParameter('recipientLocator', itemIndex, {}) as { mode?: string };
	return { ...identity, [mode === 'email' ? 'recipientEmail' : 'recipientId']: value };
}
