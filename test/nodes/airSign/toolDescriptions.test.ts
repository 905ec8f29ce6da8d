import '../../harness';

import { NodeHelpers } from 'n8n-workflow';
import type { INodePropertyOptions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { AirSign } from '../../../nodes/AirSign/AirSign.node';

/** What an AI agent is told about each operation when the node is its tool (n8n's own function). */
const description = new AirSign().description;
const operations = description.properties
	.filter((p) => p.name === 'operation')
	.flatMap((p) =>
		(p.options as INodePropertyOptions[]).map((o) => ({
			resource: p.displayOptions!.show!.resource![0] as string,
			operation: o.value as string,
		})),
	);

describe('the node as an AI agent tool', () => {
	it('every operation of every resource has its own tool description', () => {
		const texts = operations.map(({ resource, operation }) =>
			NodeHelpers.makeDescription({ resource, operation }, description),
		);
		expect(texts).toEqual([
			'Upload a PDF to attach to a signing session in AirSign',
			'Create a signing session from a written document or block documents in AirSign',
			'Create a signing session from a template and fill in its roles and variables in AirSign',
			'Get a session with its files and the signing status of each recipient in AirSign',
			'Get many sessions in AirSign',
			'Send a draft session to its recipients for signing in AirSign',
			'Send an invitation again to a recipient who has not signed in AirSign',
			'Create a template from a block document with variables in AirSign',
			'Get a template with its recipient roles and variables in AirSign',
			'Get many templates in AirSign',
		]);
	});

	it('the node is usable as a tool; every option says what it does, needs and returns', () => {
		expect(description.usableAsTool).toBe(true);
		for (const p of description.properties.filter((x) => x.name === 'operation'))
			for (const o of p.options as INodePropertyOptions[])
				expect((o.description ?? '').length).toBeGreaterThan(30);
	});
});
