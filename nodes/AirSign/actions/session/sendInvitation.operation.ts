import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { sessionLocator } from '../../descriptions/locators';
import { itemOptions, maxRateLimitWaitMs, optionsCollection } from '../../descriptions/options';
import type { FailureMessages } from '../../errors/messages';
import { notFound } from '../../errors/messages';
import { failer } from '../../errors/nodeError';
import { assertEmail, assertId, readLocatorId } from '../../helpers/validation';
import { callAirSign } from '../../transport/call';
import { identifyByParameters } from '../itemIdentity';

export const description: INodeProperties[] = [
	sessionLocator('The session whose recipient is reminded. It must be pending or in progress.'),
	{
		displayName: 'Recipient',
		name: 'recipient',
		type: 'options',
		default: 'next',
		options: [
			{
				name: 'Next Who Has Not Signed',
				value: 'next',
				description: 'AirSign picks the next recipient, in signing order, who has not signed',
			},
			{ name: 'By Recipient ID', value: 'id' },
			{ name: 'By Email', value: 'email' },
		],
	},
	{
		displayName: 'Recipient ID',
		name: 'recipientId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 9b1f3c2a-…',
		description: 'A recipientId from the recipients of Get Session',
		displayOptions: { show: { recipient: ['id'] } },
	},
	{
		displayName: 'Recipient Email',
		name: 'recipientEmail',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. nathan@example.com',
		description: 'The email of one of the session’s recipients',
		displayOptions: { show: { recipient: ['email'] } },
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
		'Check both: the session ID (sessions of another AirSign organisation are invisible to this credential) and the recipient, whose ID or email Get Session lists.',
};

const failures: FailureMessages = {
	SESSION_NOT_ACTIVE: sessionNotActive,
	400: sessionNotActive,
	RECIPIENT_NOT_FOUND: {
		message: 'The session has no such recipient',
		description:
			'Check the recipient ID or email: Get Session lists the recipients of the session.',
	},
	RECIPIENT_ALREADY_SIGNED: {
		message: 'This recipient has already signed, so no invitation was sent',
		description: "Choose 'Next Who Has Not Signed' to remind whoever is still to sign.",
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
	// AirSign does not say what it does with both fields: only one is ever sent.
	const body: IDataObject = {};
	if (recipient === 'id') {
		const value = this.getNodeParameter('recipientId', itemIndex, '');
		body.recipientId = assertId(value, 'recipient', fail);
	} else if (recipient === 'email') {
		const value = this.getNodeParameter('recipientEmail', itemIndex, '');
		body.recipientEmail = assertEmail(value, 'Recipient Email', fail);
	}
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

export const identify = identifyByParameters('sessionId', 'recipientId', 'recipientEmail');
