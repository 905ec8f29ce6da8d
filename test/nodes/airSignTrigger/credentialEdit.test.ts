import '../../harness';
import type { PollingHarness } from '../../harness';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { Sandbox } from '../../../sandbox';
import { useSandbox } from '../../harness/sandbox';
import { clientCredential, listRequests, newTrigger, T0, useTriggerSandbox } from './helpers';

/** Where the user tried the trigger out (n8n's clock follows this one's)… */
const getTrial = useTriggerSandbox();
/** …and the AirSign they move the credential to, a service of its own. */
const getReal = useSandbox({ now: T0 });

/** Both services' clocks move together, past the trigger's settling window. */
function advance(trial: Sandbox, real: Sandbox, ms = 5_000): void {
	trial.clock.advance(ms);
	real.clock.set(trial.clock.now());
}

/** Saves an edit of the trigger's credential, as n8n's credential dialog does. */
async function editCredential(
	trigger: PollingHarness,
	changes: ICredentialDataDecryptedObject,
): Promise<void> {
	await trigger.env.editCredential(trigger.node.credentials!.airSignApi.id!, changes);
}

const ids = (result: Awaited<ReturnType<PollingHarness['poll']>>) =>
	result.items.map((item) => item.json.sessionId);

/**
 * n8n polls an active trigger with one context from activation on, while each `getCredentials`
 * reads the credential as it is saved now: an edit applies from the next poll
 * (docs/credentials.md).
 */
describe('AirSign Trigger: the credential edited while the workflow is active', () => {
	it('access token: the next poll goes to the new Base URL with the new token', async () => {
		const trial = getTrial();
		const real = getReal();
		const trigger = newTrigger(trial);
		expect((await trigger.poll()).error).toBeUndefined(); // activation
		advance(trial, real);
		const tried = trial.createSession({ name: 'Tried out' });
		advance(trial, real);
		expect(ids(await trigger.poll())).toEqual([tried.sessionId]);

		await editCredential(trigger, { baseUrl: real.baseUrl, accessToken: real.other.accessToken });
		const trialRequests = trial.requests.length;
		advance(trial, real);
		const signed = real.createSession({ name: 'Signed for real', orgId: real.other.orgId });
		advance(trial, real);
		const next = await trigger.poll();

		expect(next.error).toBeUndefined();
		expect(ids(next)).toEqual([signed.sessionId]);
		expect(trial.requests.length).toBe(trialRequests);
		expect(listRequests(real).map((r) => [r.status, r.orgId])).toEqual([[200, real.other.orgId]]);
	});

	it('client credentials: the token is fetched from the new Base URL and used there', async () => {
		const trial = getTrial();
		const real = getReal();
		const trigger = newTrigger(trial, { credential: clientCredential(trial) });
		expect((await trigger.poll()).error).toBeUndefined();
		advance(trial, real);

		// The trial's token stays saved with the credential, as n8n keeps an untouched hidden field.
		await editCredential(trigger, {
			baseUrl: real.baseUrl,
			clientId: real.other.clientId,
			clientSecret: real.other.clientSecret,
		});
		const trialRequests = trial.requests.length;
		trial.createSession({ name: 'Still in the trial' });
		const signed = real.createSession({ name: 'Signed for real', orgId: real.other.orgId });
		advance(trial, real);
		const next = await trigger.poll();

		expect(next.error).toBeUndefined();
		expect(ids(next)).toEqual([signed.sessionId]);
		expect(trial.requests.length).toBe(trialRequests);
		expect(real.requests.some((r) => r.path.endsWith('/token') && r.status === 200)).toBe(true);
		expect(listRequests(real).filter((r) => r.status === 200)).toMatchObject([
			{ orgId: real.other.orgId },
		]);
	});
});
