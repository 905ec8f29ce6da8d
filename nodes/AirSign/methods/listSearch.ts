import type { ILoadOptionsFunctions, INodeListSearchResult, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { STATUS_LABELS } from '../descriptions/sessionFilters';
import { declaredFailureOf, NODE_DEFECT } from '../errors/causes';
import { LIMITS, listSessionsLimitText, MAX_PAGE_SIZE } from '../helpers/constants';
import { readByOffset } from '../transport/offsetPages';
import { sessionPages } from '../transport/sessionPages';
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
				name: `${String(session.name)} (${STATUS_LABELS.get(String(session.status))?.toLowerCase() ?? String(session.status)})`,
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

function searchPaging(paginationToken?: string) {
	return { limit: Number.POSITIVE_INFINITY, offset: Number(paginationToken ?? 0) || 0 };
}
