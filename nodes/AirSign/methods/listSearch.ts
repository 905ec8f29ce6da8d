import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { declaredFailureOf, NODE_DEFECT } from '../errors/declaredFailure';
import { LIMITS, listSessionsBudgetText, MAX_PAGE_SIZE } from '../helpers/constants';
import { callAirSign } from '../transport/call';
import { fetchSessionsPage } from '../transport/sessionPages';

const STATUS_LABELS: Record<string, string> = {
	draft: 'draft',
	pending: 'pending',
	inProgress: 'in progress',
	completed: 'completed',
	cancelled: 'cancelled',
	expired: 'expired',
};

/**
 * Sessions for the Session locator, newest update first, searched by name on AirSign. Every
 * call is one List Sessions request from the organisation's hourly budget: pages are as large
 * as AirSign serves, and a 429 fails at once (the editor does not wait).
 */
export async function searchSessions(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const offset = Number(paginationToken ?? 0) || 0;
	try {
		const page = await fetchSessionsPage(
			this,
			{ name: filter?.trim() || undefined, sortBy: 'updatedAt', sortOrder: 'desc' },
			{ limit: MAX_PAGE_SIZE, offset },
			0,
			{ maxRateLimitWaitMs: 0, transientRetries: 1 },
		);
		return {
			results: page.sessions.map((session) => ({
				name: `${String(session.name)} (${STATUS_LABELS[String(session.status)] ?? String(session.status)})`,
				value: String(session.sessionId),
			})),
			paginationToken: page.pagination.hasMore ? String(offset + page.sessions.length) : undefined,
		};
	} catch (error) {
		if (error instanceof NodeApiError && error.httpCode === '429') {
			throw new NodeApiError(
				this.getNode(),
				{ message: error.message },
				{
					message: error.message,
					description: `${listSessionsBudgetText()}, and this list spends it. Choose "By ID" to pick a session without a request, or search again after the reset.`,
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

/**
 * Active templates for the Template locator, by name. AirSign has no name search for
 * templates: the filter is applied here, over as many pages as it takes.
 */
export async function searchTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const needle = filter?.trim().toLowerCase() ?? '';
	let offset = Number(paginationToken ?? 0) || 0;
	const results: INodeListSearchResult['results'] = [];
	for (let pages = 0; pages < 10; pages++) {
		const { body } = await callAirSign(
			this,
			{
				method: 'GET',
				path: '/Templates',
				qs: { status: 'active', limit: LIMITS.templatePageSize, offset },
				itemIndex: 0,
			},
			{ failures: {}, maxRateLimitWaitMs: 0 },
		);
		const { templates, pagination } = body as {
			templates?: IDataObject[];
			pagination?: { hasMore?: boolean };
		};
		for (const template of templates ?? []) {
			if (needle && !String(template.name).toLowerCase().includes(needle)) continue;
			results.push({ name: String(template.name), value: String(template.templateId) });
		}
		offset += templates?.length ?? 0;
		if (!pagination?.hasMore || !templates?.length) return { results };
		if (!needle || results.length > 0) return { results, paginationToken: String(offset) };
	}
	return { results, paginationToken: String(offset) };
}
