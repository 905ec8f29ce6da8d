/** examples/*.json node by node, each fed what the node before gives, against the demo data. */
import { binaryItem, type HarnessInputItem } from '../../harness';

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { IDataObject, INodeParameters, OnError } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { AirSignApi } from '../../../credentials/AirSignApi.credentials';
import { AirSign } from '../../../nodes/AirSign/AirSign.node';
import { AirSignTrigger } from '../../../nodes/AirSign/AirSignTrigger.node';
import { LIST_SESSIONS_HOURLY_BUDGET } from '../../../nodes/AirSign/helpers/constants';
import { DEFAULT_RESERVE_REQUESTS } from '../../../nodes/AirSign/trigger/poll';
import { createPollingHarness, createTestEnvironment } from '../../harness';
import { T0, tokenCredential } from '../airSignTrigger/helpers';
import { pdf, useAirSign } from './helpers';
import { HarnessNodeTypes } from '../../harness/node-types';
import { useSandbox } from '../../harness/sandbox';

const ctx = useAirSign({ seedDemoData: true });

interface ExampleNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: INodeParameters;
	onError?: OnError;
	credentials?: Record<string, { id: string; name: string }>;
}
interface Example {
	id: string;
	nodes: ExampleNode[];
}

const EXAMPLES = path.resolve(__dirname, '../../../examples');
const ALL = readdirSync(EXAMPLES)
	.filter((f) => f.endsWith('.json'))
	.map((f) => f.replace(/\.json$/, ''));

const example = (file: string) =>
	JSON.parse(readFileSync(path.join(EXAMPLES, `${file}.json`), 'utf8')) as Example;

/** Runs the example's node of this name as saved; it must succeed. */
async function runExampleNode(wf: Example, name: string, input: HarnessInputItem[]) {
	const node = wf.nodes.find((n) => n.name === name)!;
	return await ctx.ok(node.parameters, {
		nodeTypeVersion: node.typeVersion, // as saved
		input,
		continueOnFail: node.onError === 'continueRegularOutput' ? true : undefined,
	});
}

describe('examples of the new operations', () => {
	it('every example: a 16-character id, the sandbox credential on each AirSign node', () => {
		for (const file of ALL) {
			const wf = example(file);
			expect(wf.id).toHaveLength(16);
			for (const node of wf.nodes.filter((n) => n.type.startsWith('n8n-nodes-airsign.')))
				expect(node.credentials?.airSignApi).toEqual({
					id: 'AirSignSandbox01',
					name: 'AirSign (local sandbox)',
				});
		}
	});

	it('every AirSign action or tool node of every example is the version users get, with the default output', () => {
		const version = new AirSign().description.version;
		let seen = 0;
		for (const file of ALL) {
			const wf = example(file);
			for (const node of wf.nodes.filter((n) =>
				/^n8n-nodes-airsign\.airSign(Tool)?$/.test(n.type),
			)) {
				seen++;
				expect(node.typeVersion, `${file}: ${node.name}`).toBe(version);
				expect(node.parameters, `${file}: ${node.name}`).not.toHaveProperty('simple');
				expect(node.parameters, `${file}: ${node.name}`).not.toHaveProperty('output');
			}
		}
		expect(seen).toBeGreaterThan(10);
	});

	it('a new row → a contract from a template, sent', async () => {
		const wf = example('contract-from-template');
		const row = assignmentsOf(wf.nodes.find((n) => n.type === 'n8n-nodes-base.set')!);
		const result = await runExampleNode(wf, 'Contract from template', [{ json: row }]);
		expect(result.items[0].json).toMatchObject({
			name: 'Employment contract – Jane Citizen',
			status: 'pending',
		});
		expect(ctx.sandbox.outbox.map((m) => m.to)).toEqual([
			'jane.citizen@example.com',
			'hr@example.com',
		]);
	});

	it('upload a PDF and send it with a cover document', async () => {
		const wf = example('upload-and-send-with-cover');
		const uploaded = await runExampleNode(wf, 'Upload the PDF', [
			binaryItem(pdf(2048), { fileName: 'contract.pdf', mimeType: 'application/pdf' }),
		]);
		const sent = await runExampleNode(wf, 'Cover document + PDF, sent', [
			{ json: uploaded.items[0].json },
		]);
		expect(sent.items[0].json).toMatchObject({ status: 'pending' });
		expect(
			(sent.items[0].json.files as Array<{ fileName: string }>).map((f) => f.fileName),
		).toEqual(['Supply agreement.pdf', 'contract.pdf']);
		expect(ctx.sandbox.outbox.map((m) => m.to)).toEqual(['jane.citizen@example.com']);
	});

	it('remind signers of sessions pending for more than three days', async () => {
		const wf = example('remind-pending-signers');
		const pending = await runExampleNode(wf, 'Sessions pending for 3+ days', [{ json: {} }]);
		expect(pending.items.map((i) => i.json.name)).toEqual(['Supplier terms – Mei Chen']);
		const reminders = pending.items.map((i) => ({ json: i.json }));
		await runExampleNode(wf, 'Remind the next signer', reminders);
		expect(ctx.sandbox.outbox).toEqual([
			expect.objectContaining({ to: 'mei.chen@example.com', reminder: true }),
		]);
	});

	it('completed → fetch the session', async () => {
		const wf = example('completed-fetch-session');
		const completed = ctx.sandbox.listAllSessions().find((s) => s.status === 'completed')!;
		const result = await runExampleNode(wf, 'Fetch the session', [
			{ json: { sessionId: completed.sessionId } },
		]);
		expect(result.items[0].json).toMatchObject({
			sessionId: completed.sessionId,
			status: 'completed',
		});
	});
});

/** The trigger examples, polled as saved; each change followed by a step past the settle window. */
describe('examples of the trigger events', () => {
	const getSandbox = useSandbox({ now: T0, followClock: true, seedDemoData: true });

	function exampleTrigger(file: string) {
		const wf = example(file);
		const node = wf.nodes.find((n) => n.type === 'n8n-nodes-airsign.airSignTrigger')!;
		const sandbox = getSandbox();
		const trigger = createPollingHarness({
			env: createTestEnvironment({ credentialTypes: [new AirSignApi()] }),
			nodeType: new AirSignTrigger(),
			nodeTypeVersion: node.typeVersion,
			nodeName: node.name,
			parameters: node.parameters,
			credentials: { airSignApi: tokenCredential(sandbox) },
			workflowId: wf.id,
		});
		return {
			node,
			/** One poll after the clock moved past the settle window: the items it delivered. */
			async poll() {
				sandbox.clock.advance(5_000);
				const result = await trigger.poll();
				expect(result.error).toBeUndefined();
				return result.items.map((i) => i.json);
			},
		};
	}

	/** The pending demo session with two signers (Mei Chen, Tom Nguyen). */
	const twoSigners = () =>
		getSandbox()
			.listAllSessions()
			.find((s) => s.name === 'Supplier terms – Mei Chen')!;

	it('notify when a session is completed: Session Completed only', async () => {
		const { node, poll } = exampleTrigger('notify-on-completed');
		expect(node.typeVersion).toBe(1);
		expect(node.parameters.events).toEqual(['sessionCompleted']);
		const sandbox = getSandbox();
		const session = twoSigners();
		expect(await poll()).toEqual([]); // activation: starts from now

		sandbox.signRecipient(session.sessionId);
		expect(await poll()).toEqual([]); // inProgress is not a completion
		sandbox.signRecipient(session.sessionId);
		const [completed, ...more] = await poll();
		expect(more).toEqual([]);
		expect(completed).toMatchObject({
			sessionId: session.sessionId,
			status: 'completed',
			event: 'sessionCompleted',
			previousStatus: 'inProgress',
		});

		// The completed session changes again: no second notification.
		sandbox.updateSession(session.sessionId, { name: 'Supplier terms – renamed' });
		expect(await poll()).toEqual([]);
		sandbox.updateSession(session.sessionId, { touch: true });
		expect(await poll()).toEqual([]);
	});

	it('when a signer signs, tell the sales owner: one item per signature; the message says who signed, how many of how many, and in words when the session is completed', async () => {
		const { node, poll } = exampleTrigger('tell-sales-owner-on-signature');
		const wf = example('tell-sales-owner-on-signature');
		const message = (json: IDataObject) =>
			setNodeValue(wf, 'Message for the sales owner', 'message', json);
		expect(node.typeVersion).toBe(1);
		expect(node.parameters.events).toEqual(['recipientStatusChanged']);
		const sandbox = getSandbox();
		const session = twoSigners();
		expect(await poll()).toEqual([]); // activation: starts from now

		// A new session is sent: its recipient's status changes (notSent → sent), nobody signed.
		const fresh = sandbox.createSession({
			name: 'New contract',
			recipients: [{ name: 'Ann Example', email: 'ann@example.com' }],
		});
		expect(await poll()).toEqual([]);
		// leaving draft by PATCH sends it as Send Session does: its recipients become sent
		expect(sandbox.updateSession(fresh.sessionId, { status: 'pending' }).recipients).toEqual([
			expect.objectContaining({ status: 'sent' }),
		]);
		expect(await poll()).toEqual([]);

		sandbox.signRecipient(session.sessionId, { email: 'mei.chen@example.com' });
		const [first, ...more] = await poll();
		expect(more).toEqual([]);
		expect(first).toMatchObject({
			sessionId: session.sessionId,
			event: 'recipientStatusChanged',
			status: 'inProgress',
			recipient: { email: 'mei.chen@example.com', previousStatus: 'sent', status: 'completed' },
		});
		expect(message(first)).toBe(
			`Mei Chen <mei.chen@example.com> signed "${session.name}". Signed so far: 1 of 2.`,
		);
		sandbox.signRecipient(session.sessionId, { email: 'tom.nguyen@example.com' });
		const second = await poll();
		expect(message(second[0])).toBe(
			`Tom Nguyen <tom.nguyen@example.com> signed "${session.name}". Signed so far: 2 of 2: everyone has signed, the session is completed.`,
		);
		expect(second).toEqual([
			expect.objectContaining({
				status: 'completed',
				recipient: expect.objectContaining({
					email: 'tom.nguyen@example.com',
					status: 'completed',
				}),
			}),
		]);
		sandbox.updateSession(session.sessionId, { name: 'Supplier terms – renamed' });
		expect(await poll()).toEqual([]);
	});
});

/** A Set node's assignments, by name. */
function assignmentsOf(node: ExampleNode): Record<string, string | number> {
	const { assignments } = node.parameters.assignments as {
		assignments: Array<{ name: string; value: string | number }>;
	};
	return Object.fromEntries(assignments.map((a) => [a.name, a.value]));
}

/** A value of an example's Set node, its expression resolved for one input item as n8n does. */
function setNodeValue(wf: Example, nodeName: string, field: string, json: IDataObject): unknown {
	const node = wf.nodes.find((n) => n.name === nodeName)!;
	const properties = { ...new AirSignTrigger().description, properties: [] };
	const workflow = new Workflow({
		nodes: [{ ...node, id: 'n1', typeVersion: 1, position: [0, 0], parameters: {} }],
		connections: {},
		active: false,
		nodeTypes: new HarnessNodeTypes().add(node.type, { description: properties }),
	});
	const value = assignmentsOf(node)[field];
	return workflow.expression.getParameterValue(
		value,
		null,
		0,
		0,
		nodeName,
		[{ json }],
		'manual',
		{},
	);
}

/** Polls an hour of a trigger node's Poll Times. */
function pollsPerHour(node: ExampleNode): number {
	const { item } = node.parameters.pollTimes as {
		item: Array<{ mode: string; value?: number; unit?: string }>;
	};
	return item
		.map(({ mode, value, unit }) => {
			if (mode === 'everyMinute') return 60;
			if (mode === 'everyHour') return 1;
			if (mode === 'everyX' && unit === 'minutes') return 60 / value!;
			if (mode === 'everyX' && unit === 'hours') return 1 / value!;
			throw new Error(`${node.name}: Poll Times ${mode} not counted here`);
		})
		.reduce((a, b) => a + b, 0);
}

describe("the demo's triggers and AirSign's List Sessions budget", () => {
	const triggers = (files: string[]) =>
		files.flatMap((file) =>
			example(file).nodes.filter((n) => n.type === 'n8n-nodes-airsign.airSignTrigger'),
		);

	it('the two that `npm run dev` has a newcomer publish poll within the budget, above the reserve', () => {
		const published = triggers(['notify-on-completed', 'tell-sales-owner-on-signature']);
		expect(published).toHaveLength(2);
		const polls = published.map(pollsPerHour).reduce((a, b) => a + b, 0);
		// each poll of a quiet hour is one List Sessions request; the rest is left for Get Many and the lists
		expect(polls).toBe(40);
		expect(polls).toBeLessThanOrEqual(LIST_SESSIONS_HOURLY_BUDGET - DEFAULT_RESERVE_REQUESTS);
	});

	it('every example trigger, all published at once, stays within the budget', () => {
		const all = triggers(ALL);
		expect(all.length).toBeGreaterThanOrEqual(3);
		expect(all.map(pollsPerHour).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(
			LIST_SESSIONS_HOURLY_BUDGET,
		);
	});
});
