import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { declaredFailureOf, NODE_DEFECT } from '../errors/causes';
import { failer } from '../errors/nodeError';
import {
	AWAITING_SIGNATURES,
	LIMITS,
	listSessionsLimitText,
	MAX_PAGE_SIZE,
	RECIPIENT_SIGNED_STATUSES,
	statusInWords,
} from '../helpers/constants';
import { readLocatorId } from '../helpers/validation';
import { readByOffset } from '../transport/offsetPages';
import { getSession, sessionPages } from '../transport/sessionPages';
import { fetchTemplatesPage } from '../transport/templates';

// Each call is one List Sessions request of the hourly budget; a 429 fails at once (the editor does not wait).
export async function searchSessions(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const query = { name: filter?.trim() || undefined, sortBy: 'updatedAt', sortOrder: 'desc' };
	try {
		const pages = sessionPages(this, query, 0, { maxRateLimitWaitMs: 0, transientRetries: 1 });
		const { rows, nextOffset } = await readByOffset(pages, {
			...searchPaging(paginationToken),
			pageSize: MAX_PAGE_SIZE,
			idField: 'sessionId',
			maxPages: 1,
		});
		return {
			results: rows.map((session) => ({
				name: `${String(session.name)} (${statusInWords(String(session.status))})`,
				value: String(session.sessionId),
			})),
			paginationToken: nextOffset === undefined ? undefined : String(nextOffset),
		};
	} catch (error) {
		if (error instanceof NodeApiError && error.httpCode === '429') {
			throw new NodeApiError(
				this.getNode(),
				{ message: error.message },
				{
					message: error.message,
					description: `${listSessionsLimitText()}, and this list spends it. Choose 'By ID' to pick a session without a request, or search again after the reset.`,
					httpCode: '429',
					failure: declaredFailureOf(error),
				},
			);
		}
		// A NodeApiError comes back untouched; anything else is a bug of this list.
		throw new NodeApiError(this.getNode(), error as JsonObject, {
			...(!(error instanceof NodeApiError) && { failure: NODE_DEFECT }),
		});
	}
}

// AirSign has no name search for templates: the filter is applied here.
export async function searchTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const needle = filter?.trim().toLowerCase() ?? '';
	const { rows, nextOffset } = await readByOffset(
		async (limit, offset) =>
			await fetchTemplatesPage(this, { status: 'active', limit, offset }, 0, 0),
		{
			...searchPaging(paginationToken),
			pageSize: LIMITS.templatePageSize,
			idField: 'templateId',
			maxPages: 10,
			keep: (template) => String(template.name).toLowerCase().includes(needle),
			enough: 1,
		},
	);
	return {
		results: rows.map((template) => ({
			name: String(template.name),
			value: String(template.templateId),
		})),
		...(nextOffset !== undefined && { paginationToken: String(nextOffset) }),
	};
}

// Send Invitation's recipients who can be reminded (a session waiting for signatures, a recipient
// who has not signed: AirSign refuses the others), read off the chosen session (By URL too, as
// execute reads it); none until one is chosen: an expression is resolved only when the workflow runs.
export async function searchRecipients(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	let sessionId: string;
	try {
		const given = this.getCurrentNodeParameter('sessionId');
		sessionId = readLocatorId(given, 'session', failer(this.getNode(), 0));
	} catch {
		return { results: [] };
	}
	const session = await getSession(this, sessionId, 0, 0);
	if (!AWAITING_SIGNATURES.includes(String(session.status))) return { results: [] };
	const recipients = Array.isArray(session.recipients) ? (session.recipients as IDataObject[]) : [];
	const results = recipients
		.filter((recipient) => !RECIPIENT_SIGNED_STATUSES.includes(String(recipient.status)))
		.map((recipient) => ({
			name: `${String(recipient.name)} <${String(recipient.email)}> (${statusInWords(String(recipient.status))})`,
			value: String(recipient.recipientId),
		}));
	const needle = filter?.trim().toLowerCase() ?? '';
	return { results: results.filter(({ name }) => name.toLowerCase().includes(needle)) };
}

function searchPaging(paginationToken?: string) {
	return { limit: Number.POSITIVE_INFINITY, offset: Number(paginationToken ?? 0) || 0 };
}
