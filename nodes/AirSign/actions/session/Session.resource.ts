import type { INodeProperties } from 'n8n-workflow';

import {
	EMAILS_PEOPLE,
	LIST_SESSIONS_PAGE_COST,
	ONE_REQUEST_COST,
	toolDescriptions,
} from '../../descriptions/toolDescription';
import { pageFields } from '../../descriptions/pageFields';

import * as create from './create.operation';
import * as createFromTemplate from './createFromTemplate.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as send from './send.operation';
import * as sendInvitation from './sendInvitation.operation';

/** The pages, by the operation they are (the value of its option below). */
export const operations = { create, createFromTemplate, get, getMany, send, sendInvitation };

/** What sending does, for Send and for a Create with Send Immediately on. */
const SEND_EMAILS = `${EMAILS_PEOPLE}: every recipient gets an invitation, which cannot be undone`;

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
				action: 'Create a session',
			},
			{
				name: 'Create From Template',
				value: 'createFromTemplate',
				description:
					'Create a signing session from an active AirSign template: its recipient roles get names and emails, its variables values. A draft unless sent immediately.',
				action: 'Create a session from a template',
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get one signing session by its ID: its status, files, and each recipient with their signing status',
				action: 'Get a session',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description:
					'List signing sessions, newest update first, filtered by status, name, recipient email or dates: each with its status and each recipient with their signing status',
				action: 'Get many sessions',
			},
			{
				name: 'Send',
				value: 'send',
				description:
					'Send a draft session: it becomes pending and every recipient is emailed a signing invitation',
				action: 'Send a session',
			},
			{
				name: 'Send Invitation',
				value: 'sendInvitation',
				description:
					'Email the signing invitation again to one recipient of a pending or in-progress session (a reminder)',
				action: 'Send an invitation',
			},
		],
		default: 'send',
	},
	...toolDescriptions('session', {
		create: `Create an AirSign signing session from a written document or block documents, as a draft (with Send Immediately on, it ${SEND_EMAILS}); returns the session with its recipients and, while a draft, its draftUrl; ${ONE_REQUEST_COST}`,
		createFromTemplate: `Create an AirSign signing session from a template, filling in its recipient roles and variables, as a draft (with Send Immediately on, it ${SEND_EMAILS}); returns the session with its recipients and, while a draft, its draftUrl; ${ONE_REQUEST_COST}`,
		get: `Get an AirSign signing session by its ID: its status, files and each recipient with their recipientId, name and signing status; ${ONE_REQUEST_COST}`,
		getMany: `Get many AirSign signing sessions, newest update first, each with its status and each recipient with their recipientId, name and signing status; ${LIST_SESSIONS_PAGE_COST}`,
		send: `Send a draft AirSign session for signing; ${SEND_EMAILS}; ${ONE_REQUEST_COST}`,
		sendInvitation: `Send the AirSign signing invitation again to one recipient who has not signed; ${EMAILS_PEOPLE}: that recipient gets a reminder, which cannot be undone; ${ONE_REQUEST_COST}`,
	}),
	...pageFields('session', operations),
];
