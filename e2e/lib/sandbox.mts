// The AirSign sandbox as a child process (`tsx sandbox/cli.ts --port N`, demo data seeded) and a
// small client for its control plane (/_sandbox, see sandbox/README.md).
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { describeState } from '../../sandbox/controlPlane.ts';
import type { SignInput } from '../../sandbox/publicTypes.ts';
import type {
	CreateSessionInput,
	Fault,
	OutboxEmail,
	RequestLogEntry,
	SandboxConfig,
	Session,
	SessionSettings,
	UpdateSessionPatch,
} from '../../sandbox/types.ts';
import { REPO_ROOT } from '../n8n-installation.mts';
import { fetchFresh, startServer } from './proc.mts';

const TSX = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');

/** A session as the public API's List Sessions shows it. */
type SessionListItem = Omit<
	Session,
	keyof SessionSettings | 'orgId' | 'sentAt' | 'expiryDays' | 'files'
>;

/** `tsx sandbox/cli.ts --port <port>`, ready once GET /_sandbox/state answers, and its client. */
export async function startSandboxProcess({
	port,
	timeoutMs = 120_000,
}: {
	port: number;
	timeoutMs?: number;
}) {
	if (!existsSync(TSX)) throw new Error(`${TSX} missing: run npm install in the repository first`);
	const url = `http://127.0.0.1:${port}`;
	const probe = async () =>
		(await fetchFresh(`${url}/_sandbox/state`, { signal: AbortSignal.timeout(1_000) })).ok;
	const server = await startServer(
		`sandbox on ${url}`,
		TSX,
		['sandbox/cli.ts', '--port', `${port}`],
		{
			cwd: REPO_ROOT,
			env: { ...process.env, AIRSIGN_SANDBOX_PORT: String(port) },
			probe,
			timeoutMs,
			everyMs: 150,
		},
	);
	const { startMs, output } = server;
	const stop = (graceMs = 5_000) => server.stop(graceMs);
	return { url, port, process: server.process, startMs, output, stop, ...sandboxClient(url) };
}

/** Control-plane calls; each throws on a non-2xx answer. */
export function sandboxClient(url: string) {
	const call = async <T,>(method: string, p: string, body?: unknown): Promise<T> => {
		const res = await fetchFresh(`${url}/_sandbox${p}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(60_000),
		});
		const text = await res.text();
		if (!res.ok) throw new Error(`${method} /_sandbox${p}: ${res.status} ${text.slice(0, 300)}`);
		return text ? JSON.parse(text) : (undefined as T);
	};
	/** A valid access token of the demo organisation: `{ access_token }`. */
	const token = () => call<{ access_token: string }>('POST', '/tokens', {});
	/** The demo organisation's sessions via the real API (counts against the hourly budget). */
	const listSessions = async (query: Record<string, string> = {}): Promise<SessionListItem[]> => {
		const { access_token } = await token();
		const qs = new URLSearchParams({ limit: '100', ...query });
		const res = await fetchFresh(`${url}/api/v1/Sessions?${qs}`, {
			headers: { authorization: `Bearer ${access_token}` },
			signal: AbortSignal.timeout(60_000),
		});
		if (!res.ok) throw new Error(`GET /api/v1/Sessions?${qs}: ${res.status} ${await res.text()}`);
		const list: { sessions: SessionListItem[] } = await res.json();
		return list.sessions;
	};
	return {
		state: () => call<ReturnType<typeof describeState>>('GET', '/state'),
		createSession: (input: CreateSessionInput) => call<Session>('POST', '/sessions', input),
		getSession: (id: string) => call<Session>('GET', `/sessions/${id}`),
		patchSession: (id: string, patch: UpdateSessionPatch) =>
			call<Session>('PATCH', `/sessions/${id}`, patch),
		/** One recipient signs (default: the next): inProgress, then completed. */
		signSession: (id: string, pick: SignInput = {}) =>
			call<Session>('POST', `/sessions/${id}/sign`, pick),
		outbox: () => call<OutboxEmail[]>('GET', '/outbox'),
		clearOutbox: () => call<{ ok: true }>('DELETE', '/outbox'),
		/** A stored upload, its bytes in base64. */
		file: (fileId: string) =>
			call<{ fileName: string; sizeBytes: number; orgId: string; data: string }>(
				'GET',
				`/files/${fileId}`,
			),
		requests: () => call<RequestLogEntry[]>('GET', '/requests'),
		clearRequests: () => call<{ ok: true }>('DELETE', '/requests'),
		/** Changes live options (tokenTtlSeconds, timestampPrecision, rateLimitPerHour, …). */
		configure: (patch: Partial<SandboxConfig>) =>
			call<{ config: SandboxConfig }>('PATCH', '/config', patch),
		injectFault: (fault: Fault) => call<{ faults: Fault[] }>('POST', '/faults', fault),
		clearFaults: () => call<{ ok: true }>('DELETE', '/faults'),
		/** The sandbox's clock (timestamps, token expiry, rate limit): set, move on, freeze. */
		clock: (body: { set?: string | number; advanceMs?: number; frozen?: boolean }) =>
			call<{ now: string; frozen: boolean }>('POST', '/clock', body),
		token,
		listSessions,
	};
}
