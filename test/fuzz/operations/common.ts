/** The fuzzed operations (test/fuzz/inputCases.ts): The helpers and parameter slots the operations below share. */
import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { expect } from 'vitest';
import { LIMITS, REMINDER_FREQUENCIES } from '../../../nodes/AirSign/helpers/constants';
import { type Sandbox } from '../../../sandbox';
import { ref, type Slot } from '../inputCases';
import { anyText, dateBetween, junk, notText, notUuid, uuid } from '../values';

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

export const recipients = [{ name: 'Ann', email: 'ann@example.com' }];
export const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

export function drafts(sandbox: Sandbox, n: number): string[] {
	return Array.from(
		{ length: n },
		(_, i) => sandbox.createSession({ name: `Draft ${i}`, recipients }).sessionId,
	);
}

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
