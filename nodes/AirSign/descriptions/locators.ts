import type { INodeProperties } from 'n8n-workflow';

import { LIST_SESSIONS_HOURLY_BUDGET, UUID } from '../helpers/constants';

function locator(
	kind: 'session' | 'template',
	list: { method: string; placeholder: string },
	urlExample: string,
): INodeProperties {
	return {
		displayName: kind === 'session' ? 'Session' : 'Template',
		name: `${kind}Id`,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: list.placeholder,
				typeOptions: { searchListMethod: list.method, searchable: true },
			},
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: `e.g. the ${urlExample} AirSign gave for it`,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: `\\s*https?://.*${UUID}.*`,
							errorMessage: `Not a link that holds an AirSign ${kind} ID`,
						},
					},
				],
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 3f2b8a1e-7c4d-4e8f-9a0b-1c2d3e4f5a6b',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: `\\s*${UUID}\\s*`,
							errorMessage: `Not an AirSign ${kind} ID`,
						},
					},
				],
			},
		],
	};
}

export function sessionLocator(description: string): INodeProperties {
	return {
		...locator(
			'session',
			{ method: 'searchSessions', placeholder: 'Search sessions by name…' },
			'draftUrl',
		),
		description,
		hint: `From List searches AirSign by name: each search or page is one List Sessions request, from the ${LIST_SESSIONS_HOURLY_BUDGET} an hour the organisation shares. By ID costs nothing.`,
	};
}

export function templateLocator(description: string): INodeProperties {
	return {
		...locator(
			'template',
			{ method: 'searchTemplates', placeholder: 'Choose an active template…' },
			'editorUrl',
		),
		description,
	};
}
