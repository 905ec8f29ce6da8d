/**
 * The nodes as n8n's editor shows them, evaluated as editor-ui does (1.x and 2.x):
 * - the nodes panel's entry (`generateMergedNodesAndActions`): a trigger named as an action node
 *   plus "Trigger" joins that node's entry and gives it its description (the UI tier sees it too);
 * - the trigger's canvas subtitle (`getNodeSubtitle`): `getSimpleParameterValue` on the node in a
 *   Workflow; the editor shows nothing when that throws, here it fails. The AirSign node's
 *   subtitle: airSign/uxGuidelines.test.ts.
 */
import '../harness';

import type {
	INodeParameters,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { AirSign } from '../../nodes/AirSign/AirSign.node';
import { AirSignTrigger } from '../../nodes/AirSign/AirSignTrigger.node';
import { fullNodeTypeName, HarnessNodeTypes } from '../harness/node-types';

/** An entry, and the nodes whose actions it lists. */
type PanelEntry = Pick<INodeTypeDescription, 'name' | 'displayName' | 'description'> & {
	from: string[];
};

/** n8n's merge, over node types as the editor has them (full type names). */
function panelEntries(types: INodeTypeDescription[]): PanelEntry[] {
	const entry = ({ name, displayName, description }: INodeTypeDescription): PanelEntry => ({
		name,
		displayName,
		description,
		from: [name],
	});
	const isTrigger = (type: INodeTypeDescription) => type.group.includes('trigger');
	const entries = types.filter((type) => !isTrigger(type)).map(entry);
	for (const trigger of types.filter(isTrigger)) {
		const app = entries.find((e) => e.name === trigger.name.replace('Trigger', ''));
		// (n8n also asks that the action node has actions: ours has its operations)
		if (!app) entries.push(entry(trigger));
		else {
			app.description = trigger.description;
			app.from.push(trigger.name);
		}
	}
	return entries;
}

const asEditorHasIt = (node: INodeType): INodeTypeDescription => ({
	...node.description,
	name: fullNodeTypeName(node),
});

describe("the nodes panel's AirSign entry", () => {
	const action = new AirSign();
	const trigger = new AirSignTrigger();
	const entries = panelEntries([asEditorHasIt(action), asEditorHasIt(trigger)]);

	it('one entry, AirSign, with the operations and the trigger events', () => {
		expect(entries.map(({ displayName, from }) => ({ displayName, from }))).toEqual([
			{
				displayName: 'AirSign',
				from: ['n8n-nodes-airsign.airSign', 'n8n-nodes-airsign.airSignTrigger'],
			},
		]);
	});

	it("shows a description of both nodes (the trigger's, which n8n takes, is the action node's)", () => {
		expect(entries[0].description).toBe(action.description.description);
		expect(entries[0].description).toMatch(
			/^Create signing sessions .* remind signers, .*, and start workflows when a session changes in AirSign$/,
		);
	});
});

/** editor-ui's PLACEHOLDER_FILLED_AT_EXECUTION_TIME, the editor's default value. */
const PLACEHOLDER = '[filled at execution time]';

function canvasSubtitle(nodeType: INodeType, version: number, parameters: INodeParameters) {
	const type = fullNodeTypeName(nodeType);
	const workflow = new Workflow({
		nodes: [{ id: 'n1', name: 'Node', type, typeVersion: version, position: [0, 0], parameters }],
		connections: {},
		active: false,
		nodeTypes: new HarnessNodeTypes().add(type, nodeType),
	});
	const node = workflow.getNode('Node')!;
	return workflow.expression.getSimpleParameterValue(
		node,
		nodeType.description.subtitle,
		'internal',
		{},
		undefined,
		PLACEHOLDER,
	);
}

const optionsOf = (nodeType: INodeType, name: string) =>
	nodeType.description.properties
		.filter((p) => p.name === name)
		.flatMap((p) => (p.options ?? []) as INodePropertyOptions[]);

describe('AirSign Trigger: the canvas subtitle', () => {
	const trigger = new AirSignTrigger();
	// The names the panel shows for the events, from the node's own description.
	const events = optionsOf(trigger, 'events').map(({ value, name }) => ({
		value: `${value}`,
		name,
	}));

	it('the description offers events to name', () => {
		expect(events.length).toBeGreaterThan(1);
	});

	it.each(events)('$name alone: its name', ({ value, name }) => {
		expect(canvasSubtitle(trigger, 1, { events: [value] })).toBe(name);
	});

	it('several events: their names in the order chosen', () => {
		const chosen = ['sessionCompleted', 'recipientStatusChanged'];
		const names = chosen.map((v) => events.find((e) => e.value === v)!.name);
		expect(canvasSubtitle(trigger, 1, { events: chosen })).toBe(names.join(', '));
		expect(canvasSubtitle(trigger, 1, { events: events.map((e) => e.value) })).toBe(
			events.map((e) => e.name).join(', '),
		);
	});

	it('a new node (the default event): "Session Completed"', () => {
		expect(canvasSubtitle(trigger, 1, {})).toBe('Session Completed');
	});

	it('no event chosen: says so', () => {
		expect(canvasSubtitle(trigger, 1, { events: [] })).toBe('No event chosen');
	});
});
