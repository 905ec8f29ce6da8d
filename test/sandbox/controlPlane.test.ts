import { describe, expect, it, onTestFinished } from 'vitest';
import { startSandbox } from '../../sandbox';
import { describeDemo, resolvePort, startDemoSandbox } from '../../sandbox/cli';
import { call, list as listOn, pdfBase64, UNKNOWN_ID, useApi } from './helpers';

const { sandbox, list, send, upload, control } = useApi();
const statuses = (recipients: Array<{ status: string }>) => recipients.map((r) => r.status);
/** The sandbox clock frozen at `iso`. */
const freezeAt = (iso: string) => {
	sandbox().clock.freeze();
	sandbox().clock.set(iso);
};

describe('clock', () => {
	it('set, advance, freeze and unfreeze drive every timestamp the sandbox writes', async () => {
		const clock = sandbox().clock;
		// Frozen first: set on a running clock, then frozen, would let real milliseconds pass.
		freezeAt('2025-06-16T14:22:00.000Z');
		expect(clock.now()).toBe(Date.parse('2025-06-16T14:22:00.000Z'));
		expect(sandbox().createSession().createdAt).toBe('2025-06-16T14:22:00.000Z');
		clock.advance(1500);
		expect(sandbox().createSession().createdAt).toBe('2025-06-16T14:22:01.500Z');
		const unfrozenAt = Date.now();
		clock.unfreeze();
		await new Promise((resolve) => setTimeout(resolve, 20));
		// Running again from where it stood, at real speed: ahead by no more than real time
		// (however slow the machine), and ahead.
		const now = clock.now();
		const elapsed = Date.now() - unfrozenAt;
		expect(now).toBeGreaterThan(Date.parse('2025-06-16T14:22:01.500Z'));
		expect(now - Date.parse('2025-06-16T14:22:01.500Z')).toBeLessThanOrEqual(elapsed);
	});

	it('the `now` option starts the clock frozen at that instant', async () => {
		const s = await startSandbox({ now: '2030-01-01T00:00:00.000Z' });
		onTestFinished(() => s.close());
		expect(s.clock.frozen).toBe(true);
		expect(new Date(s.clock.now()).toISOString()).toBe('2030-01-01T00:00:00.000Z');
	});

	it('POST /_sandbox/clock { set, advanceMs, frozen }', async () => {
		const res = await control('POST', '/clock', {
			set: '2025-01-01T00:00:00.000Z',
			frozen: true,
			advanceMs: 60_000,
		});
		expect(res.body).toEqual({ now: '2025-01-01T00:01:00.000Z', frozen: true });
		expect(sandbox().clock.now()).toBe(Date.parse('2025-01-01T00:01:00.000Z'));
	});
});

describe('timestamp precision switch', () => {
	it("'ms' (default): ISO with milliseconds and Z", async () => {
		freezeAt('2025-06-16T14:22:00.123Z');
		sandbox().createSession();
		expect((await list()).body.sessions[0].createdAt).toBe('2025-06-16T14:22:00.123Z');
	});

	it("'s': whole seconds, and stored values are truncated so equal timestamps really occur", async () => {
		sandbox().config.timestampPrecision = 's';
		freezeAt('2025-06-16T14:22:00.123Z');
		const first = sandbox().createSession({ name: 'first' });
		sandbox().clock.advance(600);
		const second = sandbox().createSession({ name: 'second' });
		expect([first.createdAt, second.createdAt]).toEqual(Array(2).fill('2025-06-16T14:22:00Z'));
		const res = await list('updatedAfter=2025-06-16T14:21:59.999Z');
		expect(res.body.sessions.map((s: { updatedAt: string }) => s.updatedAt)).toEqual(
			Array(2).fill('2025-06-16T14:22:00Z'),
		);
		// Truncated, so strictly-after the printed second excludes both.
		expect((await list('updatedAfter=2025-06-16T14:22:00Z')).body.sessions).toEqual([]);
		const sent = await send(sandbox().createSession({ name: 'to send' }).sessionId);
		expect(sent.body.sentAt).toBe('2025-06-16T14:22:00Z');
	});
});

describe('control plane (/_sandbox)', () => {
	it('GET /_sandbox/state: baseUrl, demo, other, config, now', async () => {
		const res = await control('GET', '/state');
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({
			baseUrl: sandbox().baseUrl,
			demo: sandbox().demo,
			other: sandbox().other,
			config: {
				tokenTtlSeconds: 3600,
				timestampPrecision: 'ms',
				updatedAfterInclusive: false,
				tieOrder: 'id',
				rateLimitPerHour: 60,
				maxFileBytes: 7340032,
			},
			now: expect.stringMatching(/Z$/),
		});
	});

	it('POST /_sandbox/sessions: default demo org, draft, one complete recipient; 201 with the full session', async () => {
		const res = await control('POST', '/sessions', {});
		expect(res.status).toBe(201);
		expect(res.body).toMatchObject({
			orgId: sandbox().demo.orgId,
			status: 'draft',
			sentAt: null,
			expiryDays: null,
			files: [],
		});
		expect(res.body.recipients).toEqual([
			expect.objectContaining({ name: expect.any(String), email: expect.stringContaining('@') }),
		]);
		expect((await send(res.body.sessionId)).status).toBe(200);
	});

	it('POST /_sandbox/sessions with fields, GET and PATCH /_sandbox/sessions/{id}', async () => {
		freezeAt('2025-06-16T00:00:00.000Z');
		const fields = {
			orgId: sandbox().other.orgId,
			name: 'X',
			status: 'pending',
			selfSignOnly: true,
			expiryDays: 3,
			createdAt: '2025-06-01T00:00:00.000Z',
		};
		const created = await control('POST', '/sessions', { ...fields, recipients: [{ name: 'A' }] });
		expect(created.body).toMatchObject(fields);
		const id = created.body.sessionId;
		expect((await control('GET', `/sessions/${id}`)).body.name).toBe('X');
		expect((await control('PATCH', `/sessions/${id}`, { status: 'completed' })).body).toMatchObject(
			{
				status: 'completed',
				updatedAt: '2025-06-16T00:00:00.000Z',
				completedDate: '2025-06-16T00:00:00.000Z',
			},
		);
		sandbox().clock.advance(1000);
		expect((await control('PATCH', `/sessions/${id}`, { touch: true })).body.updatedAt).toBe(
			'2025-06-16T00:00:01.000Z',
		);
		expect((await control('GET', `/sessions/${UNKNOWN_ID}`)).status).toBe(404);
	});

	it('PATCH moves a session through every state and POST …/recipient-status sets any recipient status, each moving updatedAt', async () => {
		freezeAt('2025-06-16T00:00:00.000Z');
		const created = await control('POST', '/sessions', {
			recipients: [
				{ name: 'A', email: 'a@example.com' },
				{ name: 'B', email: 'b@example.com' },
			],
		});
		const id = created.body.sessionId;
		expect(statuses(created.body.recipients)).toEqual(['notSent', 'notSent']);
		sandbox().clock.advance(1000);
		const sent = await control('PATCH', `/sessions/${id}`, { status: 'pending' });
		expect(sent.body).toMatchObject({
			status: 'pending',
			updatedAt: '2025-06-16T00:00:01.000Z',
			sentAt: '2025-06-16T00:00:01.000Z',
		});
		expect(statuses(sent.body.recipients)).toEqual(['sent', 'sent']);
		sandbox().clock.advance(1000);
		const viewed = await control('POST', `/sessions/${id}/recipient-status`, {
			email: 'b@example.com',
			status: 'viewed',
		});
		expect(viewed.body).toMatchObject({ status: 'pending', updatedAt: '2025-06-16T00:00:02.000Z' });
		expect(statuses(viewed.body.recipients)).toEqual(['sent', 'viewed']);
		for (const [i, status] of ['inProgress', 'cancelled', 'expired', 'draft'].entries()) {
			sandbox().clock.advance(1000);
			const moved = await control('PATCH', `/sessions/${id}`, { status });
			expect(moved.body.status).toBe(status);
			expect(moved.body.updatedAt).toBe(`2025-06-16T00:00:0${3 + i}.000Z`);
		}
		expect((await control('GET', `/sessions/${id}`)).body.expiryDate).toBe(
			'2025-06-16T00:00:05.000Z',
		);
		const setStatus = (sessionId: string, body: unknown) =>
			control('POST', `/sessions/${sessionId}/recipient-status`, body);
		expect((await setStatus(id, { status: '' })).status).toBe(400);
		expect((await setStatus(UNKNOWN_ID, { status: 'x' })).status).toBe(404);
	});

	it.each([
		['outbox', () => send(sandbox().createSession().sessionId), () => sandbox().outbox],
		['requests', () => list(), () => sandbox().requests],
	] as const)('GET / DELETE /_sandbox/%s', async (path, add, held) => {
		await add();
		expect((await control('GET', `/${path}`)).body).toHaveLength(1);
		await control('DELETE', `/${path}`);
		expect(held()).toHaveLength(0);
	});

	it('GET /_sandbox/files/{fileId}: fileName, sizeBytes and the data as base64', async () => {
		const data = pdfBase64(40);
		const up = await upload({ fileName: 'f', data });
		expect((await control('GET', `/files/${up.body.fileId}`)).body).toMatchObject({
			fileName: 'f.pdf',
			sizeBytes: 40,
			data,
		});
	});

	it('POST /_sandbox/tokens { orgId, scopes, ttlSeconds }', async () => {
		const { orgId } = sandbox().other;
		const { body } = await control('POST', '/tokens', {
			orgId,
			scopes: ['write:files'],
			ttlSeconds: 60,
		});
		const draft = sandbox().createSession({ orgId });
		expect((await send(draft.sessionId, body.access_token)).status).toBe(403);
		sandbox().clock.advance(60_000);
		expect((await list('', body.access_token)).status).toBe(401);
	});

	it('POST /_sandbox/rate-limit/reset', async () => {
		sandbox().config.rateLimitPerHour = 1;
		await list();
		await control('POST', '/rate-limit/reset', {});
		expect((await list()).status).toBe(200);
	});

	it('POST / DELETE /_sandbox/faults', async () => {
		expect((await control('POST', '/faults', { kind: 'status', status: 418 })).status).toBe(201);
		expect((await list()).status).toBe(418);
		await control('POST', '/faults', { kind: 'status', count: 3 });
		await control('DELETE', '/faults');
		expect((await list()).status).toBe(200);
	});

	it('PATCH /_sandbox/config changes the live options; invalid values → 400', async () => {
		const live = { updatedAfterInclusive: true, tieOrder: 'random' };
		expect((await control('PATCH', '/config', live)).body.config).toMatchObject(live);
		expect(sandbox().config.updatedAfterInclusive).toBe(true);
		expect((await control('PATCH', '/config', { timestampPrecision: 'us' })).status).toBe(400);
	});

	it('POST /_sandbox/reset: back to the state right after start', async () => {
		sandbox().createSession();
		sandbox().config.rateLimitPerHour = 5;
		sandbox().injectFault({ kind: 'status' });
		await control('POST', '/reset');
		expect(sandbox().config.rateLimitPerHour).toBe(60);
		expect(sandbox().listAllSessions()).toEqual([]);
		expect((await list()).status).toBe(200);
	});

	it('is never under /api/v1 and needs no token', async () => {
		expect((await call(sandbox(), 'GET', '/api/v1/_sandbox/state')).status).toBe(404);
		expect((await control('GET', '/nope')).status).toBe(404);
	});
});

describe('CLI (npm run sandbox)', () => {
	it('port from --port N, --port=N, AIRSIGN_SANDBOX_PORT, default 8787', () => {
		expect(resolvePort(['--port', '9000'], {})).toBe(9000);
		expect(resolvePort(['--port=9001'], {})).toBe(9001);
		expect(resolvePort([], { AIRSIGN_SANDBOX_PORT: '9002' })).toBe(9002);
		expect(resolvePort([], {})).toBe(8787);
		expect(() => resolvePort(['--port', 'x'], {})).toThrow();
	});

	it('startDemoSandbox seeds a dozen demo sessions in every state, a few active templates and a draft, and prints the credentials', async () => {
		const demo = await startDemoSandbox({ port: 0 });
		onTestFinished(() => demo.close());
		const res = await listOn(demo, 'limit=100');
		expect(res.body.pagination.total).toBe(12);
		expect(new Set(statuses(res.body.sessions))).toEqual(
			new Set(['draft', 'pending', 'inProgress', 'completed', 'cancelled', 'expired']),
		);
		const templates = (query = '') => call(demo, 'GET', `/api/v1/Templates${query}`);
		const active = (await templates()).body.templates.map((t: { name: string }) => t.name);
		expect(active).toEqual(['Contractor agreement', 'Employment contract', 'Mutual NDA']);
		expect((await templates('?status=draft')).body.templates).toHaveLength(1);
		const text = describeDemo(demo);
		const { baseUrl, demo: org } = demo;
		for (const part of [baseUrl, org.accessToken, org.clientId, org.clientSecret, 'curl'])
			expect(text).toContain(part);
	});
});
