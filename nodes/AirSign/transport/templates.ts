import type { IDataObject } from 'n8n-workflow';

import type { RequestFailure } from '../errors/failure';
import { MALFORMED_RESPONSE } from '../errors/failure';
import { notFound } from '../errors/messages';
import { callAirSign } from './call';
import type { OffsetPage } from './offsetPages';
import type { AirSignContext, ApiAnswer } from './request';

/**
 * Get Template (a read: retried on 5xx and dropped connections): Template → Get, and the fields
 * of Create From Template, in the editor and when none were saved. Roles' recipientId is "default".
 */
export async function getTemplate(
	ctx: AirSignContext,
	templateId: string,
	itemIndex: number,
	maxRateLimitWaitMs: number,
): Promise<IDataObject> {
	const { body } = await callAirSign(
		ctx,
		{ method: 'GET', path: `/Template/${encodeURIComponent(templateId)}`, itemIndex },
		{ failures: { 404: notFound('template') }, maxRateLimitWaitMs },
	);
	return body as IDataObject;
}

/** One page of List Templates: Template → Get Many, and the editor's list of templates. */
export async function fetchTemplatesPage(
	ctx: AirSignContext,
	qs: { status: string; limit: number; offset: number },
	itemIndex: number,
	maxRateLimitWaitMs: number,
): Promise<OffsetPage> {
	const { body } = await callAirSign(
		ctx,
		{ method: 'GET', path: '/Templates', qs, itemIndex },
		{ failures: {}, maxRateLimitWaitMs, unusable: malformedTemplatesPage },
	);
	const page = body as {
		templates: IDataObject[];
		pagination?: { hasMore?: boolean; total?: number };
	};
	const { hasMore, total } = page.pagination ?? {};
	return { rows: page.templates, hasMore: Boolean(hasMore), total };
}

function malformedTemplatesPage(answer: ApiAnswer): RequestFailure | undefined {
	const page = answer.body as { templates?: unknown } | undefined;
	const isTemplate = (row: unknown) =>
		row !== null && typeof row === 'object' && !Array.isArray(row);
	if (Array.isArray(page?.templates) && page.templates.every(isTemplate)) return undefined;
	return { status: answer.statusCode, code: MALFORMED_RESPONSE };
}
