// @ts-nocheck (typed file by file: issue 34)
// Child-process helpers: bounded in time, output captured, errors that show the output's tail.
import { spawn } from 'node:child_process';

// Commands still running when this process exits (a failed assertion, a signal) are killed with
// their process group, so no `n8n execute` or npm outlives the test that started it.
const live = new Set();
process.on('exit', () => {
	for (const child of live) killTree(child, 'SIGKILL');
});

export const tail = (text, max = 4000) => (text.length > max ? '…' + text.slice(-max) : text);

/**
 * How a process ended, in words: "exit 1", or "killed by signal SIGSEGV". A process that a signal
 * ended has no exit code; printing only the code ("exit null") hides what happened to it.
 */
export function describeExit({ code, signal }) {
	return code === null || code === undefined
		? `killed by signal ${signal ?? '(unknown)'}`
		: `exit ${code}`;
}

/**
 * Runs a command; resolves { code, stdout, stderr, ms } or rejects on timeout / spawn error /
 * (unless allowFailure) a non-zero exit, with the tails of stdout and stderr in the message.
 * `uid`/`gid` (when running as root) run it as another user, e.g. PostgreSQL's initdb.
 */
export function runCommand(
	cmd,
	args,
	{ cwd, env, timeoutMs = 120_000, input, allowFailure = false, label, uid, gid } = {},
) {
	const name = label ?? [cmd, ...args].join(' ');
	return new Promise((resolve, reject) => {
		const t0 = Date.now();
		const child = spawn(cmd, args, {
			cwd,
			env,
			stdio: ['pipe', 'pipe', 'pipe'],
			detached: true,
			...(uid === undefined ? {} : { uid }),
			...(gid === undefined ? {} : { gid }),
		});
		live.add(child);
		let stdout = '';
		let stderr = '';
		let timedOut = false;
		child.stdout.on('data', (c) => (stdout += c));
		child.stderr.on('data', (c) => (stderr += c));
		const timer = setTimeout(() => {
			timedOut = true;
			killTree(child);
		}, timeoutMs);
		child.on('error', (err) => {
			live.delete(child);
			clearTimeout(timer);
			reject(new Error(`${name}: could not start: ${err.message}`));
		});
		child.on('close', (code, signal) => {
			live.delete(child);
			clearTimeout(timer);
			const ms = Date.now() - t0;
			const result = { code, signal, stdout, stderr, ms };
			if (timedOut)
				return reject(
					Object.assign(
						new Error(`${name}: timed out after ${timeoutMs} ms\n${describeOutput(result)}`),
						{ result },
					),
				);
			if (code !== 0 && !allowFailure)
				return reject(
					Object.assign(new Error(`${name}: ${describeExit(result)}\n${describeOutput(result)}`), {
						result,
					}),
				);
			resolve(result);
		});
		if (input !== undefined) child.stdin.end(input);
		else child.stdin.end();
	});
}

export function describeOutput({ stdout = '', stderr = '' }) {
	return `--- stderr (tail) ---\n${tail(stderr) || '(empty)'}\n--- stdout (tail) ---\n${tail(stdout) || '(empty)'}`;
}

/** Kills a detached child and its process group (only that group: the child we started). */
export function killTree(child, signal = 'SIGTERM') {
	if (child.exitCode !== null || child.signalCode !== null) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			/* already gone */
		}
	}
}

/**
 * `signal` (default SIGTERM) to the whole process group, SIGKILL after graceMs; resolves with how
 * it exited.
 */
export async function stopGracefully(child, exitPromise, graceMs, signal = 'SIGTERM') {
	killTree(child, signal);
	const timer = setTimeout(() => killTree(child, 'SIGKILL'), graceMs);
	const result = await exitPromise;
	clearTimeout(timer);
	return result;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * `fetch` on a new connection each time (`Connection: close`). Node's fetch keeps idle sockets for
 * about 4 s, n8n's and the sandbox's servers close theirs after 5 s: on a loaded machine the two
 * timers race, a request goes out on a socket the server is closing, and fetch fails ("fetch
 * failed", other side closed). Seen once in check e on a machine with both cores loaded.
 */
export function fetchFresh(url, init = {}) {
	return fetch(url, { ...init, headers: { ...init.headers, connection: 'close' } });
}

export async function timed(label, fn, timings) {
	const t0 = Date.now();
	try {
		return await fn();
	} finally {
		const s = (Date.now() - t0) / 1000;
		if (timings) timings[label] = s;
		process.stdout.write(`[e2e] ${label}: ${s.toFixed(1)} s\n`);
	}
}
