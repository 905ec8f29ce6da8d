/**
 * The nodes panel's entry, merged as n8n's editor merges it (`generateMergedNodesAndActions`,
 * editor-ui's useActionsGeneration.ts, 1.x and 2.x): a trigger named as an action node plus
 * "Trigger" joins that node's entry, which takes the trigger's description. The UI tier
 * (e2e/ui/nodePanel.mts) reads it in the editor.
 */
import '../harness';

import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { AirSign } from '../../nodes/AirSign/AirSign.node';
import { AirSignTrigger } from '../../nodes/AirSign/AirSignTrigger.node';
import { fullNodeTypeName } from '../harness/node-types';

interface PanelEntry {
	name: string;
	displayName: string;
	description: string;
	/** The nodes whose actions the entry lists. */
	from: string[];
}

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
