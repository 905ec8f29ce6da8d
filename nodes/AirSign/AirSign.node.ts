import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as file from './actions/file/File.resource';
import { router } from './actions/router';
import * as session from './actions/session/Session.resource';
import * as template from './actions/template/Template.resource';
import { listSearch, resourceMapping } from './methods';

export class AirSign implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'AirSign',
		name: 'airSign',
		icon: { light: 'file:airsign.svg', dark: 'file:airsign.dark.svg' },
		group: ['output'],
		version: 1,
		// Under the node's name on the canvas: its operation's action, as in the panel ("Send a session").
		// n8n's lint wants a string literal here. Every "}" of the table is followed by a space: "}}"
		// would end the expression early. An operation missing from the table shows "send: session".
		subtitle:
			'={{ ({"file":{"upload":"Upload a file"} ,"session":{"create":"Create a session","createFromTemplate":"Create a session from a template","get":"Get a session","getMany":"Get many sessions","send":"Send a session","sendInvitation":"Resend an invitation"} ,"template":{"create":"Create a template","get":"Get a template","getMany":"Get many templates"} } [$parameter["resource"]] || {})[$parameter["operation"]] || $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Create signing sessions from documents, PDFs and templates, send them, remind signers, and read sessions and templates in AirSign',
		defaults: { name: 'AirSign' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'airSignApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'File', value: 'file' },
					{ name: 'Session', value: 'session' },
					{ name: 'Template', value: 'template' },
				],
				default: 'session',
			},
			...file.description,
			...session.description,
			...template.description,
		],
	};

	methods = { listSearch, resourceMapping };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
