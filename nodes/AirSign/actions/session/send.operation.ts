import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { sessionLocator } from '../../descriptions/locators';
import { itemOptions, maxRateLimitWaitMs, optionsCollection } from '../../descriptions/options';
import type { FailureMessages } from '../../errors/messages';
import { notFound } from '../../errors/messages';
import { failer } from '../../errors/nodeError';
import { readLocatorId } from '../../helpers/validation';
import { callAirSign } from '../../transport/call';
import { identifyByParameters } from '../itemIdentity';

export const description: INodeProperties[] = [
	sessionLocator(
		'The draft session to send. Sending moves it to "pending" and emails a signing invitation to every recipient.',
	),
	optionsCollection(itemOptions),
];

const failures: FailureMessages = {
	NOT_A_DRAFT: {
		message: 'The session is not a draft, so it cannot be sent',
		description:
			'It was sent already, or it was completed, cancelled or expired. To remind recipients of a session already sent, use the Send Invitation operation.',
	},
	NO_RECIPIENTS: {
		message: 'The session has no recipients',
		description:
			'Add at least one recipient to the draft in the AirSign editor, then send it again.',
	},
	INCOMPLETE_RECIPIENTS: {
		message: 'Some recipients of the session have no name or no email',
		description:
			'Finish the draft in the AirSign editor: open the draftUrl that Create or Create From Template returned for it (Get and Get Many do not return it), or find the draft in AirSign. Every recipient needs a name and an email. Then send it again.',
	},
	SELF_SIGN_ONLY: {
		message: 'The session is self-sign only, so there is nobody to send it to',
		description: 'Self-sign sessions are signed by their owner in AirSign and are never sent.',
	},
	// A 400 whose answer names none of the codes above (no code, or a new one).
	400: {
		message: 'AirSign refused to send the session',
		description:
			'AirSign sends only a draft that has recipients, each with a name and an email, and that is not self-sign only. Open the session in AirSign (or read it with Get Session) to see which of these it misses.',
	},
	403: {
		description:
			'Its token lacks the scope write:sessions, which Send needs. Ask the AirSign administrator for a client with that scope.',
	},
	404: notFound('session'),
};

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const given = this.getNodeParameter('sessionId', itemIndex);
	const sessionId = readLocatorId(given, 'session', failer(this.getNode(), itemIndex));
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	// A 429 means AirSign did not process the request: it is waited out and sent again. A request
	// that may have reached AirSign is not.
	const { body } = await callAirSign(
		this,
		{ method: 'POST', path: `/Session/${encodeURIComponent(sessionId)}/Send`, itemIndex },
		{ failures, maxRateLimitWaitMs: maxRateLimitWaitMs(this, options), write: {} },
	);
	return [body as IDataObject];
}

export const identify = identifyByParameters('sessionId');
