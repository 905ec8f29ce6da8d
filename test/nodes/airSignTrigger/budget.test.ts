import { createTestEnvironment, runNode } from '../../harness';

import { Logger } from '@n8n/backend-common';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { drive } from '../../harness/drive';
import { AirSignApi } from '../../../credentials/AirSignApi.credentials';
import { AirSign } from '../../../nodes/AirSign/AirSign.node';
import type { Sandbox } from '../../../sandbox';
import {
	demoSessions,
	expectClean,
	HOUR,
	Ledger,
	listRequests,
	MINUTE,
	newTrigger,
	pollAndRecord,
	pollOk,
	tokenCredential,
	useTriggerSandbox,
} from './helpers';

const sandbox = useTriggerSandbox();
/** When, in each hour of its budget window, another workflow lists sessions (the last one late). */
const OTHER_WORKFLOW_MINUTES = [5, 20, 40, 58];
const RESERVE = 10;

/** Another workflow of the organisation: Get Many, Limit 10, through n8n's engine. */
async function otherWorkflowCall(sandbox: Sandbox) {
	const { error } = await runNode({
		env: createTestEnvironment({ credentialTypes: [new AirSignApi()] }),
		nodeType: new AirSign(),
		credentials: { airSignApi: tokenCredential(sandbox) as never },
		parameters: {
			resource: 'session',
			operation: 'getMany',
			limit: 10,
			options: { maxRateLimitWait: 0 },
		},
	});
	return error;
}

/** n8n's log lines (level, message) until the test ends. */
function captureLogs() {
	const lines: Array<{ level: string; message: string }> = [];
	vi.spyOn(
		Logger.prototype as unknown as { log: (...args: unknown[]) => void },
		'log',
	).mockImplementation((level: unknown, message: unknown) => {
		lines.push({ level: String(level), message: String(message) });
	});
	return lines;
}

afterEach(() => vi.restoreAllMocks());

describe('AirSign Trigger keeps the reserve for other workflows (60 requests an hour)', () => {
	it('polling every minute for three hours beside another workflow: its calls all succeed, 0 lost, 0 repeated', async () => {
		expect(sandbox.config.rateLimitPerHour).toBe(60);
		const logs = captureLogs();
		const trigger = newTrigger(sandbox, { options: { reserveRequests: RESERVE } });
		const ledger = new Ledger();
		await pollOk(trigger); // the activation opens the sandbox's budget window

		const windowStart = sandbox.clock.now();

		const otherErrors: unknown[] = [];
		let otherCalls = 0;
		let updates = 0;
		const triggerRequestsByHour = [0, 0, 0];
		let before = 0;
		await drive(sandbox, {
			while: (round) => round < 179,
			before: async (round) => {
				const minute = round + 1;
				sandbox.clock.set(windowStart + minute * MINUTE);
				if (minute % 2 === 0) {
					sandbox.createSession({ name: `new ${minute}` });
					updates++;
				}
				if (minute % 3 === 0) {
					const byAge = demoSessions(sandbox).sort((a, b) =>
						a.updatedAt.localeCompare(b.updatedAt),
					);
					sandbox.updateSession(byAge[0].sessionId, { name: `changed ${minute}` });
					updates++;
				}
				if (OTHER_WORKFLOW_MINUTES.includes(minute % 60)) {
					otherCalls++;
					const error = await otherWorkflowCall(sandbox);
					if (error) otherErrors.push(`minute ${minute}: ${error.message}`);
				}
				before = listRequests(sandbox).length;
			},
			poll: () => trigger.poll(),
			after: (result, round) => {
				ledger.record(result);
				triggerRequestsByHour[Math.floor((round + 1) / 60)] +=
					listRequests(sandbox).length - before;
			},
			advanceMs: 0,
		});
		// The third hour's last stretch, held back for the reserve, comes after its reset.
		sandbox.clock.set(windowStart + 3 * HOUR + MINUTE);
		await pollAndRecord(sandbox, trigger, ledger, 0);

		expect(otherCalls).toBe(12);
		expect(otherErrors).toEqual([]);
		expect(listRequests(sandbox).filter((r) => r.status === 429)).toEqual([]);
		for (const requests of triggerRequestsByHour) {
			expect(requests).toBeGreaterThan(0);
			expect(requests).toBeLessThanOrEqual(60 - RESERVE);
		}
		expectClean(sandbox, ledger);
		expect(updates).toBeGreaterThan(100);

		// Visible: a debug line for every skipped poll, one warning per window.
		const waiting = /polls make no request until the budget resets at \d\d:\d\d:\d\d UTC/;
		const warnings = logs.filter((l) => l.level === 'warn' && waiting.test(l.message));
		const skipped = logs.filter((l) => l.level === 'debug' && /\(poll skipped\)$/.test(l.message));
		expect(warnings).toHaveLength(3);
		expect(skipped.length).toBeGreaterThanOrEqual(3 * 8);
		expect(
			skipped.length + triggerRequestsByHour.reduce((a, b) => a + b, 0),
		).toBeGreaterThanOrEqual(179);
	});

	it('a restart forgets the budget: the first poll after it makes one request and learns it again', async () => {
		sandbox.config.rateLimitPerHour = 12;
		const trigger = newTrigger(sandbox, { options: { reserveRequests: RESERVE } });
		const ledger = new Ledger();
		await pollAndRecord(sandbox, trigger, ledger, MINUTE); // activation: 11 left
		await pollAndRecord(sandbox, trigger, ledger, MINUTE); // 10 left: at the reserve
		sandbox.clearRequests();
		await pollAndRecord(sandbox, trigger, ledger, MINUTE);
		expect(listRequests(sandbox)).toHaveLength(0);

		// n8n 2.x saved the static data of the last emitting poll (the activation): no budget.
		const restarted = newTrigger(sandbox, {
			options: { reserveRequests: RESERVE },
			staticData: { 'node:Trigger': { cursor: trigger.nodeStaticData.cursor, delivered: [] } },
		});
		await pollAndRecord(sandbox, restarted, ledger, MINUTE);
		await pollAndRecord(sandbox, restarted, ledger, MINUTE);
		expect(listRequests(sandbox).map((r) => r.status)).toEqual([200]);
		expect(ledger.errors).toEqual([]);
	});
});
