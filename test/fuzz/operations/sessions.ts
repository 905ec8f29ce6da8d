/** The fuzzed operations (test/fuzz/inputCases.ts): Send, Get, Send Invitation and Get Many of sessions. */
import fc from 'fast-check';
import { SESSION_STATUSES } from '../../../nodes/AirSign/helpers/constants';
import type { Sandbox } from '../../../sandbox';
import { ref, type OperationUnderTest, type Slot } from '../inputCases';
import { anyText, email, junk, notEmail, notUuid, shortText, uuid } from '../values';
import {
	slot,
	drafts,
	idSlot,
	isoDate,
	limitSlot,
	locatorAt,
	maxWaitSlot,
	recipients,
} from './common';

const LOCATOR_MODES = ['id', 'url', 'list', 'plain'] as const;

/** Send or Get of a draft, one operation per way of giving its ID. */
const byLocatorMode = (operation: string, title: string, slots: Slot[] = []) =>
	LOCATOR_MODES.map(
		(mode): OperationUnderTest => ({
			name: `Session ${title} (${mode})`,
			params: { resource: 'session', operation },
			slots: [idSlot('sessionId', 'draft', mode), ...slots],
			setup: (sandbox, n) => ({ draft: drafts(sandbox, n) }),
		}),
	);
export const sendOperations = byLocatorMode('send', 'Send');
export const getSessionOperations = byLocatorMode('get', 'Get', [maxWaitSlot]);

const pendingSessions = (sandbox: Sandbox, n: number) =>
	Array.from({ length: n }, (_, i) =>
		sandbox.createSession({ name: `Pending ${i}`, recipients, status: 'pending' }),
	);

/** Send Invitation to a pending session's recipient, given as `recipient`. */
const invitation = (name: string, recipient: Slot): OperationUnderTest => ({
	name: `Session Send Invitation${name}`,
	params: { resource: 'session', operation: 'sendInvitation', recipient: 'specific' },
	slots: [idSlot('sessionId', 'pending', 'id'), recipient],
	setup: (sandbox, n) => {
		const sessions = pendingSessions(sandbox, n);
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
			valid: fc.oneof(fc.constant(''), fc.constant('2001-01-01T00:00:00Z')),
			invalid: fc.constantFrom('yesterday-ish', 'not a date', '2025-13-45', '31/31/2025'),
		}),
		slot('updatedBefore', /Updated Before/, 'filters.updatedBefore', {
			valid: fc.oneof(
				fc.constant(''),
				isoDate().filter((d) => d > '2001'),
			),
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
			valid: fc.oneof(fc.constant(''), email()),
			invalid: fc.constantFrom('ann', 'ann@', '@x.com', 'a b@x.com'),
		}),
		slot('nameFilter', /Name/, 'filters.name', {
			valid: fc.oneof(fc.constant(''), anyText(30)),
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
