import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { limits, useApi } from './helpers';

const { sandbox, call, list, send, control } = useApi();
/** The statuses of `n` List Sessions requests in a row. */
const statusesOf = async (n: number) => {
	const seen: number[] = [];
	for (let i = 0; i < n; i++) seen.push((await list()).status);
	return seen;
};

describe('faults (README, Faults)', () => {
	it('status: answers the status (default 500) with { code: INTERNAL } once, then disappears', async () => {
		sandbox().injectFault({ kind: 'status' });
		const res = await list();
		expect([res.status, res.body.code]).toEqual([500, 'INTERNAL']);
		expect((await list()).status).toBe(200);
	});

	it('status: a chosen status, count times', async () => {
		sandbox().injectFault({ kind: 'status', status: 503, count: 2 });
		expect(await statusesOf(3)).toEqual([503, 503, 200]);
	});

	it('status: a chosen code and message, or no code at all (code: null)', async () => {
		sandbox().injectFault({ kind: 'status', status: 400, code: 'SOMETHING_NEW', message: 'new' });
		const coded = await list();
		expect([coded.status, coded.body]).toEqual([400, { code: 'SOMETHING_NEW', message: 'new' }]);
		sandbox().injectFault({ kind: 'status', status: 404, code: null, message: 'Not found' });
		const bare = await list();
		expect([bare.status, bare.body]).toEqual([404, { message: 'Not found' }]);
	});

	it('skip: lets the first matching requests through', async () => {
		sandbox().injectFault({ kind: 'status', status: 502, skip: 2 });
		expect(await statusesOf(4)).toEqual([200, 200, 502, 200]);
	});

	it('method and path: only matching requests are affected (path is a prefix)', async () => {
		sandbox().injectFault({ kind: 'status', method: 'POST', path: '/api/v1/Session/' });
		expect((await list()).status).toBe(200);
		const draft = sandbox().createSession();
		expect((await send(draft.sessionId)).status).toBe(500);
		expect(sandbox().getSession(draft.sessionId)!.status).toBe('draft');
	});

	it('latency: waits delayMs, then answers normally', async () => {
		// Seen through the sandbox's timer, not a wall clock: the answer comes after a delayMs timer fired.
		sandbox().injectFault({ kind: 'latency', delayMs: 150 });
		const seen: string[] = [];
		const { setTimeout } = globalThis;
		type Callback = (...args: unknown[]) => void;
		const timers = vi
			.spyOn(globalThis, 'setTimeout')
			.mockImplementation(((run: Callback, ms?: number, ...args: unknown[]) =>
				setTimeout(() => (seen.push(`timer ${ms}`), run(...args)), ms)) as typeof setTimeout);
		onTestFinished(() => timers.mockRestore());
		expect((await list()).status).toBe(200);
		seen.push('answered');
		const delay = seen.filter((event) => event === 'timer 150' || event === 'answered');
		expect(delay).toEqual(['timer 150', 'answered']);
	});

	it('drop: the connection is destroyed without an answer', async () => {
		sandbox().injectFault({ kind: 'drop' });
		await expect(list()).rejects.toThrow();
		expect((await list()).status).toBe(200);
	});

	it('malformed: 200 with a body that is not JSON', async () => {
		sandbox().injectFault({ kind: 'malformed' });
		const res = await list();
		expect(res.status).toBe(200);
		expect(() => JSON.parse(res.body)).toThrow();
	});

	it('rateLimit: 429 with Retry-After (default 1) and the rate-limit headers, without using the real budget', async () => {
		sandbox().injectFault({ kind: 'rateLimit', retryAfter: 7 });
		const res = await list();
		expect(res.status).toBe(429);
		expect(limits(res)).toEqual({
			retryAfter: '7',
			limit: '60',
			remaining: '0',
			reset: expect.stringMatching(/^\d+$/),
		});
		expect(limits(await list()).remaining).toBe('59');
		sandbox().injectFault({ kind: 'rateLimit' });
		expect(limits(await list()).retryAfter).toBe('1');
	});

	it('faults apply to /oidc too', async () => {
		sandbox().injectFault({ kind: 'status', status: 503, path: '/oidc' });
		const res = await call('POST', '/oidc/token', {
			token: null,
			body: 'grant_type=client_credentials',
		});
		expect(res.status).toBe(503);
	});

	it('faults never apply to the control plane', async () => {
		sandbox().injectFault({ kind: 'status' });
		expect((await control('GET', '/state')).status).toBe(200);
		expect((await list()).status).toBe(500);
	});

	it('clearFaults() removes pending faults', async () => {
		sandbox().injectFault({ kind: 'status', count: 5 });
		sandbox().clearFaults();
		expect((await list()).status).toBe(200);
	});

	it('an unknown fault kind is refused', () => {
		expect(() => sandbox().injectFault({ kind: 'explode' as never })).toThrow();
	});
});

describe('onRequest hooks', () => {
	it('run and are awaited before each API request is handled, so tests can change sessions between pages', async () => {
		const a = sandbox().createSession({ name: 'a', updatedAt: '2025-01-01T00:00:00.000Z' });
		sandbox().createSession({ name: 'b', updatedAt: '2025-01-02T00:00:00.000Z' });
		const seen: string[] = [];
		const off = sandbox().onRequest(async ({ method, path, query }) => {
			seen.push(`${method} ${path} ${query.offset ?? ''}`);
			await new Promise((resolve) => setTimeout(resolve, 10));
			if (query.offset === '1') sandbox().updateSession(a.sessionId, { touch: true });
		});
		const page1 = await list('limit=1&offset=0');
		const page2 = await list('limit=1&offset=1');
		off();
		await list();
		expect(seen).toEqual(['GET /api/v1/Sessions 0', 'GET /api/v1/Sessions 1']);
		expect(page1.body.sessions[0].name).toBe('b');
		// a was touched before page 2 was computed, so it moved to the top and page 2 shows b again.
		expect(page2.body.sessions[0].name).toBe('b');
	});

	it('do not run for control-plane requests', async () => {
		let calls = 0;
		sandbox().onRequest(() => {
			calls += 1;
		});
		await control('GET', '/state');
		expect(calls).toBe(0);
	});
});

describe('request log', () => {
	it('records every API request with method, path, query, status, orgId and time; not the control plane', async () => {
		sandbox().clock.freeze();
		sandbox().clock.set('2025-06-16T14:22:00.000Z');
		await list('limit=5');
		await list('', null);
		await control('GET', '/state');
		const entry = {
			method: 'GET',
			path: '/api/v1/Sessions',
			at: '2025-06-16T14:22:00.000Z',
			atMs: Date.parse('2025-06-16T14:22:00.000Z'),
		};
		expect(sandbox().requests).toEqual([
			{ ...entry, query: { limit: '5' }, status: 200, orgId: sandbox().demo.orgId },
			{ ...entry, query: {}, status: 401 },
		]);
		sandbox().clearRequests();
		expect(sandbox().requests).toHaveLength(0);
	});

	it('records fault answers with the fault kind (a drop as status 0)', async () => {
		sandbox().injectFault({ kind: 'status', status: 502 });
		sandbox().injectFault({ kind: 'drop', skip: 1 });
		await list();
		await list();
		await list().catch(() => undefined);
		expect(sandbox().requests.map((r) => [r.status, r.fault])).toEqual([
			[502, 'status'],
			[200, undefined],
			[0, 'drop'],
		]);
	});
});

describe('fuzzing faults (README, Faults: answer and mangle)', () => {
	it('answer: any status, body text, headers and Date, instead of handling the request', async () => {
		const draft = sandbox().createSession();
		sandbox().injectFault({
			kind: 'answer',
			path: '/api/v1/Session/',
			answer: {
				status: 502,
				body: '<html>Bad Gateway</html>',
				headers: { 'content-type': 'text/html', 'Retry-After': '-5' },
				date: null,
			},
		});
		const res = await send(draft.sessionId);
		expect([res.status, res.body]).toEqual([502, '<html>Bad Gateway</html>']);
		expect(res.headers.get('content-type')).toBe('text/html');
		expect(res.headers.get('retry-after')).toBe('-5');
		expect(res.headers.get('date')).toBeNull();
		expect(sandbox().getSession(draft.sessionId)!.status).toBe('draft');
		expect(sandbox().requests.at(-1)).toMatchObject({ status: 502, fault: 'answer' });
	});

	it('mangle: handles the request, then edits, truncates and re-heads its real answer', async () => {
		const draft = sandbox().createSession({ recipients: [{ name: 'A', email: 'a@example.com' }] });
		sandbox().injectFault({
			kind: 'mangle',
			answer: {
				edits: [
					{ path: ['status'], value: 42 },
					{ path: ['sessionId'], delete: true },
					{ path: ['extra'], value: { nested: true } },
				],
				date: 'Mon, 01 Jan 1990 00:00:00 GMT',
			},
		});
		const res = await send(draft.sessionId);
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({ status: 42, extra: { nested: true } });
		expect(res.body).not.toHaveProperty('sessionId');
		expect(res.headers.get('date')).toBe('Mon, 01 Jan 1990 00:00:00 GMT');
		expect(sandbox().getSession(draft.sessionId)!.status).toBe('pending');

		sandbox().injectFault({ kind: 'mangle', answer: { truncateAt: 10 } });
		const cut = await list();
		expect(typeof cut.body).toBe('string');
		expect((cut.body as string).length).toBe(10);
		expect(sandbox().requests.at(-1)).toMatchObject({ status: 200, fault: 'mangle' });
	});
});
