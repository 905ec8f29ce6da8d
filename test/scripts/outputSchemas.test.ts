/**
 * The output schemas under nodes/AirSign/__schema__ are what scripts/output-schemas.ts derives
 * from the sandbox's answers now: a change of an operation's output fails here until they are
 * regenerated (`npm run schemas`), so the editor never shows stale fields.
 */
import '../harness';

import { describe, expect, it } from 'vitest';

import {
	committedOutputSchemas,
	generateOutputSchemas,
	schemaOf,
} from '../../scripts/output-schemas';

describe('output schemas', () => {
	it('the committed files are exactly what the script generates from the sandbox', async () => {
		const generated = await generateOutputSchemas();
		const committed = committedOutputSchemas();
		expect([...committed.keys()]).toEqual([...generated.keys()]);
		for (const [file, text] of generated)
			expect(committed.get(file), `${file}: regenerate with npm run schemas`).toBe(text);
	});

	it('every operation has one, and the trigger one with its event fields', async () => {
		const files = [...committedOutputSchemas().keys()];
		expect(files).toEqual(
			expect.arrayContaining([
				'v1.0.0/file/upload.json',
				'v1.0.0/session/getMany.json',
				'v1.0.0/template/create.json',
				'v1.0.0.json',
			]),
		);
		expect(files).not.toContain('v2.0.0.json');
		const trigger = JSON.parse(committedOutputSchemas().get('v1.0.0.json')!);
		expect(Object.keys(trigger.properties)).toEqual(
			expect.arrayContaining(['event', 'previousStatus', 'recipient']),
		);
		expect(trigger.properties.recipient.properties.status).toEqual({ type: 'string' });
	});

	it('schemaOf: the union of fields and types, null last, arrays by their elements', () => {
		expect(
			schemaOf([
				{ a: null, b: [{ x: 1 }], c: 'x' },
				{ a: 'y', b: [{ y: true }], d: {} },
			]),
		).toEqual({
			type: 'object',
			properties: {
				a: { type: ['string', 'null'] },
				b: {
					type: 'array',
					items: {
						type: 'object',
						properties: { x: { type: 'number' }, y: { type: 'boolean' } },
					},
				},
				c: { type: 'string' },
				d: { type: 'object' },
			},
		});
	});
});
