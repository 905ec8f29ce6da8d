import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { SessionSettings } from '../../descriptions/sessionSettings';
import type { Fail } from '../../errors/nodeError';
import { COMPLETION_EMAIL_RECIPIENTS, PLAN_FEATURES, UUID_PATTERN } from '../../helpers/constants';
import { assertOneOf } from '../../helpers/validation';

// The settings only Create From Template takes: the fields, then their reading.
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

export function readTemplateSettings(
	options: IDataObject,
	{ body, features }: SessionSettings,
	fail: Fail,
): void {
	const profile = typeof options.senderProfileId === 'string' ? options.senderProfileId.trim() : '';
	if (profile !== '') {
		if (!UUID_PATTERN.test(profile))
			throw fail(
				`'Sender Profile ID' is not an AirSign ID: ${profile.slice(0, 60)}`,
				'A sender profile ID is a UUID; copy it from the sender profiles in AirSign.',
			);
		body.senderProfileId = profile;
		features.push({ feature: PLAN_FEATURES.senderProfiles, parameters: ['Sender Profile ID'] });
	}
	if (options.completionEmailRecipients !== undefined) {
		const given = options.completionEmailRecipients;
		const label = "'Completion Email Recipients'";
		body.overrideCompletionEmailRecipients = assertOneOf(
			given,
			label,
			COMPLETION_EMAIL_RECIPIENTS,
			fail,
		);
		features.push({
			feature: PLAN_FEATURES.completionEmails,
			parameters: ['Completion Email Recipients'],
		});
	}
	// A comma-separated text or a list (from an expression).
	const given = options.tagIds;
	const entries = Array.isArray(given) ? given : typeof given === 'string' ? given.split(',') : [];
	const tags = entries.map((entry) => String(entry).trim()).filter(Boolean);
	const notTag = tags.find((tag) => !UUID_PATTERN.test(tag));
	if (notTag !== undefined)
		throw fail(
			`'Tag IDs' holds something that is not a tag ID: ${notTag.slice(0, 60)}`,
			'Give tag IDs (UUIDs) separated by commas, or an expression that returns a list of them.',
		);
	if (tags.length) body.tagIds = tags;
}
