import type { INodeProperties } from 'n8n-workflow';

import { LIMITS } from '../helpers/constants';
import { recipientsCollection, signingOrderField } from './sessionDocuments';

export const templateRecipientsAndVariables: INodeProperties[] = [
	recipientsCollection(`The roles that sign, 1 to ${LIMITS.recipients}`, [
		{
			displayName: 'Key',
			name: 'key',
			type: 'string',
			default: '',
			required: true,
			description: 'Named by the role’s signature block: letters, digits, "_" and "-"',
		},
		{
			displayName: 'Role Name',
			name: 'name',
			type: 'string',
			default: '',
			placeholder: 'e.g. Employee',
			description:
				'Shown as "&lt;Role&gt; Name" / "&lt;Role&gt; Email" when a session is created from it',
		},
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
			description: 'Empty to fill in for each session, a fixed email, or a {{{variable}}}',
		},
		signingOrderField,
	]),
	{
		displayName: 'Variables',
		name: 'variables',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Variable',
		description: `What each session fills in, at most ${LIMITS.variables}; every {{{token}}} must be one`,
		options: [
			{
				displayName: 'Variable',
				name: 'variable',
				values: [
					{
						displayName: 'Default Value',
						name: 'defaultValue',
						type: 'string',
						default: '',
					},
					{
						displayName: 'Description',
						name: 'description',
						type: 'string',
						default: '',
					},
					{
						displayName: 'Display Name',
						name: 'displayName',
						type: 'string',
						default: '',
					},
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						required: true,
					},
					{
						displayName: 'Required',
						name: 'required',
						type: 'boolean',
						default: true,
						description: 'Whether every session from the template must give it',
					},
					{
						displayName: 'Type',
						name: 'type',
						type: 'options',
						options: [
							{ name: 'Text', value: 'text' },
							{ name: 'Date', value: 'date' },
							{ name: 'Number', value: 'number' },
						],
						default: 'text',
					},
				],
			},
		],
	},
];
