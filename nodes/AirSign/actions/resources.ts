import type { INodeProperties } from 'n8n-workflow';

import * as file from './file/File.resource';
import * as session from './session/Session.resource';
import * as template from './template/Template.resource';

// Every resource once: the router runs their operations, the node shows their fields, the
// Resource field and the canvas subtitle are read from them.
export const resources = { file, session, template };

export const resourceField: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: Object.keys(resources).map((value) => ({
		name: value.charAt(0).toUpperCase() + value.slice(1),
		value,
	})),
	default: 'session',
};

/** Each resource's Operation field, then its operations' fields. */
export const operationFields: INodeProperties[] = Object.values(resources).flatMap(
	(resource) => resource.description,
);
