import '../../harness';
import { ENGINE } from '../../harness/engine';

import { describe, expect, it } from 'vitest';

import { activated, HOUR, MINUTE, SESSIONS, tokenCredential, useTriggerSandbox } from './helpers';

/**
 * The trigger's errors declare their cause too (n8n-workflow 2.41's `failure`, which n8n's poll
 * scheduler is to back off by); on n8n 1.x's engine they come without it, otherwise the same.
 */
const getSandbox = useTriggerSandbox();
const failureOf = (error: unknown) => (error as { failure?: unknown }).failure;
const declared = (cause: string) => (ENGINE === 'n8n-2' ? { cause } : undefined);

describe('AirSign Trigger: declared failure causes', () => {
	it('the 5th poll in a row that AirSign answered 503 → temporarily-unavailable', async () => {
		const sandbox = getSandbox();
		const trigger = await activated(sandbox);
		sandbox.injectFault({ kind: 'status', status: 503, path: SESSIONS, count: 10 });
		let reported: unknown;
		for (let i = 0; i < 5 && reported === undefined; i++) {
			reported = (await trigger.poll()).error;
			sandbox.clock.advance(MINUTE);
		}
		expect(reported).toBeDefined();
		expect((reported as Error).message).toMatch(/could not be read for 5 polls in a row/);
		expect(failureOf(reported)).toEqual(declared('temporarily-unavailable'));
	});

	it('an access token AirSign rejects → credential-invalid, on the first poll', async () => {
		const sandbox = getSandbox();
		const token = sandbox.issueToken({ ttlSeconds: 3600 });
		const trigger = await activated(sandbox, { credential: tokenCredential(sandbox, token) });
		sandbox.clock.advance(2 * HOUR);
		expect(failureOf((await trigger.poll()).error)).toEqual(declared('credential-invalid'));
	});

	it('a 403 (the token lacks the scope) → configuration-invalid', async () => {
		const sandbox = getSandbox();
		const trigger = await activated(sandbox);
		sandbox.injectFault({ kind: 'status', status: 403, path: SESSIONS });
		const result = await trigger.poll();
		expect(result.error).toBeDefined();
		expect(failureOf(result.error)).toEqual(declared('configuration-invalid'));
	});
});
