// What the AirSign node's panel must show for each resource and operation, derived from the built
// node's own description (dist/), so that a new operation or field is checked without editing the
// test. Visibility is decided by n8n-workflow's own displayParameter over the node's default
// parameters, as the editor decides it.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as N8nWorkflow from 'n8n-workflow';
import type {
	INode,
	INodeCredentialDescription,
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

/** The built node's description (run `npm run build` first; the tier packs after building). */
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
	// a string field's default (the check only narrows its type)
	if (typeof field.default !== 'string')
		throw new Error(`the built AirSign node's Description for ${resource} ${operation} is no text`);
	return field.default;
}

/** The built trigger's description of `version` (default: its newest). */
export function triggerDescription(version?: number): INodeTypeDescription {
	const { AirSignTrigger }: { AirSignTrigger: new () => INodeType | IVersionedNodeType } = require(
		path.join(REPO_ROOT, 'dist/nodes/AirSign/AirSignTrigger.node.js'),
	);
	const node = new AirSignTrigger();
	// A versioned node (n8n's VersionedNodeType) keeps one description per version.
	if (!isVersioned(node)) return node.description;
	return node.nodeVersions[version ?? node.description.defaultVersion ?? node.currentVersion]
		.description;
}

/** Whether a built node is versioned (has nodeVersions), as `node.nodeVersions` tells. */
const isVersioned = (node: INodeType | IVersionedNodeType): node is IVersionedNodeType =>
	'nodeVersions' in node && Boolean(node.nodeVersions);

/** One event of the trigger, as its panel offers it. */
export interface TriggerEvent {
	name: string;
	value: INodePropertyOptions['value'];
}

/** The trigger's events as its panel offers them ({ name, value }), from the built description. */
export function triggerEvents(version?: number): TriggerEvent[] {
	const events = triggerDescription(version).properties.find((p) => p.name === 'events');
	if (!events) throw new Error('the built AirSign Trigger has no `events` parameter');
	const options = optionEntries(events);
	if (!options) throw new Error("the built AirSign Trigger's `events` parameter has no options");
	return options.map(({ name, value }) => ({ name, value }));
}

type PropertyEntry = INodePropertyOptions | INodeProperties | INodePropertyCollection;

/** An options parameter's entry ({ name, value }), not a field of a collection. */
const isOption = (entry: PropertyEntry): entry is INodePropertyOptions => 'value' in entry;

/**
 * The entries of an options parameter (`options` and `multiOptions` hold only { name, value }
 * entries: the check only narrows their type).
 */
function optionEntries(parameter: INodeProperties): INodePropertyOptions[] | undefined {
	const { options } = parameter;
	if (options === undefined || options.every(isOption)) return options;
	throw new Error(`the built node's parameter ${parameter.name} has entries that are not options`);
}

/**
 * n8n's editor shows a resource mapper only once the parameters it loads from have a value (the
 * template's roles and variables need a template): with the defaults, it is not on the panel.
 */
function waitsForDependencies(parameter: INodeProperties, values: INodeParameters): boolean {
	if (parameter.type !== 'resourceMapper') return false;
	const dependsOn = parameter.typeOptions?.loadOptionsDependsOn ?? [];
	return dependsOn.some((path) => {
		const value = path.split('.').reduce<unknown>((v, key) => propertyOf(v, key), values);
		return value === undefined || value === '';
	});
}

/** `v?.[key]` of a value of any type. */
const propertyOf = (v: unknown, key: string): unknown =>
	v === null || v === undefined ? undefined : (v as Record<string, unknown>)[key];

/**
 * The node the editor adds from the nodes panel: the node type's default version, which
 * n8n-workflow reads for '@version' display rules (the rest of the node it reads with `?.`).
 */
const newNode = (description: INodeTypeDescription): INode =>
	({
		typeVersion:
			description.defaultVersion ?? Math.max(...[description.version].flat().map(Number)),
	}) as INode;

/**
 * Whether the editor shows `parameter` with these values on a new node; a description null, as
 * for a node that is no AI agent's tool (its '@tool' fields stay hidden).
 */
const displayed = (
	values: INodeParameters,
	parameter: INodeProperties | INodeCredentialDescription | INodePropertyOptions,
	node: INode,
): boolean => NodeHelpers.displayParameter(values, parameter, node, null);

const optionsOf = (
	description: INodeTypeDescription,
	name: string,
	values: INodeParameters,
): INodePropertyOptions[] =>
	description.properties
		.filter((p) => p.name === name && displayed(values, p, newNode(description)))
		.flatMap((p) => optionEntries(p) ?? []);

/** What one operation's panel shows with the defaults (see expectedPanels). */
export interface ExpectedPanel {
	resource: INodePropertyOptions['value'];
	resourceName: string;
	operation: INodePropertyOptions['value'];
	operationName: string;
	action: string;
	labels: string[];
	notices: string[];
	hints: string[];
	names: string[];
	hiddenNames?: string[];
}

/**
 * Every resource and operation of the node, each with what its panel shows with the defaults:
 *   { resource, resourceName, operation, operationName, action,
 *     labels: displayName of each visible field, notices: text of each visible notice,
 *     hints: each visible field's hint, names: the visible fields' names,
 *     hiddenNames: fields of other operations, not on this panel }
 */
export function expectedPanels(description = airSignDescription()): ExpectedPanel[] {
	const panels: ExpectedPanel[] = [];
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
			// with returnDefaults it returns the parameters, never null: the check only narrows the type
			if (!values) throw new Error(`no parameters for ${resource.name} → ${operation.name}`);
			const visible = description.properties.filter(
				(p) =>
					p.type !== 'hidden' &&
					displayed(values, p, newNode(description)) &&
					!waitsForDependencies(p, values),
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
	// A field of some other operation must not be on this panel (fields are found by name).
	const allNames = new Set(panels.flatMap((p) => p.names));
	for (const panel of panels)
		panel.hiddenNames = [...allNames].filter((n) => !panel.names.includes(n));
	return panels;
}
