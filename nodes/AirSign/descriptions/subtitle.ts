import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * Under the node's name on the canvas: its operation's action, as in the panel ("Send a session"),
 * read from the resources' operation options. Every "}" of the table is followed by a space: "}}"
 * would end the expression early. An operation missing from the table shows "send: session".
 */
export function actionSubtitle(properties: INodeProperties[]): string {
	const table = properties
		.filter((field) => field.name === 'operation')
		.map((field) => {
			const actions = Object.fromEntries(
				(field.options as INodePropertyOptions[]).map((option) => [option.value, option.action]),
			);
			return `${JSON.stringify(field.displayOptions?.show?.resource?.[0])}:${JSON.stringify(actions)}`;
		});
	return `={{ ({${table.join(' ,')} } [$parameter["resource"]] || {})[$parameter["operation"]] || $parameter["operation"] + ": " + $parameter["resource"] }}`;
}
