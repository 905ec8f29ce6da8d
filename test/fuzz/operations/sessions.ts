/**
 * The fuzzed operations (test/fuzz/inputCases.ts): Send, Get, Send Invitation and Get Many of
 * sessions, and the helpers and parameter slots the other operations share.
 */
import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { expect } from 'vitest';
import {
	LIMITS,
	REMINDER_FREQUENCIES,
	SESSION_STATUSES,
} from '../../../nodes/AirSign/helpers/constants';
import { drafts } from '../../nodes/airSign/helpers';
import { ref, type OperationUnderTest, type Slot } from '../inputCases';
import {
	anyText,
	dateBetween,
	email,
	junk,
	notEmail,
	notText,
	notUuid,
	orBlank,
	shortText,
	uuid,
} from '../values';

/** Sets `params.a.b...` = value (dotted path `where`), creating objects on the way. */
const at = (where: string) => (params: INodeParameters, value: string) => {
	const path = where.split('.');
	let node = params as IDataObject;
	for (const step of path.slice(0, -1)) node = (node[step] ??= {}) as IDataObject;
	node[path[path.length - 1]] = value;
};
/** A slot whose value sits at `where` in the node's parameters. */
export const slot = (
	key: string,
	label: RegExp,
	where: string,
	values: Pick<Slot, 'valid' | 'invalid' | 'junk'>,
): Slot => ({ key, label, place: at(where), ...values });
/** A resource locator parameter whose value comes from the item. */
export const locatorAt =
	(name: string, mode: 'id' | 'url' | 'list' | 'email') =>
	(params: INodeParameters, value: string) => {
		params[name] = { __rl: true, mode, value };
	};

/** No session made may be named from an object (`[object Object]`). */
export const checkSessionNames = (output: IDataObject[]) => {
	for (const session of output) expect(String(session.name)).not.toContain('[object Object]');
};

const recipients = [{ name: 'Ann', email: 'ann@example.com' }];
export const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** A session's or template's ID as the mode takes it (`plain`: a text parameter), of `fixture`. */
export const idSlot = (
	key: 'sessionId' | 'templateId',
	fixture: string,
	mode: 'id' | 'url' | 'list' | 'plain',
): Slot => ({
	key,
	label: new RegExp(`${key.slice(0, -2)} ID|URL`, 'i'),
	place: mode === 'plain' ? at(key) : locatorAt(key, mode),
	valid: mode === 'url' ? ref(fixture, ['url']) : ref(fixture, ['plain', 'upper', 'spaced']),
	// By URL: any text holding exactly one UUID is read as a link to it (AirSign's links are not
	// documented), so only text without one, or with several, breaks the rule.
	invalid: fc.oneof(
		mode === 'url' ? notUuid().filter((text) => !UUID_ANYWHERE.test(text)) : notUuid(),
		mode === 'url'
			? fc.constantFrom('https://app.airsign.example/app/sessions/', 'no link at all')
			: notUuid(),
		fc
			.tuple(uuid(), uuid())
			.map(([a, b]) => (mode === 'url' ? `https://x.example/${a}/${b}` : `${a},${b}`)),
	),
	junk: fc.oneof(junk(), notText(), uuid()),
});

export const expiryDaysSlot = (fromTemplate: boolean) =>
	slot('expiryDays', /Expiry Days/, 'options.expiryDays', {
		valid: fc.integer({
			min: fromTemplate ? 0 : LIMITS.expiryDays.min,
			max: LIMITS.expiryDays.max,
		}),
		invalid: fc.oneof(
			fc.integer({ min: LIMITS.expiryDays.max + 1, max: 100_000 }),
			fc.integer({ min: -1000, max: fromTemplate ? -1 : 0 }),
			fc.double({ min: 1.01, max: 729.99, noInteger: true }),
		),
	});

export const reminderSlot = slot(
	'reminderFrequency',
	/Reminder Frequency/,
	'options.reminderFrequency',
	{
		valid: fc.constantFrom(...REMINDER_FREQUENCIES),
		invalid: fc.oneof(
			anyText().filter((t) => !(REMINDER_FREQUENCIES as readonly string[]).includes(t)),
			fc.constantFrom('Daily', 'yearly', ' weekly'),
		),
	},
);

export const maxWaitSlot = slot('maxRateLimitWait', /Max Wait/, 'options.maxRateLimitWait', {
	valid: fc.integer({ min: 0, max: 900 }),
});

/** Get Many's Limit, sessions and templates alike. */
export const limitSlot = slot('limit', /Limit/, 'limit', {
	valid: fc.integer({ min: 1, max: 500 }),
	invalid: fc.oneof(
		fc.integer({ min: -100, max: 0 }),
		fc.double({ min: 0.1, max: 99.9, noInteger: true }),
	),
});

/** A date from 2000 to 2090 as ISO 8601 text. */
export const isoDate = () => dateBetween('2000-01-01', '2090-01-01').map((d) => d.toISOString());

const LOCATOR_MODES = ['id', 'url', 'list', 'plain'] as const;

/** Send or Get of a draft, one operation per way of giving its ID. */
const byLocatorMode = (operation: string, title: string, slots: Slot[] = []) =>
	LOCATOR_MODES.map(
		(mode): OperationUnderTest => ({
			name: `Session ${title} (${mode})`,
			params: { resource: 'session', operation },
			slots: [idSlot('sessionId', 'draft', mode), ...slots],
			setup: (sandbox, n) => ({ draft: drafts(sandbox, n).map((s) => s.sessionId) }),
		}),
	);
export const sendOperations = byLocatorMode('send', 'Send');
export const getSessionOperations = byLocatorMode('get', 'Get', [maxWaitSlot]);

/** Send Invitation to a pending session's recipient, given as `recipient`. */
const invitation = (name: string, recipient: Slot): OperationUnderTest => ({
	name: `Session Send Invitation${name}`,
	params: { resource: 'session', operation: 'sendInvitation', recipient: 'specific' },
	slots: [idSlot('sessionId', 'pending', 'id'), recipient],
	setup: (sandbox, n) => {
		const sessions = Array.from({ length: n }, (_, i) =>
			sandbox.createSession({ name: `Pending ${i}`, recipients, status: 'pending' }),
		);
		return {
			pending: sessions.map((s) => s.sessionId),
			recipient: sessions.map((s) => s.recipients[0].recipientId),
		};
	},
});

export const sendInvitation = invitation('', {
	key: 'recipientEmail',
	label: /Recipient/,
	place: locatorAt('recipientLocator', 'email'),
	valid: fc.constantFrom('ann@example.com', ' ann@example.com ', 'ANN@example.com'),
	invalid: notEmail(),
	junk: fc.oneof(junk(), email()),
});

export const sendInvitationById = invitation(' (by recipient ID)', {
	key: 'recipientId',
	label: /Recipient ID/,
	place: locatorAt('recipientLocator', 'id'),
	valid: ref('recipient', ['plain', 'upper', 'spaced']),
	invalid: notUuid(),
	junk: fc.oneof(junk(), uuid()),
});

export const getManySessions: OperationUnderTest = {
	name: 'Session Get Many',
	params: { resource: 'session', operation: 'getMany', returnAll: false },
	slots: [
		limitSlot,
		slot('createdAfter', /Created After/, 'filters.createdAfter', {
			valid: fc.constantFrom('', '2001-01-01T00:00:00Z'),
			invalid: fc.constantFrom('yesterday-ish', 'not a date', '2025-13-45', '31/31/2025'),
		}),
		slot('updatedBefore', /Updated Before/, 'filters.updatedBefore', {
			valid: orBlank(isoDate().filter((d) => d > '2001')),
			invalid: fc.constantFrom('soon', '2025-02-30T99:00', 'T12:00'),
		}),
		slot('status', /Status/, 'filters.status', {
			valid: fc.subarray([...SESSION_STATUSES]),
			invalid: fc.oneof(
				fc.constantFrom(['done'], ['Draft'], 'pending,unknown', ['in progress']),
				fc.array(
					shortText(10).filter((t) => !(SESSION_STATUSES as readonly string[]).includes(t.trim())),
					{
						minLength: 1,
						maxLength: 2,
					},
				),
			),
		}),
		slot('recipientEmail', /Recipient Email/, 'filters.recipientEmail', {
			valid: orBlank(email()),
			invalid: fc.constantFrom('ann', 'ann@', '@x.com', 'a b@x.com'),
		}),
		slot('nameFilter', /Name/, 'filters.name', {
			valid: orBlank(anyText(30)),
		}),
		slot('sortBy', /Sort By/, 'sort.sortBy', {
			valid: fc.constantFrom('completedDate', 'createdAt', 'name', 'updatedAt'),
			invalid: fc.constantFrom('status', 'UpdatedAt', 'random', 'name desc'),
			// (blank means AirSign's default; spaces around a value are trimmed)
		}),
		slot('sortOrder', /Sort Order/, 'sort.sortOrder', {
			valid: fc.constantFrom('asc', 'desc'),
			invalid: fc.constantFrom('ASC', 'up', 'descending', 'asc,desc'),
		}),
	],
};
