// The events track of e2e/scenarios.mts (issue 21): the two trigger examples and a third trigger
// on the lifecycle events, switched on in the running n8n; the scenario and checks k, l and q are
// in e2e/lib/events.mts.
import {
	EVENTS_CREDENTIAL,
	EVENTS_TIMEOUT_MS,
	EVENT_CHECK_NAMES,
	SIGNED_EXAMPLE,
	checkLifecycle,
	checkRecipientSigned,
	checkSessionCompleted,
	eventWorkflows,
	runEventScenario,
} from '../lib/events.mts';
import { sandboxCredential } from '../lib/fixtures.mts';
import type { ScenarioTrack } from './common.mts';

/** The events track (checks k, l, q). */
export const eventsTrack: ScenarioTrack = {
	name: 'events',
	label: 'events track setup (k, l, q)',
	examples: ['notify-on-completed', SIGNED_EXAMPLE],
	imports: ({ examples }, sandbox) => ({
		credentials: [{ ...sandboxCredential(sandbox.url), ...EVENTS_CREDENTIAL }],
		workflows: eventWorkflows(examples),
	}),
	async run({ examples, log, check }, t) {
		const deadline = Date.now() + EVENTS_TIMEOUT_MS;
		const workflows = eventWorkflows(examples);
		const outcome = runEventScenario({ ...t, workflows, log, deadline });
		outcome.catch(() => {}); // judged by each check: a failed scenario fails all three
		await check(EVENT_CHECK_NAMES.completed, async () => checkSessionCompleted(await outcome));
		await check(EVENT_CHECK_NAMES.signed, async () => checkRecipientSigned(await outcome));
		await check(EVENT_CHECK_NAMES.lifecycle, async () => checkLifecycle(await outcome));
	},
};
