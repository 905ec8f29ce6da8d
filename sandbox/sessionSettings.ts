import { ApiProblem, EMAIL_PATTERN, invalid, isPlainObject, UUID_PATTERN } from './http';
import type { Organisations } from './orgs';
import { COMPLETION_EMAIL_RECIPIENTS, REMINDER_FREQUENCIES, type PlanFeature } from './publicTypes';

export const MAX_NAME_LENGTH = 50;
export const MAX_RECIPIENTS = 20;
export const EXPIRY_DAYS = [1, 730] as const;
export const RECIPIENT_KEY_PATTERN = /^[A-Za-z0-9_-]+$/;

/** The request body as an object, or 400. */
export function bodyObject(raw: Buffer): Record<string, unknown> {
	let body: unknown;
	try {
		const text = raw.toString('utf8').trim();
		body = text === '' ? {} : JSON.parse(text);
	} catch {
		throw new ApiProblem(400, 'INVALID_JSON', 'The request body is not valid JSON');
	}
	if (!isPlainObject(body)) throw invalid('body', 'The request body must be a JSON object');
	return body;
}

/** A name of 1–50 characters (docs/api.md: the three creates). */
export function checkName(value: unknown, field = 'name'): string {
	if (typeof value !== 'string' || value.trim() === '' || [...value].length > MAX_NAME_LENGTH)
		throw invalid(field, `${field} must be text of 1 to ${MAX_NAME_LENGTH} characters`);
	return value;
}

export function checkBoolean(value: unknown, field: string): boolean | undefined {
	if (value === undefined) return undefined;
	if (typeof value !== 'boolean') throw invalid(field, `${field} must be true or false`);
	return value;
}

export function checkEmail(value: unknown, field: string): string {
	if (typeof value !== 'string' || !EMAIL_PATTERN.test(value.trim()))
		throw invalid(field, `${field} must be an email address`);
	return value.trim();
}

export interface ParsedSettings {
	/** undefined: not given (inherited); null: never expires (Create From Template only). */
	expiryDays?: number | null;
	reminderEnabled?: boolean;
	reminderFrequency?: string;
	senderProfileId?: string;
	completionEmailRecipients?: string;
	tagIds?: string[];
	features: PlanFeature[];
}

/**
 * The session settings of Create Session and Create Session From Template (docs/api.md), checked,
 * with the plan features they use. `extended` adds the latter's (null expiry, sender profile,
 * completion emails, tags).
 */
export function parseSettings(body: Record<string, unknown>, extended: boolean): ParsedSettings {
	const settings: ParsedSettings = { features: [] };
	const { expiryDays, reminderEnabled, reminderFrequency } = body;
	if (expiryDays !== undefined) {
		const nullable = extended && expiryDays === null;
		if (
			!nullable &&
			(!Number.isInteger(expiryDays) ||
				(expiryDays as number) < EXPIRY_DAYS[0] ||
				(expiryDays as number) > EXPIRY_DAYS[1])
		)
			throw invalid('expiryDays', 'expiryDays must be a whole number from 1 to 730');
		settings.expiryDays = expiryDays as number | null;
	}
	settings.reminderEnabled = checkBoolean(reminderEnabled, 'reminderEnabled');
	if (reminderFrequency !== undefined) {
		if (!(REMINDER_FREQUENCIES as readonly unknown[]).includes(reminderFrequency))
			throw invalid(
				'reminderFrequency',
				`reminderFrequency must be ${REMINDER_FREQUENCIES.join(', ')}`,
			);
		settings.reminderFrequency = reminderFrequency as string;
	}
	if ([expiryDays, reminderEnabled, reminderFrequency].some((v) => v !== undefined))
		settings.features.push('Session Expiry');
	if (!extended) return settings;

	const { senderProfileId, overrideCompletionEmailRecipients: completion, tagIds } = body;
	if (senderProfileId !== undefined) {
		if (typeof senderProfileId !== 'string' || !UUID_PATTERN.test(senderProfileId))
			throw invalid('senderProfileId', 'senderProfileId must be a sender profile UUID');
		settings.senderProfileId = senderProfileId.toLowerCase();
		settings.features.push('Sender Profiles');
	}
	if (completion !== undefined) {
		if (!(COMPLETION_EMAIL_RECIPIENTS as readonly unknown[]).includes(completion))
			throw invalid(
				'overrideCompletionEmailRecipients',
				`overrideCompletionEmailRecipients must be ${COMPLETION_EMAIL_RECIPIENTS.join(', ')}`,
			);
		settings.completionEmailRecipients = completion as string;
		settings.features.push('Completion Email Recipients');
	}
	if (tagIds !== undefined) {
		if (
			!Array.isArray(tagIds) ||
			tagIds.some((id) => typeof id !== 'string' || !UUID_PATTERN.test(id))
		)
			throw invalid('tagIds', 'tagIds must be an array of tag UUIDs');
		settings.tagIds = tagIds.map((id: string) => id.toLowerCase());
	}
	return settings;
}

/** After every other check: the plan (403), then the sender profile's existence. */
export function enforceSettings(
	settings: ParsedSettings,
	orgs: Organisations,
	orgId: string,
): void {
	orgs.requireFeatures(orgId, settings.features);
	if (
		settings.senderProfileId !== undefined &&
		!orgs.hasSenderProfile(orgId, settings.senderProfileId)
	)
		throw invalid('senderProfileId', 'No verified sender profile has this ID');
}
