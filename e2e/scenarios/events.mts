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
	type EventOutcome,
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
	async run({ examples, log, check }, { sandbox, userFolder, instance, cookie }) {
		// what the checks judge: the scenario's outcome, or the error that ended it
		let outcome: (EventOutcome & { error?: undefined }) | { error: Error };
		try {
			outcome = await runEventScenario({
				sandbox,
				userFolder,
				instance,
				cookie,
				workflows: eventWorkflows(examples),
				log,
				deadline: Date.now() + EVENTS_TIMEOUT_MS,
			});
		} catch (error) {
			outcome = { error };
		}
		const judged = (fn: (outcome: EventOutcome) => string) => () => {
			if (outcome.error) throw outcome.error;
			return fn(outcome);
		};
		await check(EVENT_CHECK_NAMES.completed, judged(checkSessionCompleted));
		await check(EVENT_CHECK_NAMES.signed, judged(checkRecipientSigned));
		await check(EVENT_CHECK_NAMES.lifecycle, judged(checkLifecycle));
	},
};
