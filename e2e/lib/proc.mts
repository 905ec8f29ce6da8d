// Child-process helpers: bounded in time, output captured, errors that show the output's tail.
import { spawn, type ChildProcess } from 'node:child_process';

// Commands still running when this process exits (a failed assertion, a signal) are killed with
// their process group, so no `n8n execute` or npm outlives the test that started it.
const live = new Set<ChildProcess>();
process.on('exit', () => {
	for (const child of live) killTree(child, 'SIGKILL');
});

export const tail = (text: string, max = 4000): string =>
	text.length > max ? '…' + text.slice(-max) : text;

/** How a process ended: its exit code, or the signal that ended it (then `code` is null). */
export interface ExitStatus {
	code: number | null;
	signal: NodeJS.Signals | null;
}

/** What runCommand resolves: how the command ended, its whole output and its time. */
export interface CommandResult extends ExitStatus {
	stdout: string;
	stderr: string;
	ms: number;
}

/** runCommand's options (all optional). */
export interface RunCommandOptions {
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	timeoutMs?: number;
	/** Written to the command's stdin, which is then closed. */
	input?: string | Buffer;
	/** A non-zero exit resolves instead of rejecting. */
	allowFailure?: boolean;
	/** The command's name in error messages (default: the command line). */
	label?: string;
	uid?: number;
	gid?: number;
}

/** The error runCommand rejects with after the command ran: its result attached. */
export type CommandError = Error & { result: CommandResult };

/**
 * How a process ended, in words: "exit 1", or "killed by signal SIGSEGV". A process that a signal
 * ended has no exit code; printing only the code ("exit null") hides what happened to it.
 */
export function describeExit({
	code,
	signal,
}: {
	code?: number | null;
	signal?: string | null;
}): string {
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
	cmd: string,
	args: readonly string[],
	{
		cwd,
		env,
		timeoutMs = 120_000,
		input,
		allowFailure = false,
		label,
		uid,
		gid,
	}: RunCommandOptions = {},
): Promise<CommandResult> {
	const name = label ?? [cmd, ...args].join(' ');
	return new Promise<CommandResult>((resolve, reject) => {
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
		child.stdout.on('data', (c: Buffer) => (stdout += c));
		child.stderr.on('data', (c: Buffer) => (stderr += c));
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
			const result: CommandResult = { code, signal, stdout, stderr, ms };
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

export function describeOutput({
	stdout = '',
	stderr = '',
}: {
	stdout?: string;
	stderr?: string;
}): string {
	return `--- stderr (tail) ---\n${tail(stderr) || '(empty)'}\n--- stdout (tail) ---\n${tail(stdout) || '(empty)'}`;
}

/** Kills a detached child and its process group (only that group: the child we started). */
export function killTree(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): void {
	if (child.exitCode !== null || child.signalCode !== null) return;
	try {
		process.kill(-Number(child.pid), signal);
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
export async function stopGracefully<T>(
	child: ChildProcess,
	exitPromise: Promise<T>,
	graceMs: number,
	signal: NodeJS.Signals = 'SIGTERM',
): Promise<T> {
	killTree(child, signal);
	const timer = setTimeout(() => killTree(child, 'SIGKILL'), graceMs);
	const result = await exitPromise;
	clearTimeout(timer);
	return result;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** fetch's options, with headers as a plain object (fetchFresh adds one to them). */
export type FetchInit = Omit<RequestInit, 'headers'> & { headers?: Record<string, string> };

/**
 * `fetch` on a new connection each time (`Connection: close`). Node's fetch keeps idle sockets for
 * about 4 s, n8n's and the sandbox's servers close theirs after 5 s: on a loaded machine the two
 * timers race, a request goes out on a socket the server is closing, and fetch fails ("fetch
 * failed", other side closed). Seen once in check e on a machine with both cores loaded.
 */
export function fetchFresh(url: string | URL, init: FetchInit = {}): Promise<Response> {
	return fetch(url, { ...init, headers: { ...init.headers, connection: 'close' } });
}

export async function timed<T>(
	label: string,
	fn: () => T | Promise<T>,
	timings?: Record<string, number>,
): Promise<T> {
	const t0 = Date.now();
	try {
		return await fn();
	} finally {
		const s = (Date.now() - t0) / 1000;
		if (timings) timings[label] = s;
		process.stdout.write(`[e2e] ${label}: ${s.toFixed(1)} s\n`);
	}
}
