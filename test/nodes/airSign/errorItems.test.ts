import '../../harness';
import { binaryItem } from '../../harness';

import { NodeHelpers, Workflow } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { AirSign } from '../../../nodes/AirSign/AirSign.node';
import { HarnessNodeTypes } from '../../harness/node-types';
import {
	getManyParams,
	locator,
	runAirSign,
	sendParams,
	UNKNOWN_ID,
	uploadParams,
	useAirSign,
} from './helpers';

const ctx = useAirSign();
const continueOnFail = { continueOnFail: true };

// n8n's output table takes its columns from the items' keys: an error item that carries what its
// input was about reads at a glance next to the successful ones (Send: errors.test.ts).
describe('Continue On Fail: an error item says which input it was about', () => {
	it('a session chosen from the list or by URL: the locator value as given', async () => {
		const url = `https://app.airsign.example/sessions/${UNKNOWN_ID}/edit`;
		const result = await runAirSign(
			ctx,
			{ ...sendParams(''), sessionId: locator(url, 'url') },
			continueOnFail,
		);
		expect(result.items[0].json).toMatchObject({
			sessionId: url,
			code: 'NOT_FOUND',
			httpCode: '404',
		});
	});

	it('a local refusal (no request sent) carries the ID as typed and no code', async () => {
		const result = await runAirSign(ctx, sendParams('../x'), continueOnFail);
		expect(result.items[0].json).toEqual({
			sessionId: '../x',
			error: expect.stringMatching(/is not a valid AirSign session ID/),
			description: expect.any(String),
		});
	});

	it('Upload: the file name (given, else the binary’s own)', async () => {
		const gif = binaryItem(Buffer.from('GIF89a'), { fileName: 'scan.gif' });
		const own = await runAirSign(ctx, uploadParams(), { ...continueOnFail, input: [gif] });
		expect(own.items[0].json).toMatchObject({ fileName: 'scan.gif', error: expect.any(String) });
		const named = await runAirSign(ctx, uploadParams({ fileName: 'contract.pdf' }), {
			...continueOnFail,
			input: [gif],
		});
		expect(named.items[0].json.fileName).toBe('contract.pdf');
	});

	it('Template → Get and Session → Create From Template: the template ID', async () => {
		const getTemplate = { resource: 'template', operation: 'get', templateId: UNKNOWN_ID };
		const get = await runAirSign(ctx, getTemplate, continueOnFail);
		expect(get.items[0].json).toMatchObject({ templateId: UNKNOWN_ID, httpCode: '404' });

		const fromTemplate = { resource: 'session', operation: 'createFromTemplate' };
		const create = await runAirSign(
			ctx,
			{ ...fromTemplate, templateId: UNKNOWN_ID, name: 'Offer for Ann' },
			continueOnFail,
		);
		expect(create.items[0].json).toMatchObject({
			templateId: UNKNOWN_ID,
			name: 'Offer for Ann',
			error: expect.any(String),
		});
	});

	it('Send Invitation: the session and the recipient chosen', async () => {
		const result = await runAirSign(
			ctx,
			{
				resource: 'session',
				operation: 'sendInvitation',
				sessionId: UNKNOWN_ID,
				recipient: 'specific',
				recipientLocator: locator('ann@example.com', 'email'),
			},
			continueOnFail,
		);
		expect(result.items[0].json).toMatchObject({
			sessionId: UNKNOWN_ID,
			recipientEmail: 'ann@example.com',
			httpCode: '404',
		});
	});

	it('Get Many has no subject: its error item is the error alone', async () => {
		const params = getManyParams({ returnAll: false, limit: 0 });
		const result = await runAirSign(ctx, params, continueOnFail);
		expect(Object.keys(result.items[0].json)).toEqual(['error']);
	});
});

describe('canvas subtitle', () => {
	const description = new AirSign().description;
	const operationsOf = (resource: string) =>
		description.properties
			.filter((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource))
			.flatMap((p) => (p.options ?? []).map((o) => (o as { value: string }).value));
	const resources = (
		description.properties.find((p) => p.name === 'resource')!.options as Array<{ value: string }>
	).map((o) => o.value);

	/** The subtitle as n8n's editor evaluates it for a node with these parameters. */
	function subtitleFor(resource: string, operation: string): string {
		const nodeTypes = new HarnessNodeTypes().add('n8n-nodes-airsign.airSign', new AirSign());
		const node = {
			id: 'a',
			name: 'AirSign',
			type: 'n8n-nodes-airsign.airSign',
			typeVersion: 1,
			position: [0, 0] as [number, number],
			parameters: { resource, operation },
		};
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
		const parameters = NodeHelpers.getNodeParameters(
			description.properties,
			node.parameters,
			true,
			false,
			node,
			description,
		);
		return workflow.expression.getSimpleParameterValue(
			{ ...node, parameters: parameters! },
			description.subtitle!,
			'manual',
			{},
		) as string;
	}

	it('every operation of every resource has its own phrase, none the internal values', () => {
		const phrases = resources.flatMap((resource) =>
			operationsOf(resource).map((operation) => {
				const phrase = subtitleFor(resource, operation);
				expect(phrase, `${resource} → ${operation}`).not.toContain(':');
				return phrase;
			}),
		);
		expect(phrases.length).toBeGreaterThanOrEqual(10);
		expect(new Set(phrases).size).toBe(phrases.length);
	});

	it('says the operation in words, evaluated as n8n evaluates it', () => {
		expect(subtitleFor('session', 'send')).toBe('Send a session');
		expect(subtitleFor('session', 'getMany')).toBe('Get many sessions');
		expect(subtitleFor('file', 'upload')).toBe('Upload a file');
		expect(subtitleFor('template', 'get')).toBe('Get a template');
	});

	it('is the operation’s action, as in the nodes panel and the name of a new node', () => {
		for (const p of description.properties.filter((x) => x.name === 'operation'))
			for (const o of p.options as Array<{ value: string; action: string }>)
				expect(subtitleFor(p.displayOptions!.show!.resource![0] as string, o.value)).toBe(o.action);
	});

	it('an operation it does not know (a newer workflow) shows the internal values', () => {
		expect(subtitleFor('session', 'archive')).toBe('archive: session');
	});
});
