// @ts-nocheck (typed file by file: issue 34)
// What the AirSign node's panel must show for each resource and operation, derived from the built
// node's own description (dist/), so that a new operation or field is checked without editing the
// test. Visibility is decided by n8n-workflow's own displayParameter over the node's default
// parameters, as the editor decides it.
import { createRequire } from 'node:module';
import path from 'node:path';
import { REPO_ROOT } from '../install-n8n.mts';

const require = createRequire(import.meta.url);
const { NodeHelpers } = require('n8n-workflow');

/** The built node's description (run `npm run build` first; the tier packs after building). */
export function airSignDescription() {
	const { AirSign } = require(path.join(REPO_ROOT, 'dist/nodes/AirSign/AirSign.node.js'));
	return new AirSign().description;
}

/** The agent text the built node prefills in its tool's Description for one operation. */
export function agentText(resource, operation) {
	const field = airSignDescription().properties.find(
		(p) =>
			p.name === 'toolDescription' &&
			p.displayOptions?.show?.resource?.includes(resource) &&
			p.displayOptions?.show?.operation?.includes(operation),
	);
	if (!field)
		throw new Error(`the built AirSign node has no Description for ${resource} ${operation}`);
	return field.default;
}

/** The built trigger's description of `version` (default: its newest). */
export function triggerDescription(version) {
	const { AirSignTrigger } = require(
		path.join(REPO_ROOT, 'dist/nodes/AirSign/AirSignTrigger.node.js'),
	);
	const node = new AirSignTrigger();
	// A versioned node (n8n's VersionedNodeType) keeps one description per version.
	if (!node.nodeVersions) return node.description;
	return node.nodeVersions[version ?? node.description.defaultVersion ?? node.currentVersion]
		.description;
}

/** The trigger's events as its panel offers them ({ name, value }), from the built description. */
export function triggerEvents(version) {
	const events = triggerDescription(version).properties.find((p) => p.name === 'events');
	if (!events) throw new Error('the built AirSign Trigger has no `events` parameter');
	return events.options.map(({ name, value }) => ({ name, value }));
}

/**
 * n8n's editor shows a resource mapper only once the parameters it loads from have a value (the
 * template's roles and variables need a template): with the defaults, it is not on the panel.
 */
function waitsForDependencies(parameter, values) {
	if (parameter.type !== 'resourceMapper') return false;
	const dependsOn = parameter.typeOptions?.loadOptionsDependsOn ?? [];
	return dependsOn.some((path) => {
		const value = path.split('.').reduce((v, key) => v?.[key], values);
		return value === undefined || value === '';
	});
}

const optionsOf = (description, name, values) =>
	description.properties
		.filter((p) => p.name === name && NodeHelpers.displayParameter(values, p, undefined))
		.flatMap((p) => p.options ?? []);

/**
 * Every resource and operation of the node, each with what its panel shows with the defaults:
 *   { resource, resourceName, operation, operationName, action,
 *     labels: displayName of each visible field, notices: text of each visible notice,
 *     hints: each visible field's hint, names: the visible fields' names,
 *     hiddenNames: fields of other operations, not on this panel }
 */
export function expectedPanels(description = airSignDescription()) {
	const panels = [];
	for (const resource of optionsOf(description, 'resource', {})) {
		for (const operation of optionsOf(description, 'operation', { resource: resource.value })) {
			const values = NodeHelpers.getNodeParameters(
				description.properties,
				{ resource: resource.value, operation: operation.value },
				true,
				false,
				null,
				description,
			);
			const visible = description.properties.filter(
				(p) =>
					p.type !== 'hidden' &&
					NodeHelpers.displayParameter(values, p, undefined) &&
					!waitsForDependencies(p, values),
			);
			panels.push({
				resource: resource.value,
				resourceName: resource.name,
				operation: operation.value,
				operationName: operation.name,
				action: operation.action,
				labels: visible.filter((p) => p.type !== 'notice').map((p) => p.displayName),
				notices: visible.filter((p) => p.type === 'notice').map((p) => p.displayName),
				hints: visible.filter((p) => typeof p.hint === 'string').map((p) => p.hint),
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
