import type { IDataObject } from 'n8n-workflow';

import type { Fail } from '../errors/nodeError';
import { EMAIL_PATTERN, SESSION_STATUSES } from './constants';
import { shownValue } from './validation';

export interface SessionMatch {
	status?: string;
	name?: string;
	recipientEmail?: string;
}

export function readSessionMatch(filters: IDataObject, fail: Fail): SessionMatch {
	const match: SessionMatch = {
		name: optionalText(filters.name),
		recipientEmail: optionalText(filters.recipientEmail),
		status: statusList(filters.status),
	};
	const unknownStatus = match.status
		?.split(',')
		.find((status) => !(SESSION_STATUSES as readonly string[]).includes(status));
	if (unknownStatus !== undefined)
		throw fail(
			`'Status' has an unknown value: ${unknownStatus}`,
			`AirSign's session states are ${SESSION_STATUSES.join(', ')}.`,
		);
	if (match.recipientEmail !== undefined && !EMAIL_PATTERN.test(match.recipientEmail))
		throw fail(`'Recipient Email' is not an email address: ${match.recipientEmail}`);
	return match;
}

export function optionalText(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The service takes several states as one comma-separated value. */
function statusList(value: unknown): string | undefined {
	// Anything but text (an expression of the wrong type) stays visible as JSON, an unknown state.
	const statuses = (
		Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value ?? '']
	)
		.map((status) =>
			typeof status === 'string' ? status.trim() : status === '' ? '' : shownValue(status),
		)
		.filter(Boolean);
	return statuses.length ? statuses.join(',') : undefined;
}
