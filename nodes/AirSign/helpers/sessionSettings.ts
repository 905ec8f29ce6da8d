import type { IDataObject, INode } from 'n8n-workflow';

import type { FeatureUse } from '../errors/messages';
import {
	COMPLETION_EMAIL_RECIPIENTS,
	LIMITS,
	PLAN_FEATURES,
	REMINDER_FREQUENCIES,
	UUID_PATTERN,
} from './constants';
import { failer } from '../errors/inputError';
import { shownValue } from './validation';

export interface SessionSettings {
	body: IDataObject;
	features: FeatureUse[];
}

export function readSessionSettings(
	node: INode,
	options: IDataObject,
	itemIndex: number,
	fromTemplate: boolean,
): SessionSettings {
	const body: IDataObject = {};
	const fail = failer(node, itemIndex);
	const expiryUse: string[] = [];
	if (options.expiryDays !== undefined) {
		const days = options.expiryDays as number;
		const never = fromTemplate && days === 0;
		if (
			!never &&
			(!Number.isInteger(days) || days < LIMITS.expiryDays.min || days > LIMITS.expiryDays.max)
		)
			throw fail(
				`"Expiry Days" must be a whole number from ${LIMITS.expiryDays.min} to ${LIMITS.expiryDays.max}${fromTemplate ? ' (or 0: never expires)' : ''}, not ${shownValue(days)}`,
			);
		body.expiryDays = never ? null : days;
		expiryUse.push('Expiry Days');
	}
	if (options.reminderEnabled !== undefined) {
		body.reminderEnabled = options.reminderEnabled === true;
		expiryUse.push('Send Reminders');
	}
	if (options.reminderFrequency !== undefined) {
		if (!(REMINDER_FREQUENCIES as readonly unknown[]).includes(options.reminderFrequency))
			throw fail(
				`"Reminder Frequency" must be one of ${REMINDER_FREQUENCIES.join(', ')}, not ${shownValue(options.reminderFrequency)}`,
			);
		body.reminderFrequency = options.reminderFrequency;
		expiryUse.push('Reminder Frequency');
	}
	const features: FeatureUse[] = [];
	if (expiryUse.length) features.push({ feature: PLAN_FEATURES.expiry, parameters: expiryUse });
	if (!fromTemplate) return { body, features };

	const profile = typeof options.senderProfileId === 'string' ? options.senderProfileId.trim() : '';
	if (profile !== '') {
		if (!UUID_PATTERN.test(profile))
			throw fail(
				`"Sender Profile ID" is not an AirSign ID: ${profile.slice(0, 60)}`,
				'A sender profile ID is a UUID; copy it from the sender profiles in AirSign.',
			);
		body.senderProfileId = profile;
		features.push({ feature: PLAN_FEATURES.senderProfiles, parameters: ['Sender Profile ID'] });
	}
	if (options.completionEmailRecipients !== undefined) {
		if (
			!(COMPLETION_EMAIL_RECIPIENTS as readonly unknown[]).includes(
				options.completionEmailRecipients,
			)
		)
			throw fail(
				`"Completion Email Recipients" must be one of ${COMPLETION_EMAIL_RECIPIENTS.join(', ')}`,
			);
		body.overrideCompletionEmailRecipients = options.completionEmailRecipients;
		features.push({
			feature: PLAN_FEATURES.completionEmails,
			parameters: ['Completion Email Recipients'],
		});
	}
	const tags = listOf(options.tagIds);
	const notTag = tags.find((tag) => !UUID_PATTERN.test(tag));
	if (notTag !== undefined)
		throw fail(
			`"Tag IDs" holds something that is not a tag ID: ${notTag.slice(0, 60)}`,
			'Give tag IDs (UUIDs) separated by commas, or an expression that returns a list of them.',
		);
	if (tags.length) body.tagIds = tags;
	return { body, features };
}

export function listOf(value: unknown): string[] {
	const entries = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
	return entries.map((entry) => String(entry).trim()).filter(Boolean);
}
