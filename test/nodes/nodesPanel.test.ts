/**
 * The nodes panel's entry for the package, built as n8n's editor builds it (node creator,
 * `generateMergedNodesAndActions` in editor-ui's useActionsGeneration.ts, the same in 1.x and 2.x):
 * the action nodes become entries; a trigger whose type name without "Trigger" is the type name of
 * an action node with actions joins that entry (its events beside the operations), and the entry
 * takes the trigger's description ("default to trigger description"). The entry's "Node details"
 * show that description. The UI tier (e2e/ui/nodePanel.mts) reads it in the editor.
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
	const entries: PanelEntry[] = types
		.filter((type) => !type.group.includes('trigger'))
		.map(({ name, displayName, description }) => ({
			name,
			displayName,
			description,
			from: [name],
		}));
	for (const trigger of types.filter((type) => type.group.includes('trigger'))) {
		const app = entries.find((entry) => entry.name === trigger.name.replace('Trigger', ''));
		// (n8n also asks that the action node has actions: ours has its operations)
		if (app) {
			app.description = trigger.description;
			app.from.push(trigger.name);
		} else
			entries.push({
				name: trigger.name,
				displayName: trigger.displayName,
				description: trigger.description,
				from: [trigger.name],
			});
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
