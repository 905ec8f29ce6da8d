import type { INodeProperties } from 'n8n-workflow';

import { EMAILS_PEOPLE, LIST_SESSIONS_COST, ONE_REQUEST_COST } from '../../helpers/constants';

import * as create from './create.operation';
import * as createFromTemplate from './createFromTemplate.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as send from './send.operation';
import * as sendInvitation from './sendInvitation.operation';

export { create, createFromTemplate, get, getMany, send, sendInvitation };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['session'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Create a signing session from a document written in the node (title, text, recipients) or from block documents, with uploaded PDFs attached. A draft (with a draftUrl to review it) unless sent immediately.',
				action: `Create a draft signing session from a written document or block documents (with Send Immediately on, it ${EMAILS_PEOPLE}); ${ONE_REQUEST_COST}`,
			},
			{
				name: 'Create From Template',
				value: 'createFromTemplate',
				description:
					'Create a signing session from an active AirSign template: its recipient roles get names and emails, its variables values. A draft unless sent immediately.',
				action: `Create a draft signing session from a template, filling in its recipient roles and variables (with Send Immediately on, it ${EMAILS_PEOPLE}); ${ONE_REQUEST_COST}`,
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get one signing session by its ID: its status, files, and each recipient with their signing status',
				action: `Get a session by its ID: its status, files and each recipient's signing status; ${ONE_REQUEST_COST}`,
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description:
					'List signing sessions, newest update first, filtered by status, name, recipient email or dates',
				action: `Get many sessions, newest update first; ${LIST_SESSIONS_COST}`,
			},
			{
				name: 'Send',
				value: 'send',
				description:
					'Send a draft session: it becomes pending and every recipient is emailed a signing invitation',
				action: `Send a draft session for signing; ${EMAILS_PEOPLE}: every recipient gets an invitation, which cannot be undone; ${ONE_REQUEST_COST}`,
			},
			{
				name: 'Send Invitation',
				value: 'sendInvitation',
				description:
					'Email the signing invitation again to one recipient of a pending or in-progress session (a reminder)',
				action: `Send the invitation again to a recipient who has not signed; ${EMAILS_PEOPLE}: that recipient gets a reminder; ${ONE_REQUEST_COST}`,
			},
		],
		default: 'send',
	},
	...create.description,
	...createFromTemplate.description,
	...get.description,
	...getMany.description,
	...send.description,
	...sendInvitation.description,
];
