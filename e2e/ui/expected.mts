// What the AirSign node's panel must show for each operation, from the built description (dist/),
// visibility by n8n-workflow's displayParameter: a new operation is checked without a test edit.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as N8nWorkflow from 'n8n-workflow';
import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
	IVersionedNodeType,
} from 'n8n-workflow';
import { REPO_ROOT } from '../install-n8n.mts';
import { fail } from './editor.mts';

const require = createRequire(import.meta.url);
const { NodeHelpers }: typeof N8nWorkflow = require('n8n-workflow');

/** The built node's description (`npm run build` first). */
export function airSignDescription(): INodeTypeDescription {
	const { AirSign }: { AirSign: new () => INodeType } = require(
		path.join(REPO_ROOT, 'dist/nodes/AirSign/AirSign.node.js'),
	);
	return new AirSign().description;
}

/** The agent text the built node prefills in its tool's Description for one operation. */
export function agentText(resource: string, operation: string): string {
	const field = airSignDescription().properties.find(
		(p) =>
			p.name === 'toolDescription' &&
			p.displayOptions?.show?.resource?.includes(resource) &&
			p.displayOptions?.show?.operation?.includes(operation),
	);
	if (!field)
		throw new Error(`the built AirSign node has no Description for ${resource} ${operation}`);
	if (typeof field.default !== 'string')
		throw new Error(`the built AirSign node's Description for ${resource} ${operation} is no text`);
	return field.default;
}

/** The events the built trigger's panel offers in `version` (default: its newest). */
export function triggerEvents(version?: number): Pick<INodePropertyOptions, 'name' | 'value'>[] {
	const { AirSignTrigger }: { AirSignTrigger: new () => INodeType | IVersionedNodeType } = require(
		path.join(REPO_ROOT, 'dist/nodes/AirSign/AirSignTrigger.node.js'),
	);
	const { description } = NodeHelpers.getVersionedNodeType(new AirSignTrigger(), version);
	const events = description.properties.find((p) => p.name === 'events');
	if (!events) throw new Error('the built AirSign Trigger has no `events` parameter');
	const options = optionEntries(events);
	if (!options) throw new Error("the built AirSign Trigger's `events` parameter has no options");
	return options.map(({ name, value }) => ({ name, value }));
}

type PropertyEntry = INodePropertyOptions | INodeProperties | INodePropertyCollection;

const isOption = (entry: PropertyEntry): entry is INodePropertyOptions => 'value' in entry;

/** The { name, value } entries of an options parameter. */
function optionEntries(parameter: INodeProperties): INodePropertyOptions[] | undefined {
	const { options } = parameter;
	if (options === undefined || options.every(isOption)) return options;
	throw new Error(`the built node's parameter ${parameter.name} has entries that are not options`);
}

/** A resource mapper shows only once the parameters it loads from have a value (a template). */
function waitsForDependencies(parameter: INodeProperties, values: INodeParameters): boolean {
	if (parameter.type !== 'resourceMapper') return false;
	const dependsOn = parameter.typeOptions?.loadOptionsDependsOn ?? [];
	return dependsOn.some((path) => {
		const value = NodeHelpers.getParameterValueByPath(values, path, '');
		return value === undefined || value === '';
	});
}

/** A node as the nodes panel adds it: its default version, for '@version' display rules. */
const newNode = (description: INodeTypeDescription): INode =>
	({
		typeVersion:
			description.defaultVersion ?? Math.max(...[description.version].flat().map(Number)),
	}) as INode;

/** Whether the editor shows `parameter` on a new node that is no agent's tool ('@tool' hidden). */
const shown = (values: INodeParameters, p: INodeProperties, description: INodeTypeDescription) =>
	NodeHelpers.displayParameter(values, p, newNode(description), null);

const optionsOf = (
	description: INodeTypeDescription,
	name: string,
	values: INodeParameters,
): INodePropertyOptions[] =>
	description.properties
		.filter((p) => p.name === name && shown(values, p, description))
		.flatMap((p) => optionEntries(p) ?? []);

/** Every operation's panel with the defaults: what it shows; `hiddenNames`, the others' fields. */
export function expectedPanels(description = airSignDescription()) {
	const panels = [];
	for (const resource of optionsOf(description, 'resource', {})) {
		for (const operation of optionsOf(description, 'operation', { resource: resource.value })) {
			const values = NodeHelpers.getNodeParameters(
				description.properties,
				{ resource: resource.value, operation: operation.value },
				true,
				false,
				newNode(description),
				description,
			);
			if (!values) throw new Error(`no parameters for ${resource.name} → ${operation.name}`);
			const visible = description.properties.filter(
				(p) =>
					p.type !== 'hidden' && shown(values, p, description) && !waitsForDependencies(p, values),
			);
			panels.push({
				resource: resource.value,
				resourceName: resource.name,
				operation: operation.value,
				operationName: operation.name,
				// the nodes panel lists the operation by its action text: the check needs one
				action: operation.action ?? fail(`${operation.name}: no action text`),
				labels: visible.filter((p) => p.type !== 'notice').map((p) => p.displayName),
				notices: visible.filter((p) => p.type === 'notice').map((p) => p.displayName),
				hints: visible
					.filter((p): p is INodeProperties & { hint: string } => typeof p.hint === 'string')
					.map((p) => p.hint),
				names: visible.map((p) => p.name),
			});
		}
	}
	const allNames = new Set(panels.flatMap((p) => p.names));
	return panels.map((p) => ({
		...p,
		hiddenNames: [...allNames].filter((n) => !p.names.includes(n)),
	}));
}
