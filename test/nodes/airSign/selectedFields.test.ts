/** Each Selected Fields list is exactly the top-level fields of the sandbox's whole answers. */
import '../../harness';

import type { IDataObject } from 'n8n-workflow';
import { beforeAll, describe, expect, it } from 'vitest';

import { resources } from '../../../nodes/AirSign/actions/resources';
import { shapes, type ShapeName } from '../../../nodes/AirSign/actions/shapes';
import { actionOutputs } from '../../../scripts/output-schemas';
import { useSandbox } from '../../harness/sandbox';
import { NODE_OPERATIONS } from './nodeOperations';

const sandbox = useSandbox({ seedDemoData: true });
let answers: Record<string, IDataObject[]>;
beforeAll(async () => void (answers = await actionOutputs(sandbox(), 1, { simple: false })));

const pages = resources as Record<string, { operations: Record<string, { output?: ShapeName }> }>;

/** The operations whose answer is the shape's record, as "<resource>/<operation>". */
const shaped = (name: ShapeName) =>
	Object.entries(pages).flatMap(([resource, { operations }]) =>
		Object.entries(operations).flatMap(([operation, page]) =>
			page.output === name ? [`${resource}/${operation}`] : [],
		),
	);

/** "Get, Create and Create From Template only" → those operations of the resource. */
function namedIn(note: string, resource: string): string[] {
	const names = note
		.split(' only')[0]
		.split(/, | and /)
		.map((name) => name.trim());
	return names.map((name) => {
		// The panel's title is "<Resource> <Operation>", e.g. "Session Create From Template".
		const op = NODE_OPERATIONS.find(
			(o) =>
				o.resource === resource &&
				o.title.endsWith(` ${name}`) &&
				o.title.split(' ').length === name.split(' ').length + 1,
		);
		if (!op) throw new Error(`"${name}" is no operation of ${resource}`);
		return `${resource}/${op.operation}`;
	});
}

describe('Selected Fields lists, against the answers', () => {
	for (const name of Object.keys(shapes) as ShapeName[]) {
		it(`${name}: every top-level field of the answers, and no other`, () => {
			const shape = shapes[name];
			const ops = shaped(name);
			expect(ops.length).toBeGreaterThan(0);
			const seenIn = new Map<string, Set<string>>();
			for (const op of ops) {
				expect(answers[op]?.length, `${op}: no answer`).toBeGreaterThan(0);
				for (const record of answers[op])
					for (const key of Object.keys(record))
						seenIn.set(key, (seenIn.get(key) ?? new Set()).add(op));
			}
			const listed = shape.fields.map((field) => field.value);
			expect([...listed, shape.id].sort()).toEqual([...seenIn.keys()].sort());
			for (const field of shape.fields) {
				const where = [...seenIn.get(field.value)!];
				if (field.description === undefined) expect(where.sort(), field.value).toEqual(ops.sort());
				else
					expect(namedIn(field.description, name), field.value).toEqual(
						expect.arrayContaining(where),
					);
			}
		});
	}
});
