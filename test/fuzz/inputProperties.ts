/**
 * The fuzzed inputs of every operation of the node's description (a new operation fails until it
 * has an entry here), one property per operation as the panel names it; where a parameter can be
 * given several ways, each case draws one. What is fuzzed: docs/reliability.md.
 */
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';

import { useAirSign } from '../nodes/airSign/helpers';
import { NODE_OPERATIONS, type NodeOperation } from '../nodes/airSign/nodeOperations';
import { announce, checkProperty } from './budget';
import { casePlan, judgeCase, runCase, type OperationUnderTest } from './inputCases';
import {
	createFromTemplate,
	createJson,
	createSimple,
	createTemplate,
	getManyTemplates,
	getTemplateOperations,
} from './operations/documents';
import {
	getManySessions,
	getSessionOperations,
	sendInvitation,
	sendInvitationById,
	sendOperations,
} from './operations/sessions';
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
