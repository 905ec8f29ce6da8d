// The events track of e2e/scenarios.mts (issue 21): `n8n start` with the two trigger examples
// and a third trigger on the lifecycle events, switched on in the running n8n; the scenario and
// checks k, l and q are in e2e/lib/events.mts.
import {
	COMPLETED_EXAMPLE,
	EVENTS_TIMEOUT_MS,
	EVENT_CHECK_NAMES,
	SIGNED_EXAMPLE,
	checkLifecycle,
	checkRecipientSigned,
	checkSessionCompleted,
	lifecycleWorkflow,
	runEventScenario,
	type EventOutcome,
} from '../lib/events.mts';
import { sandboxCredential } from '../lib/fixtures.mts';
import { importCredential, importWorkflow, setupOwner } from '../lib/n8n.mts';
import { runTrack, type ScenarioContext } from './common.mts';

/** Runs the events track (checks k, l, q) with the package `tarball`. */
export async function eventsTrack(ctx: ScenarioContext, tarball: string): Promise<void> {
	const { examples, log, check, step } = ctx;
	await runTrack(ctx, 'events', tarball, async ({ sandbox, userFolder, startN8n }) => {
		await step('events: credential + the two trigger examples imported (inactive)', async () => {
			await importCredential(userFolder, sandboxCredential(sandbox.url));
			await importWorkflow(userFolder, [
				examples[COMPLETED_EXAMPLE],
				examples[SIGNED_EXAMPLE],
				lifecycleWorkflow(examples[COMPLETED_EXAMPLE]),
			]);
		});
		const instance = await startN8n();
		const { cookie } = await setupOwner(instance.url);
		// what the checks judge: the scenario's outcome, or the error that ended it
		let outcome: (EventOutcome & { error?: undefined }) | { error: Error };
		try {
			outcome = await runEventScenario({
				sandbox,
				instance,
				cookie,
				examples,
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
	});
}
