/** Every operation of the AirSign node, from its description in the panel's order. */
import type { INodePropertyOptions } from 'n8n-workflow';

import { AirSign } from '../../../nodes/AirSign/AirSign.node';

export interface NodeOperation {
	resource: string;
	operation: string;
	/** `session.send` */
	key: string;
	/** As the panel names it: `Session Send Invitation`. */
	title: string;
	/** The short action: `Send a session`. */
	action: string;
}

const { properties } = new AirSign().description;
const resourceNames = new Map(
	(properties.find((p) => p.name === 'resource')!.options as INodePropertyOptions[]).map((o) => [
		o.value as string,
		o.name,
	]),
);

export const NODE_OPERATIONS: NodeOperation[] = properties
	.filter((p) => p.name === 'operation')
	.flatMap((p) => {
		const resource = p.displayOptions!.show!.resource![0] as string;
		return (p.options as INodePropertyOptions[]).map((o) => ({
			resource,
			operation: o.value as string,
			key: `${resource}.${o.value as string}`,
			title: `${resourceNames.get(resource)} ${o.name}`,
			action: o.action ?? '',
		}));
	});

/** The text an AI agent reads about the operation, as its description declares it. */
export function declaredAgentText({ resource, operation }: NodeOperation): unknown {
	return properties.find(
		(p) =>
			p.name === 'toolDescription' &&
			p.displayOptions?.show?.resource?.includes(resource) &&
			p.displayOptions?.show?.operation?.includes(operation),
	)?.default;
}
