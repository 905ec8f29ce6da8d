import '../../harness';

import { NodeOperationError, type INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { SessionStatus } from '../../../sandbox';

import {
	getManyParams,
	seedSessions,
	useAirSign,
	expectError,
	WHOLE_ANSWER,
	SESSION_FIELDS,
} from './helpers';

const ctx = useAirSign();
const listed = () => ctx.apiRequests().filter((r) => r.path === '/api/v1/Sessions');

describe('Get Many: paging', () => {
	for (const count of [0, 1, 99, 100, 101, 250]) {
		// docs/operations.md#session--get-many: pages by creation time from the last instant read,
		// then, over one page, a catch-up on what changed meanwhile.
		const pages = count <= 100 ? 1 : 1 + Math.ceil((count - 100) / 99);
		const catchUp = pages > 1 ? 1 : 0;
		it(`Return All over ${count} sessions: ${pages + catchUp} request(s) of limit=100`, async () => {
			const seeded = seedSessions(ctx.sandbox, count);
			const result = await ctx.ok(getManyParams({ returnAll: true }));
			expect(result.items).toHaveLength(count);
			expect(new Set(result.items.map((i) => i.json.sessionId))).toEqual(
				new Set(seeded.map((s) => s.sessionId)),
			);
			expect(
				result.items.every((i) => JSON.stringify(i.pairedItem) === JSON.stringify({ item: 0 })),
			).toBe(true);
			const from = (k: number) => new Date(Date.parse(seeded[99 * k].createdAt) - 1).toISOString();
			expect(
				listed().map((r) => [r.query.limit, r.query.offset, r.query.createdAfter, r.status]),
			).toEqual([
				...Array.from({ length: pages }, (_, k) => ['100', '0', k ? from(k) : undefined, 200]),
				...Array.from({ length: catchUp }, () => ['100', '0', undefined, 200]),
			]);
			expect(listed().map((r) => r.query.updatedAfter !== undefined)).toEqual([
				...Array.from({ length: pages }, () => false),
				...Array.from({ length: catchUp }, () => true),
			]);
		});
	}

	const [first, rest] = [
		['100', '0'],
		['50', '100'],
	];
	it.each([
		['Limit 5: one request with limit=5', 20, 5, 5, [['5', '0']]],
		[
			'Limit 150 over 250 sessions: limit=100 then limit=50 at offset 100',
			250,
			150,
			150,
			[first, rest],
		],
		['Limit 150 over 120 sessions: stops when hasMore is false', 120, 150, 120, [first, rest]],
	])('%s', async (_, count, limit, items, requests) => {
		seedSessions(ctx.sandbox, count);
		const result = await ctx.run(getManyParams({ returnAll: false, limit }));
		expect(new Set(result.items.map((i) => i.json.sessionId)).size).toBe(items);
		expect(result.items).toHaveLength(items);
		expect(listed().map((r) => [r.query.limit, r.query.offset])).toEqual(requests);
	});

	it('default parameters: Limit 50, sorted by updatedAt desc (the service default), items as List Sessions lists them', async () => {
		seedSessions(ctx.sandbox, 60);
		const result = await ctx.run(getManyParams(WHOLE_ANSWER));
		expect(result.items).toHaveLength(50);
		expect(listed().map((r) => r.query)).toEqual([{ limit: '50', offset: '0' }]);
		// List Sessions lists a session without its type and files.
		expect(Object.keys(result.items[0].json).sort()).toEqual(
			SESSION_FIELDS.filter((key) => key !== 'sessionType' && key !== 'files').sort(),
		);
		expect(result.items[0].json.name).toBe('Session 059');
	});

	it('a session that moves while Return All pages is not returned twice', async () => {
		const seeded = seedSessions(ctx.sandbox, 150);
		let touched = false;
		ctx.sandbox.onRequest(({ query }) => {
			// Before page 2: the oldest session becomes the newest, shifting every row down one.
			if (query.offset === '100' && !touched) {
				touched = true;
				ctx.sandbox.updateSession(seeded[0].sessionId, { updatedAt: '2030-01-01T00:00:00Z' });
			}
		});
		const result = await ctx.run(getManyParams({ returnAll: true }));
		const ids = result.items.map((i) => i.json.sessionId);
		expect(new Set(ids).size).toBe(ids.length);
	});

	it('the organisation sees only its own sessions', async () => {
		seedSessions(ctx.sandbox, 3);
		ctx.sandbox.createSession({ orgId: ctx.sandbox.other.orgId, name: 'Theirs' });
		const result = await ctx.run(getManyParams({ returnAll: true }));
		expect(result.items.map((i) => i.json.name)).not.toContain('Theirs');
		expect(result.items).toHaveLength(3);
	});
});

describe('Get Many: filters', () => {
	it.each([
		['(several) goes out as one comma-separated value', ['draft', 'completed'], 'draft,completed'],
		[
			'from an expression giving a comma-separated string (spaces trimmed)',
			'={{ $json.states }}',
			'inProgress,expired',
		],
	])('Status %s', async (_label, status, sent) => {
		for (const state of ['draft', 'completed', 'pending', 'inProgress', 'expired', 'cancelled'])
			ctx.sandbox.createSession({ status: state as SessionStatus });
		const result = await ctx.ok(getManyParams({ returnAll: true, filters: { status } }), {
			input: [{ json: { states: 'inProgress, expired' } }],
		});
		expect(listed()[0].query.status).toBe(sent);
		expect(result.items.map((i) => i.json.status).sort()).toEqual(sent.split(',').sort());
	});

	it('Name Contains and Recipient Email', async () => {
		const [a, b] = ['a@x.com', 'b@x.com'].map((email) => [{ name: 'Signer', email }]);
		ctx.sandbox.createSession({ name: 'Employment contract', recipients: a });
		ctx.sandbox.createSession({ name: 'Lease CONTRACT', recipients: b });
		ctx.sandbox.createSession({ name: 'NDA', recipients: a });
		const byEmail = { recipientEmail: 'a@x.com' };
		for (const [filters, names, sent] of [
			[{ name: ' contract ' }, ['Employment contract', 'Lease CONTRACT'], { name: 'contract' }],
			[byEmail, ['Employment contract', 'NDA'], byEmail],
		]) {
			ctx.sandbox.clearRequests();
			const result = await ctx.run(getManyParams({ returnAll: true, filters }));
			expect(result.items.map((i) => i.json.name).sort()).toEqual(names);
			expect(listed()[0].query).toMatchObject(sent);
		}
	});

	it('created/updated After and Before, ISO strings, sent as UTC ISO', async () => {
		const s = seedSessions(ctx.sandbox, 10); // created = updated = 2025-01-01T00:00:00Z + i s
		const result = await ctx.ok(
			getManyParams({
				returnAll: true,
				filters: {
					createdAfter: '2025-01-01T00:00:01Z',
					createdBefore: '2025-01-01T11:00:08+11:00',
					updatedAfter: '2025-01-01T00:00:02.000Z',
					updatedBefore: '2025-01-01T00:00:07Z',
				},
			}),
		);
		expect(listed()[0].query).toMatchObject({
			createdAfter: '2025-01-01T00:00:01.000Z',
			createdBefore: '2025-01-01T00:00:08.000Z',
			updatedAfter: '2025-01-01T00:00:02.000Z',
			updatedBefore: '2025-01-01T00:00:07.000Z',
		});
		expect(result.items.map((i) => i.json.sessionId).sort()).toEqual(
			[s[3], s[4], s[5], s[6]].map((x) => x.sessionId).sort(),
		);
	});

	it('a Luxon DateTime from an expression ($now.minus({ hours: 1 }))', async () => {
		const before = Date.now();
		await ctx.ok(getManyParams({ filters: { updatedAfter: '={{ $now.minus({ hours: 1 }) }}' } }));
		const after = Date.now();
		const sent = listed()[0].query.updatedAfter;
		expect(sent).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
		expect(Date.parse(sent)).toBeGreaterThanOrEqual(before - 3_600_000 - 1000);
		expect(Date.parse(sent)).toBeLessThanOrEqual(after - 3_600_000 + 1000);
	});

	// The second June date has an explicit offset, so the timezone does not apply to it.
	it.each([
		[
			'June: AEST, UTC+10',
			{ createdAfter: '2025-06-16T10:00:00', createdBefore: '2025-07-16T10:00:00+00:00' },
			{ createdAfter: '2025-06-16T00:00:00.000Z', createdBefore: '2025-07-16T10:00:00.000Z' },
		],
		[
			'January: summer time, UTC+11',
			{ updatedAfter: '2025-01-16T10:00:00' },
			{ updatedAfter: '2025-01-15T23:00:00.000Z' },
		],
	])(
		'a date without an offset is read in the workflow timezone (Sydney, %s)',
		async (_, filters, query) => {
			await ctx.ok(getManyParams({ filters }), { timezone: 'Australia/Sydney' });
			expect(listed()[0].query).toMatchObject(query);
		},
	);

	describe('bad input fails before any request, naming the parameter and the item', () => {
		const cases: Record<string, [INodeParameters, RegExp]> = {
			'an unknown status': [
				{ filters: { status: '={{ "draft,signed" }}' } },
				/'Status' has an unknown value: signed/,
			],
			'a wrongly-cased status': [
				{ filters: { status: '={{ "Draft" }}' } },
				/'Status' has an unknown value: Draft/,
			],
			'a bad date': [
				{ filters: { createdAfter: 'yesterday-ish' } },
				/'Created After' is not a valid date: "yesterday-ish"/,
			],
			'a bad date from an expression': [
				{ filters: { updatedBefore: '={{ "2025-13-45" }}' } },
				/'Updated Before' is not a valid date/,
			],
			'created after >= before': [
				{
					filters: { createdAfter: '2025-01-02T00:00:00Z', createdBefore: '2025-01-01T00:00:00Z' },
				},
				/'Created After' .* is not earlier than 'Created Before'/,
			],
			'updated after == before': [
				{
					filters: { updatedAfter: '2025-01-02T00:00:00Z', updatedBefore: '2025-01-02T00:00:00Z' },
				},
				/'Updated After' .* is not earlier than 'Updated Before'/,
			],
			'limit 0': [{ limit: 0 }, /'Limit' must be a whole number of at least 1, not 0/],
			'limit 2.5': [
				{ limit: '={{ 2.5 }}' },
				/'Limit' must be a whole number of at least 1, not 2.5/,
			],
			'a recipient email that is not one': [
				{ filters: { recipientEmail: 'bob' } },
				/'Recipient Email' is not an email address: bob/,
			],
		};
		it.each(Object.entries(cases))('%s', async (_label, [params, message]) => {
			await ctx.refused(getManyParams(params), message);
		});

		it('on the third of three items: earlier items ran, the error names item 2', async () => {
			const after = ['2025-01-01T00:00:00Z', '2025-01-02T00:00:00Z', 'soon'];
			const result = await ctx.run(
				getManyParams({ filters: { createdAfter: '={{ $json.after }}' } }),
				{ input: after.map((a) => ({ json: { after: a } })) },
			);
			const message = /'Created After' is not a valid date: "soon"/;
			expectError(result, message, { type: NodeOperationError, itemIndex: 2 });
			expect(listed()).toHaveLength(2);
		});
	});
});
