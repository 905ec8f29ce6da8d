/**
 * The fuzzed inputs of every operation of the node, by its operations as the description lists
 * them (test/nodes/airSign/nodeOperations.ts): a new operation fails its file until it has an
 * entry here. Each property is named as the panel names the operation; where a parameter can be
 * given several ways (a locator's modes), each case draws one. Budgets and replay:
 * test/fuzz/budget.ts; what is fuzzed: docs/reliability.md.
 */
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';

import { useAirSign } from '../nodes/airSign/helpers';
import { NODE_OPERATIONS, type NodeOperation } from '../nodes/airSign/nodeOperations';
import { announce, checkProperty } from './budget';
import { casePlan, judgeCase, runCase, type OperationUnderTest } from './inputCases';
import { createJson, createSimple, createTemplate } from './operations/documents';
import {
	getManySessions,
	getSessionOperations,
	sendInvitation,
	sendInvitationById,
	sendOperations,
} from './operations/sessions';
import {
	createFromTemplate,
	getManyTemplates,
	getTemplateOperations,
} from './operations/templates';
import { upload } from './operations/upload';

// An operation given several ways is one property; one with two forms of input is two.
const VARIANTS: Record<string, OperationUnderTest[] | Record<string, OperationUnderTest[]>> = {
	'file.upload': [upload],
	'session.create': { 'Title and Text': [createSimple], 'Block Documents': [createJson] },
	'session.createFromTemplate': [createFromTemplate],
	'session.get': getSessionOperations,
	'session.getMany': [getManySessions],
	'session.send': sendOperations,
	'session.sendInvitation': [sendInvitation, sendInvitationById],
	'template.create': [createTemplate],
	'template.get': getTemplateOperations,
	'template.getMany': [getManyTemplates],
};

/** Two files share the properties, so that the two test workers share the time. */
export const inSessionsFile = (op: NodeOperation): boolean =>
	op.resource === 'session' && op.operation !== 'createFromTemplate';

function inputProperties(
	which: (op: NodeOperation) => boolean,
): Array<[string, OperationUnderTest[]]> {
	return NODE_OPERATIONS.filter(which).flatMap((op): Array<[string, OperationUnderTest[]]> => {
		const variants = VARIANTS[op.key];
		if (!variants) throw new Error(`${op.title}: no fuzzed inputs in test/fuzz/inputProperties.ts`);
		return Array.isArray(variants)
			? [[op.title, variants]]
			: Object.entries(variants).map(([form, list]) => [`${op.title} (${form})`, list]);
	});
}

/** One test file's input properties: those of the operations `which` selects. */
export function describeInputs(file: string, which: (op: NodeOperation) => boolean): void {
	const ctx = useAirSign();
	beforeAll(() => announce(file));
	describe('inputs, fuzzed: each item succeeds or fails naming its parameter; a rule-breaking value costs no request', () => {
		it.each(inputProperties(which))('%s', async (name, variants) => {
			const cases = fc.oneof(...variants.map((op) => casePlan(op).map((plan) => ({ op, plan }))));
			await checkProperty(
				`inputs: ${name}`,
				fc.asyncProperty(cases, async ({ op, plan }) => {
					judgeCase(op, plan, await runCase(ctx, op, plan));
				}),
			);
		});
	});
}
