// @ts-nocheck (typed file by file: issue 34)
// The AirSign sandbox as a child process (`tsx sandbox/cli.ts --port N`, demo data seeded) and a
// small client for its control plane (/_sandbox, see sandbox/README.md).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../install-n8n.mts';
import { describeExit, fetchFresh, killTree, sleep, stopGracefully, tail } from './proc.mts';

const TSX = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');

/**
 * Starts `tsx sandbox/cli.ts --port <port>` in its own process group and waits until
 * GET /_sandbox/state answers. Returns { url, port, process, output(), stop(), ...controlPlane }.
 * A busy port makes the CLI exit 1 at once: that is reported with its output.
 */
export async function startSandboxProcess({ port, timeoutMs = 120_000, stdio = 'pipe' } = {}) {
	if (!existsSync(TSX)) throw new Error(`${TSX} missing: run npm install in the repository first`);
	const child = spawn(TSX, ['sandbox/cli.ts', '--port', String(port)], {
		cwd: REPO_ROOT,
		env: { ...process.env, AIRSIGN_SANDBOX_PORT: String(port) },
		stdio: stdio === 'inherit' ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	let out = '';
	child.stdout?.on('data', (c) => (out = (out + c).slice(-50_000)));
	child.stderr?.on('data', (c) => (out = (out + c).slice(-50_000)));
	let exited = null;
	const exitPromise = new Promise((resolve) =>
		child.on('exit', (code, signal) => resolve((exited = { code, signal }))),
	);
	const onExit = () => killTree(child, 'SIGKILL');
	process.on('exit', onExit);

	const url = `http://127.0.0.1:${port}`;
	const stop = async (graceMs = 5_000) => {
		process.off('exit', onExit);
		if (exited) return exited;
		return await stopGracefully(child, exitPromise, graceMs);
	};

	const t0 = Date.now();
	for (;;) {
		if (exited) throw new Error(`sandbox exited early (${describeExit(exited)})\n${tail(out)}`);
		if (Date.now() - t0 > timeoutMs) {
			await stop();
			throw new Error(`sandbox on ${url} did not answer within ${timeoutMs} ms\n${tail(out)}`);
		}
		try {
			const res = await fetchFresh(`${url}/_sandbox/state`, { signal: AbortSignal.timeout(1_000) });
			if (res.ok) break;
		} catch {
			/* not listening yet */
		}
		await sleep(150);
	}
	return {
		url,
		port,
		process: child,
		startMs: Date.now() - t0,
		output: () => out,
		stop,
		...sandboxClient(url),
	};
}

/** Control-plane calls against a sandbox at `url`. Each throws on a non-2xx answer. */
export function sandboxClient(url) {
	const call = async (method, p, body) => {
		const res = await fetchFresh(`${url}/_sandbox${p}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(60_000),
		});
		const text = await res.text();
		if (!res.ok) throw new Error(`${method} /_sandbox${p}: ${res.status} ${text.slice(0, 300)}`);
		return text ? JSON.parse(text) : undefined;
	};
	/** The demo organisation's sessions via the real API (a control-plane token; counts against the hourly budget). */
	const listSessions = async (query = {}) => {
		const { access_token } = await call('POST', '/tokens', {});
		const qs = new URLSearchParams({ limit: '100', ...query });
		const res = await fetchFresh(`${url}/api/v1/Sessions?${qs}`, {
			headers: { authorization: `Bearer ${access_token}` },
			signal: AbortSignal.timeout(60_000),
		});
		if (!res.ok) throw new Error(`GET /api/v1/Sessions?${qs}: ${res.status} ${await res.text()}`);
		return (await res.json()).sessions;
	};
	return {
		state: () => call('GET', '/state'),
		createSession: (input) => call('POST', '/sessions', input),
		getSession: (id) => call('GET', `/sessions/${id}`),
		patchSession: (id, patch) => call('PATCH', `/sessions/${id}`, patch),
		/** One recipient signs (`{ recipientId? , email? }`, default: the next): inProgress, then completed. */
		signSession: (id, pick = {}) => call('POST', `/sessions/${id}/sign`, pick),
		outbox: () => call('GET', '/outbox'),
		clearOutbox: () => call('DELETE', '/outbox'),
		file: (fileId) => call('GET', `/files/${fileId}`),
		requests: () => call('GET', '/requests'),
		clearRequests: () => call('DELETE', '/requests'),
		/** Changes live options (tokenTtlSeconds, timestampPrecision, rateLimitPerHour, …). */
		configure: (patch) => call('PATCH', '/config', patch),
		injectFault: (fault) => call('POST', '/faults', fault),
		clearFaults: () => call('DELETE', '/faults'),
		/** `{ set?, advanceMs?, frozen? }`: the sandbox's clock (timestamps, token expiry, rate limit). */
		clock: (body) => call('POST', '/clock', body),
		/** A valid access token of the demo organisation: `{ access_token, expires_in, token_type }`. */
		token: () => call('POST', '/tokens', {}),
		listSessions,
	};
}
