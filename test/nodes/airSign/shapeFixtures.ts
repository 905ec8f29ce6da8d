/** Sessions for the Simplify and Output tests (simplify.test.ts, toolOutput.test.ts). */
import type { INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../../sandbox';
import { locator } from './helpers';

export const people = [
	{ name: 'Ann Signer', email: 'ann@example.com' },
	{ name: 'Bob Witness', email: 'bob@example.com' },
];

/** The keys of AirSign's whole session (Get Session). */
export const SESSION_FIELDS = [
	'sessionId',
	'name',
	'status',
	'selfSignOnly',
	'createdAt',
	'updatedAt',
	'completedDate',
	'expiryDate',
	'recipients',
	'sessionType',
	'files',
];

export const getSession = (sessionId: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'session',
	operation: 'get',
	sessionId: locator(sessionId),
	...extra,
});

/** A session sent to Ann then Bob; Ann has signed, Bob has not, so it is in progress. */
export function halfSigned(sandbox: Sandbox) {
	const session = sandbox.createSession({ name: 'Lease', status: 'pending', recipients: people });
	sandbox.signRecipient(session.sessionId, { email: 'ann@example.com' });
	return session;
}
