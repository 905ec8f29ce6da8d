import type { INodeProperties } from 'n8n-workflow';

import { COMPLETION_EMAIL_RECIPIENTS, LIMITS, PLAN_FEATURES } from '../helpers/constants';

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

export const templateSessionOptions: INodeProperties[] = [
	{
		displayName: 'Completion Email Recipients',
		name: 'completionEmailRecipients',
		type: 'options',
		options: COMPLETION_EMAIL_RECIPIENTS.map((value) => ({
			name: {
				all: 'All',
				sender_only: 'Sender Only',
				sender_and_cc: 'Sender and CC',
				none: 'None',
			}[value],
			value,
		})),
		default: 'all',
		description: `Who is emailed when everyone has signed, instead of the template's choice. Needs the plan feature ${PLAN_FEATURES.completionEmails}.`,
	},
	{
		displayName: 'Sender Profile ID',
		name: 'senderProfileId',
		type: 'string',
		default: '',
		placeholder: 'e.g. 5e0d3c2a-9b1f-4c6e-8a7d-2f4b6c8e0a1d',
		description: `A verified sender profile of the organisation (copy its ID from AirSign: no endpoint lists them). Needs the plan feature ${PLAN_FEATURES.senderProfiles}.`,
	},
	{
		displayName: 'Tag IDs',
		name: 'tagIds',
		type: 'string',
		default: '',
		placeholder: 'e.g. 11111111-2222-4333-8444-555555555555, …',
		description:
			'Tags for the session, as tag IDs separated by commas (copy them from AirSign: no endpoint lists tags)',
	},
];
