import '../../harness';

import { NodeApiError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { apiRequests, seedSessions, useAirSign } from './helpers';
import { listSearch } from './loadOptions';

const ctx = useAirSign();

describe('Session locator: From List', () => {
	it('one List Sessions request per search: searched by name on AirSign, newest update first, 100 a page', async () => {
		ctx.sandbox.createSession({
			name: 'NDA – Acme',
			status: 'pending',
			updatedAt: '2025-01-02T00:00:00Z',
		});
		ctx.sandbox.createSession({ name: 'Lease', createdAt: '2025-01-03T00:00:00Z' });
		ctx.sandbox.createSession({ name: 'nda – Beta', createdAt: '2025-01-04T00:00:00Z' });
		const result = await listSearch(ctx, 'searchSessions', { filter: ' nda ' });
		expect(result.results.map((r) => r.name)).toEqual([
			'nda – Beta (draft)',
			'NDA – Acme (pending)',
		]);
		expect(result.paginationToken).toBeUndefined();
		expect(apiRequests(ctx.sandbox).map((r) => r.query)).toEqual([
			{ name: 'nda', sortBy: 'updatedAt', sortOrder: 'desc', limit: '100', offset: '0' },
		]);
	});

	it('each session with its status in words, as the Status filter names it', async () => {
		ctx.sandbox.createSession({ name: 'Lease', status: 'inProgress' });
		const result = await listSearch(ctx, 'searchSessions');
		expect(result.results.map((r) => r.name)).toEqual(['Lease (in progress)']);
	});

	it('pages on by offset while AirSign says there is more', async () => {
		seedSessions(ctx.sandbox, 130);
		const first = await listSearch(ctx, 'searchSessions');
		expect(first.results).toHaveLength(100);
		expect(first.paginationToken).toBe('100');
		const second = await listSearch(ctx, 'searchSessions', {
			paginationToken: first.paginationToken,
		});
		expect(second.results).toHaveLength(30);
		expect(second.paginationToken).toBeUndefined();
		expect(apiRequests(ctx.sandbox)).toHaveLength(2);
	});

	it('a used-up budget fails at once, saying that By ID needs no request', async () => {
		ctx.sandbox.injectFault({ kind: 'rateLimit', path: '/api/v1/Sessions', retryAfter: 30 });
		const error = await listSearch(ctx, 'searchSessions').catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).description).toContain("Choose 'By ID'");
		expect(apiRequests(ctx.sandbox)).toHaveLength(1);
	});
});

describe('Template locator: From List', () => {
	it('active templates only, by name; the filter is applied by the node', async () => {
		ctx.sandbox.createTemplate({ name: 'Offer letter', status: 'active' });
		ctx.sandbox.createTemplate({ name: 'NDA', status: 'active' });
		ctx.sandbox.createTemplate({ name: 'Offer (draft)' });
		const all = await listSearch(ctx, 'searchTemplates');
		expect(all.results.map((r) => r.name)).toEqual(['NDA', 'Offer letter']);
		const offers = await listSearch(ctx, 'searchTemplates', { filter: 'OFFER' });
		expect(offers.results).toEqual([
			{
				name: 'Offer letter',
				value: ctx.sandbox.listAllTemplates().find((t) => t.name === 'Offer letter')!.templateId,
			},
		]);
		expect(apiRequests(ctx.sandbox).map((r) => r.query)).toEqual([
			{ status: 'active', limit: '100', offset: '0' },
			{ status: 'active', limit: '100', offset: '0' },
		]);
	});

	it('with a filter, pages on until something matches', async () => {
		for (let i = 0; i < 150; i++)
			ctx.sandbox.createTemplate({ name: `T${String(i).padStart(3, '0')}`, status: 'active' });
		const found = await listSearch(ctx, 'searchTemplates', { filter: 'T14' });
		expect(found.results.map((r) => r.name)).toEqual(
			Array.from({ length: 10 }, (_, i) => `T14${i}`),
		);
		expect(apiRequests(ctx.sandbox).map((r) => r.query.offset)).toEqual(['0', '100']);
	});
});
