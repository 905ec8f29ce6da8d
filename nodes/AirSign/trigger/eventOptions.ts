import type { INodeProperties } from 'n8n-workflow';

/** The events of the AirSign Trigger, as n8n users choose them. */
const EVENT_OPTIONS = [
	{
		name: 'Any Change',
		value: 'anyChange',
		description:
			'Every change of a session: created, sent, signed, completed, cancelled, expired or edited',
	},
	{
		name: 'Recipient Status Changed',
		value: 'recipientStatusChanged',
		description: 'A recipient signed (or their status changed otherwise); one item per recipient',
	},
	{ name: 'Session Cancelled', value: 'sessionCancelled', description: 'A session was cancelled' },
	{
		name: 'Session Completed',
		value: 'sessionCompleted',
		description: 'Every recipient signed: the session is completed',
	},
	{ name: 'Session Created', value: 'sessionCreated', description: 'A new session appeared' },
	{
		name: 'Session Expired',
		value: 'sessionExpired',
		description: 'A session expired before everyone signed',
	},
	{ name: 'Session Sent', value: 'sessionSent', description: 'A draft was sent to its recipients' },
] as const;

export type TriggerEvent = (typeof EVENT_OPTIONS)[number]['value'];
export const TRIGGER_EVENTS: readonly TriggerEvent[] = EVENT_OPTIONS.map((o) => o.value);

export const eventsProperty: INodeProperties = {
	displayName: 'Events',
	name: 'events',
	type: 'multiOptions',
	required: true,
	options: [...EVENT_OPTIONS],
	default: ['sessionCompleted'],
	description:
		'What starts the workflow; each change gives each chosen event once, also when the session changes again later',
};

/**
 * The node's subtitle: the chosen events' names. The lookup table is in parentheses: after `=>` a
 * bare `{` would open a function body.
 */
const EVENT_NAMES = JSON.stringify(Object.fromEntries(EVENT_OPTIONS.map((o) => [o.value, o.name])));
export const EVENTS_SUBTITLE = `={{ [].concat($parameter["events"] || []).map(e => (${EVENT_NAMES})[e] || e).join(", ") || "No event chosen" }}`;

/**
 * Recipient statuses are not documented by AirSign (its pages show only "pending"): any value is
 * taken; the ones seen so far are suggested.
 */
export const recipientStatusFilter: INodeProperties = {
	displayName: 'Recipient Status',
	name: 'recipientStatus',
	type: 'string',
	default: '',
	placeholder: 'e.g. completed',
	description:
		'Recipient Status Changed only: keep recipients whose new status is one of these (comma-separated, as AirSign writes it, e.g. completed). AirSign does not document its recipient statuses; values seen include notSent, sent, pending and completed.',
};
