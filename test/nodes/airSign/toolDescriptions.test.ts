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
			'Upload a PDF to attach to a signing session; costs 1 request of the hourly AirSign budget in AirSign',
			'Create a draft signing session from a written document or block documents (with Send Immediately on, it emails real people); costs 1 request of the hourly AirSign budget in AirSign',
			'Create a draft signing session from a template, filling in its recipient roles and variables (with Send Immediately on, it emails real people); costs 1 request of the hourly AirSign budget in AirSign',
			"Get a session by its ID: its status, files and each recipient's signing status; costs 1 request of the hourly AirSign budget in AirSign",
			'Get many sessions, newest update first; each page of up to 100 costs 1 of the 60 List Sessions requests an hour in AirSign',
			'Send a draft session for signing; emails real people: every recipient gets an invitation, which cannot be undone; costs 1 request of the hourly AirSign budget in AirSign',
			'Send the invitation again to a recipient who has not signed; emails real people: that recipient gets a reminder; costs 1 request of the hourly AirSign budget in AirSign',
			'Create a template from a block document with variables; costs 1 request of the hourly AirSign budget in AirSign',
			'Get a template by its ID: its recipient roles and variables; costs 1 request of the hourly AirSign budget in AirSign',
			'Get many templates; each page of up to 100 costs 1 request of the hourly AirSign budget in AirSign',
		]);
	});

	it('every operation that emails people says so, and each says what it costs', () => {
		const texts = Object.fromEntries(
			operations.map(({ resource, operation }) => [
				`${resource}.${operation}`,
				NodeHelpers.makeDescription({ resource, operation }, description),
			]),
		);
		for (const emailing of [
			'session.send',
			'session.sendInvitation',
			'session.create',
			'session.createFromTemplate',
		])
			expect(texts[emailing]).toContain('emails real people');
		for (const quiet of ['file.upload', 'session.get', 'session.getMany', 'template.getMany'])
			expect(texts[quiet]).not.toContain('email');
		for (const text of Object.values(texts)) expect(text).toMatch(/costs 1 (request|of the)/);
	});

	it('the node is usable as a tool; every option says what it does, needs and returns', () => {
		expect(description.usableAsTool).toBe(true);
		for (const p of description.properties.filter((x) => x.name === 'operation'))
			for (const o of p.options as INodePropertyOptions[])
				expect((o.description ?? '').length).toBeGreaterThan(30);
	});
});
