import '../../harness';
import { ENGINE } from '../../harness/engine';

import { describe, expect, it } from 'vitest';

import type { Sandbox } from '../../../sandbox';
import { T0, newTrigger } from './helpers';
import { useSandbox } from '../../harness/sandbox';

/**
 * The trigger's errors declare their cause too (n8n-workflow 2.41's `failure`, which n8n's poll
 * scheduler is to back off by); on n8n 1.x's engine they come without it, otherwise the same.
 */
const getSandbox = useSandbox({ now: T0, followClock: true });
const SESSIONS = '/api/v1/Sessions';
const declaresCauses = ENGINE === 'n8n-2';

function failureOf(error: unknown): unknown {
	return (error as { failure?: unknown }).failure;
}

async function activate(sandbox: Sandbox, options: Parameters<typeof newTrigger>[1] = {}) {
	const trigger = newTrigger(sandbox, options);
	expect((await trigger.poll()).error).toBeUndefined();
	sandbox.clock.advance(5_000);
	return trigger;
}

describe('AirSign Trigger: declared failure causes', () => {
	it('the 5th poll in a row that AirSign answered 503 → temporarily-unavailable', async () => {
		const sandbox = getSandbox();
		const trigger = await activate(sandbox);
		sandbox.injectFault({ kind: 'status', status: 503, path: SESSIONS, count: 10 });
		let reported: unknown;
		for (let i = 0; i < 5 && reported === undefined; i++) {
			reported = (await trigger.poll()).error;
			sandbox.clock.advance(60_000);
		}
		expect(reported).toBeDefined();
		expect((reported as Error).message).toMatch(/could not be read for 5 polls in a row/);
		expect(failureOf(reported)).toEqual(
			declaresCauses ? { cause: 'temporarily-unavailable' } : undefined,
		);
	});

	it('an access token AirSign rejects → credential-invalid, on the first poll', async () => {
		const sandbox = getSandbox();
		const token = sandbox.issueToken({ ttlSeconds: 3600 });
		const trigger = await activate(sandbox, {
			credential: { authentication: 'accessToken', accessToken: token, baseUrl: sandbox.baseUrl },
		});
		sandbox.clock.advance(2 * 3_600_000);
		const result = await trigger.poll();
		expect(failureOf(result.error)).toEqual(
			declaresCauses ? { cause: 'credential-invalid' } : undefined,
		);
	});

	it('a 403 (the token lacks the scope) → configuration-invalid', async () => {
		const sandbox = getSandbox();
		const trigger = await activate(sandbox);
		sandbox.injectFault({ kind: 'status', status: 403, path: SESSIONS });
		const result = await trigger.poll();
		expect(result.error).toBeDefined();
		expect(failureOf(result.error)).toEqual(
			declaresCauses ? { cause: 'configuration-invalid' } : undefined,
		);
	});
});
