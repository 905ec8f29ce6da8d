/**
 * Property-based tests of every operation's inputs, through n8n's engine against the sandbox
 * (budgets and replay: test/fuzz/budget.ts; what is fuzzed: docs/reliability.md). One property
 * per operation; where a parameter can be given several ways (a locator's modes), each case
 * draws one.
 */
import '../harness';

import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';

import { useAirSign } from '../nodes/airSign/helpers';
import { announce, checkProperty } from './budget';
import { casePlan, judgeCase, runCase } from './inputCases';
import { inputProperties, inSessionsFile } from './inputProperties';

const ctx = useAirSign();
beforeAll(() => announce('inputs (sessions)'));

const properties = inputProperties(inSessionsFile);

describe('inputs, fuzzed: each item succeeds or fails naming its parameter; a rule-breaking value costs no request', () => {
	it.each(properties)('%s', async (name, variants) => {
		const cases = fc.oneof(...variants.map((op) => casePlan(op).map((plan) => ({ op, plan }))));
		await checkProperty(
			`inputs: ${name}`,
			fc.asyncProperty(cases, async ({ op, plan }) => {
				judgeCase(op, plan, await runCase(ctx, op, plan));
			}),
		);
	});
});
