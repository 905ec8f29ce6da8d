import { ApiProblem, EMAIL_PATTERN, invalid, isPlainObject, isWhole, UUID_PATTERN } from './http';
import type { Call } from './context';
import { COMPLETION_EMAIL_RECIPIENTS, REMINDER_FREQUENCIES, type PlanFeature } from './publicTypes';

const MAX_NAME_LENGTH = 50;
const MAX_RECIPIENTS = 20;
const EXPIRY_DAYS = [1, 730] as const;
const RECIPIENT_KEY_PATTERN = /^[A-Za-z0-9_-]+$/;

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
	if (value !== undefined && typeof value !== 'boolean')
		throw invalid(field, `${field} must be true or false`);
	return value;
}

/** A value that must be one of `allowed` when given. */
function checkOneOf(value: unknown, field: string, allowed: readonly string[]) {
	if (value !== undefined && !allowed.includes(value as string))
		throw invalid(field, `${field} must be ${allowed.join(', ')}`);
	return value as string | undefined;
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

/** Create Session's settings with the plan features they use; `extended`: From Template's too. */
function parseSettings(body: Record<string, unknown>, extended: boolean): ParsedSettings {
	const { expiryDays, reminderEnabled, reminderFrequency } = body;
	const never = extended && expiryDays === null;
	if (expiryDays !== undefined && !never && !isWhole(expiryDays, ...EXPIRY_DAYS))
		throw invalid('expiryDays', 'expiryDays must be a whole number from 1 to 730');
	const settings: ParsedSettings = {
		features: [],
		expiryDays: expiryDays as number | null | undefined,
		reminderEnabled: checkBoolean(reminderEnabled, 'reminderEnabled'),
		reminderFrequency: checkOneOf(reminderFrequency, 'reminderFrequency', REMINDER_FREQUENCIES),
	};
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
	const completionField = 'overrideCompletionEmailRecipients';
	settings.completionEmailRecipients = checkOneOf(
		completion,
		completionField,
		COMPLETION_EMAIL_RECIPIENTS,
	);
	if (completion !== undefined) settings.features.push('Completion Email Recipients');
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

/** The settings checked, then (after every other check of the body) the plan (403) and the sender profile. */
export function checkedSettings(
	call: Pick<Call, 'ctx' | 'orgId'>,
	body: Record<string, unknown>,
	extended: boolean,
): ParsedSettings {
	const { ctx, orgId } = call;
	const settings = parseSettings(body, extended);
	ctx.orgs.requireFeatures(orgId, settings.features);
	const profile = settings.senderProfileId;
	if (profile !== undefined && !ctx.orgs.hasSenderProfile(orgId, profile))
		throw invalid('senderProfileId', 'No verified sender profile has this ID');
	return settings;
}

/** `recipients` of Create Session or Template: 1 to 20, unique keys; `parseEntry` checks the rest. */
export function parseRecipientList<T>(
	value: unknown,
	parseEntry: (entry: Record<string, unknown>, field: string, key: string) => T,
): T[] {
	if (!Array.isArray(value) || value.length < 1 || value.length > MAX_RECIPIENTS)
		throw invalid('recipients', `recipients must be an array of 1 to ${MAX_RECIPIENTS} entries`);
	const seen = new Set<string>();
	return value.map((entry, index) => {
		const field = `recipients[${index}]`;
		if (!isPlainObject(entry)) throw invalid(field, 'a recipient must be an object');
		const { key } = entry;
		if (typeof key !== 'string' || !RECIPIENT_KEY_PATTERN.test(key))
			throw invalid(`${field}.key`, 'key must be letters, digits, "_" or "-"');
		if (seen.has(key)) {
			const message = `Two recipients have the key "${key}"`;
			throw new ApiProblem(400, 'DUPLICATE_RECIPIENT_KEY', message, `${field}.key`);
		}
		seen.add(key);
		return parseEntry(entry, field, key);
	});
}

/** An optional signing order: a whole number from 1. */
export function checkSigningOrder(value: unknown, field: string): number | undefined {
	if (value !== undefined && !isWhole(value, 1))
		throw invalid(`${field}.signingOrder`, 'signingOrder must be a whole number from 1');
	return value as number | undefined;
}
