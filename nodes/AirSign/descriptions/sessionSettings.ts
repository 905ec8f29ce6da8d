import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { Fail } from '../errors/nodeError';
import type { FeatureUse } from '../errors/messages';
import { LIMITS, PLAN_FEATURES, REMINDER_FREQUENCIES } from '../helpers/constants';
import { assertOneOf, shownValue } from '../helpers/validation';

// Expiry and reminders of Create, Create From Template and Create Template: the fields, then
// their reading. Only the options the builder added are sent: the rest is AirSign's (or the template's).
export function expiryOptions(neverExpires: boolean): INodeProperties[] {
	return [
		{
			displayName: 'Expiry Days',
			name: 'expiryDays',
			type: 'number',
			typeOptions: {
				minValue: neverExpires ? 0 : LIMITS.expiryDays.min,
				maxValue: LIMITS.expiryDays.max,
			},
			default: 30,
			description: `Days from sending until the session expires, ${LIMITS.expiryDays.min} to ${LIMITS.expiryDays.max}${neverExpires ? '; 0: never expires' : ''}. Needs the AirSign plan feature ${PLAN_FEATURES.expiry}.`,
		},
		{
			displayName: 'Reminder Frequency',
			name: 'reminderFrequency',
			type: 'options',
			options: [
				{ name: 'Daily', value: 'daily' },
				{ name: 'Weekly', value: 'weekly' },
				{ name: 'Monthly', value: 'monthly' },
				{ name: 'Quarterly', value: 'quarterly' },
			],
			default: 'weekly',
			description: `How often AirSign reminds recipients who have not signed. Needs the plan feature ${PLAN_FEATURES.expiry}.`,
		},
		{
			displayName: 'Send Reminders',
			name: 'reminderEnabled',
			type: 'boolean',
			default: true,
			description: `Whether AirSign emails reminders to recipients who have not signed. Needs the plan feature ${PLAN_FEATURES.expiry}.`,
		},
	];
}

// The request body's settings, and the plan features they use (for a 403's words).
export interface SessionSettings {
	body: IDataObject;
	features: FeatureUse[];
}

export function readSessionSettings(
	options: IDataObject,
	neverExpires: boolean,
	fail: Fail,
): SessionSettings {
	const body: IDataObject = {};
	const expiryUse: string[] = [];
	if (options.expiryDays !== undefined) {
		const days = options.expiryDays as number;
		const never = neverExpires && days === 0;
		if (
			!never &&
			(!Number.isInteger(days) || days < LIMITS.expiryDays.min || days > LIMITS.expiryDays.max)
		)
			throw fail(
				`'Expiry Days' must be a whole number from ${LIMITS.expiryDays.min} to ${LIMITS.expiryDays.max}${neverExpires ? ' (or 0: never expires)' : ''}, not ${shownValue(days)}`,
			);
		body.expiryDays = never ? null : days;
		expiryUse.push('Expiry Days');
	}
	if (options.reminderEnabled !== undefined) {
		body.reminderEnabled = options.reminderEnabled === true;
		expiryUse.push('Send Reminders');
	}
	if (options.reminderFrequency !== undefined) {
		const frequency = options.reminderFrequency;
		body.reminderFrequency = assertOneOf(
			frequency,
			"'Reminder Frequency'",
			REMINDER_FREQUENCIES,
			fail,
		);
		expiryUse.push('Reminder Frequency');
	}
	const features: FeatureUse[] = [];
	if (expiryUse.length) features.push({ feature: PLAN_FEATURES.expiry, parameters: expiryUse });
	return { body, features };
}
