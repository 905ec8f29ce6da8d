/**
 * Generators of what AirSign, or a proxy in front of it, may answer: served by the sandbox's
 * fuzzing faults (`answer` replaces the answer, `mangle` edits the real one; sandbox/fuzzAnswers.ts).
 */
import fc from 'fast-check';

import type { Fault, FuzzedAnswer } from '../../sandbox';
import { clean, dateBetween } from './values';

/** Header text: printable ASCII (what an HTTP header can carry). */
const headerText = () => fc.string({ unit: 'grapheme-ascii', maxLength: 30 });

const httpDate = () => dateBetween('1970-01-01', '2200-01-01').map((d) => d.toUTCString());

const COMMON_STATUSES = [
	200, 201, 204, 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 502, 503, 504,
];
export const statuses = () =>
	fc.oneof(
		{ arbitrary: fc.constantFrom(...COMMON_STATUSES), weight: 6 },
		{ arbitrary: fc.integer({ min: 200, max: 599 }), weight: 3 },
		{ arbitrary: fc.integer({ min: 600, max: 999 }), weight: 1 },
	);

const retryAfter = () =>
	fc.oneof(
		fc.constantFrom('-5', '0', '1', '2', '1.5', '999999999', '1e309', 'soon', '', 'NaN'),
		fc.integer({ min: -100_000, max: 100_000_000 }).map(String),
		httpDate(),
	);
const rateLimitValue = () =>
	fc.oneof(
		fc.constantFrom('-1', '0', 'abc', '1e309', '99999999999999999999', '', '1.5', ' 7 '),
		fc.integer().map(String),
		httpDate(),
		headerText(),
	);

export const headers = (): fc.Arbitrary<Record<string, string>> =>
	fc
		.record(
			{
				'Content-Type': fc.constantFrom(
					'application/json',
					'application/json; charset=utf-8',
					'text/html; charset=utf-8',
					'text/plain',
					'application/xml',
					'application/problem+json',
					'application/octet-stream',
					'',
				),
				'Retry-After': retryAfter(),
				'X-RateLimit-Limit': rateLimitValue(),
				'X-RateLimit-Remaining': rateLimitValue(),
				'X-RateLimit-Reset': rateLimitValue(),
			},
			{ requiredKeys: [] },
		)
		.map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)));

export const dateHeader = () =>
	fc.option(
		fc.oneof(
			fc.constant(null),
			httpDate(),
			fc.constantFrom('yesterday', '0', 'Thu, 01 Jan 1970 00:00:00 GMT'),
		),
		{ nil: undefined },
	);

/** A JSON value of any shape (wrong types everywhere). */
const anyJson = () => fc.jsonValue({ maxDepth: 3 }).filter((v) => clean(JSON.stringify(v) ?? ''));

export const bodies = () =>
	fc.oneof(
		{
			arbitrary: fc.constantFrom(
				'',
				'null',
				'[]',
				'{}',
				'"text"',
				'42',
				'true',
				'{',
				'{"sessions": [',
				'<html><body><h1>502 Bad Gateway</h1></body></html>',
				'<!DOCTYPE html><title>Maintenance</title>',
			),
			weight: 6,
		},
		{ arbitrary: anyJson().map((v) => JSON.stringify(v)), weight: 4 },
		{
			arbitrary: fc
				.record({
					code: fc.oneof(
						fc.constantFrom('WHATEVER_NEW', 'INTERNAL', 'RATE_LIMITED', ''),
						headerText(),
					),
					message: fc.oneof(headerText(), fc.constant(42), fc.constant(null)),
				})
				.filter((b) => clean(JSON.stringify(b)))
				.map((b) => JSON.stringify(b)),
			weight: 4,
		},
		// Huge: 1 or 2 MB of JSON, 1 MB of HTML. (Larger ones, built in the test's own process, made
		// n8n 1.x's 250 ms time limit on the resource locator's regex run out during garbage collection.)
		{
			arbitrary: fc
				.integer({ min: 1, max: 2 })
				.map((mb) => JSON.stringify({ sessions: [], pad: 'x'.repeat(mb * 1024 * 1024) })),
			weight: 1,
		},
		{ arbitrary: fc.constant(`<html>${'<p>gateway</p>'.repeat(75_000)}</html>`), weight: 1 },
	);

/** A wrong value for a field: another type, or the right type gone wrong. */
const wrongValue = () =>
	fc.oneof(
		fc.constantFrom(
			null,
			42,
			-1,
			true,
			false,
			'',
			'not-a-date',
			'2025-13-45T99:99:99Z',
			[],
			{},
			['x'],
			{ nested: 1 },
			1e21,
		),
		anyJson(),
	);

const FIELDS = (
	'sessionId name status updatedAt createdAt completedDate recipients files templateId fileId ' +
	'fileName sizeBytes draftUrl variables sessions templates pagination hasMore nextCursor total code message'
).split(' ');

/** Edits of a real answer: a field of the body, of its first list entry, or of its pagination. */
const edits = () => {
	const under = (...prefix: Array<string | number>) =>
		fc.constantFrom(...FIELDS).map((f) => [...prefix, f]);
	const pagination = fc
		.constantFrom('hasMore', 'nextCursor', 'total')
		.map((f) => ['pagination', f]);
	const extra = fc.constantFrom('extraField', 'x-debug', '__proto__x').map((f) => [f]);
	return fc.array(
		fc.oneof(
			fc.record({ path: under(), value: wrongValue() }),
			fc.record({ path: under('sessions', 0), value: wrongValue() }),
			fc.record({ path: under('templates', 0), value: wrongValue() }),
			fc.record({ path: pagination, value: wrongValue() }),
			fc.record({ path: under(), delete: fc.constant(true) }),
			fc.record({ path: under('sessions', 0), delete: fc.constant(true) }),
			fc.record({ path: extra, value: anyJson() }),
		),
		{ minLength: 1, maxLength: 3 },
	) as fc.Arbitrary<NonNullable<FuzzedAnswer['edits']>>;
};

/** One fuzzed answer fault on `path`, acting `count` times. */
export const answerFault = (path: string): fc.Arbitrary<Fault> =>
	fc.oneof(
		fc
			.record({
				status: statuses(),
				body: bodies(),
				headers: headers(),
				date: dateHeader(),
				count: fc.integer({ min: 1, max: 4 }),
			})
			.map(
				({ count, date, ...answer }): Fault => ({
					kind: 'answer',
					path,
					count,
					answer: { ...answer, ...(date !== undefined && { date }) },
				}),
			),
		fc
			.record({
				edits: edits(),
				truncateAt: fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined }),
				status: fc.option(statuses(), { nil: undefined }),
				headers: headers(),
				date: dateHeader(),
			})
			.map(
				({ truncateAt, status, date, ...answer }): Fault => ({
					kind: 'mangle',
					path,
					answer: {
						...answer,
						...(truncateAt !== undefined && { truncateAt }),
						...(status !== undefined && { status }),
						...(date !== undefined && { date }),
					},
				}),
			),
	);
