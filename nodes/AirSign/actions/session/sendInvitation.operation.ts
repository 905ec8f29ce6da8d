import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { recipientLocator, sessionLocator } from '../../descriptions/locators';
import { itemOptions, maxRateLimitWaitMs, optionsCollection } from '../../descriptions/options';
import { type Show, V1, V2_ON } from '../../descriptions/outputFields';
import type { FailureMessages } from '../../errors/messages';
import { notFound } from '../../errors/messages';
import type { Fail } from '../../errors/nodeError';
import { failer } from '../../errors/nodeError';
import { assertEmail, assertId, readLocatorId, readRecipient } from '../../helpers/validation';
import { callAirSign } from '../../transport/call';
import { identifyByParameters, parameterAsGiven } from '../itemIdentity';

// Each version's 'Recipient' choice; 'Next Who Has Not Signed' is the default of both.
const recipientChoice = (show: Show, ...others: INodePropertyOptions[]): INodeProperties => ({
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
		...others,
	],
	displayOptions: { show },
});

// Version 1's choice and fields stay as saved; version 2 picks one recipient with a locator.
export const description: INodeProperties[] = [
	sessionLocator('The session whose recipient is reminded. It must be pending or in progress.'),
	recipientChoice(
		V1,
		{ name: 'By Recipient ID', value: 'id' },
		{ name: 'By Email', value: 'email' },
	),
	{
		displayName: 'Recipient ID',
		name: 'recipientId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 9b1f3c2a-…',
		description: 'A recipientId from the recipients of Get Session',
		displayOptions: { show: { ...V1, recipient: ['id'] } },
	},
	{
		displayName: 'Recipient Email',
		name: 'recipientEmail',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. nathan@example.com',
		description: 'The email of one of the session’s recipients',
		displayOptions: { show: { ...V1, recipient: ['email'] } },
	},
	recipientChoice(V2_ON, {
		name: 'A Specific Recipient',
		value: 'specific',
		description: 'One recipient of the session, from its list, by ID or by email',
	}),
	{
		...recipientLocator('The recipient to remind: one who has not signed yet'),
		displayOptions: { show: { ...V2_ON, recipient: ['specific'] } },
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
		description:
			"Choose 'Next Who Has Not Signed' in 'Recipient' to remind whoever is still to sign.",
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
	const body = readRecipientChoice(this, recipient, itemIndex, fail);
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

function readRecipientChoice(
	ctx: IExecuteFunctions,
	recipient: string,
	itemIndex: number,
	fail: Fail,
): IDataObject {
	if (recipient === 'specific')
		return readRecipient(ctx.getNodeParameter('recipientLocator', itemIndex), fail);
	if (recipient === 'id')
		return {
			recipientId: assertId(ctx.getNodeParameter('recipientId', itemIndex, ''), 'recipient', fail),
		};
	if (recipient === 'email') {
		const value = ctx.getNodeParameter('recipientEmail', itemIndex, '');
		return { recipientEmail: assertEmail(value, 'Recipient Email', fail) };
	}
	return {};
}

const identifyV1 = identifyByParameters('sessionId', 'recipientId', 'recipientEmail');

/** An error item's subject: version 2's locator under the field AirSign takes for its mode. */
export function identify(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const identity = identifyV1.call(this, itemIndex);
	const value = parameterAsGiven(this, 'recipientLocator', itemIndex);
	if (value === undefined) return identity;
	const { mode } = this.getNodeParameter('recipientLocator', itemIndex, {}) as { mode?: string };
	return { ...identity, [mode === 'email' ? 'recipientEmail' : 'recipientId']: value };
}
