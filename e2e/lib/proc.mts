// Child processes on execa: commands bounded in time with their output in the error, and servers
// (n8n, the sandbox, PostgreSQL, …) that stop gracefully. Each runs in a process group of its own
// (`detached`) and every kill goes to the group: execa signals only the child, and npm or n8n leave
// theirs (scripts, the task runner) running otherwise.
import type { ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { execa, type Options, type Result, type ResultPromise } from 'execa';

/** What killing needs of a child: node's ChildProcess or execa's (one too, though its types omit these). */
type Child = Partial<Pick<ChildProcess, 'pid' | 'exitCode' | 'signalCode'>> & {
	kill: (signal: NodeJS.Signals) => boolean;
};

// Started here and not yet done when this process exits (a failed assertion, a signal): killed
// with their groups, so no `n8n` or npm outlives the test that started it. execa's own `cleanup`
// does nothing for a detached child. So is every process below this one: a child's own children
// in groups of their own (`npm run dev`'s n8n and sandbox) would outlive a child killed at once.
const live = new Set<Child>();
process.on('exit', () => {
	const below = descendants(process.pid); // read first: a killed child's children lose their parent
	for (const child of live) signalGroup(child, 'SIGKILL');
	for (const pid of below)
		try {
			process.kill(pid, 'SIGKILL');
		} catch {
			/* gone already */
		}
});

/**
 * The processes below `pid` (its children, theirs, …) as Linux's /proc lists them now. Read
 * synchronously, as an 'exit' hook must; the libraries that list a tree ask `ps` asynchronously.
 */
function descendants(pid: number): number[] {
	const childrenOf = new Map<number, number[]>();
	let entries: string[];
	try {
		entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
	} catch {
		return []; // no /proc (not Linux): the groups alone are killed
	}
	for (const entry of entries)
		try {
			// "pid (name) state ppid …": the name may hold spaces and parentheses
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			childrenOf.set(ppid, [...(childrenOf.get(ppid) ?? []), Number(entry)]);
		} catch {
			/* ended while we read */
		}
	const below = [...(childrenOf.get(pid) ?? [])];
	for (let i = 0; i < below.length; i++) below.push(...(childrenOf.get(below[i]) ?? []));
	return below;
}

function startGroup<O extends Options>(cmd: string, args: readonly string[], options: O) {
	// `extendEnv: false`: a given `env` is the whole environment, as with node's spawn
	const child = execa(cmd, args, { ...options, detached: true, reject: false, extendEnv: false });
	live.add(child);
	const forget = () => live.delete(child); // it has exited and its output has closed
	void child.then(forget, forget);
	return child;
}

function signalGroup(child: Child, signal: NodeJS.Signals): void {
	try {
		process.kill(-Number(child.pid), signal);
	} catch {
		child.kill(signal); // never started, or no group left: the child alone
	}
}

/** Kills a child we started and its process group (only that group), unless it has exited. */
export function killTree(child: Child, signal: NodeJS.Signals = 'SIGTERM'): void {
	if ((child.exitCode ?? null) === null && (child.signalCode ?? null) === null)
		signalGroup(child, signal);
}

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
	/** Default 120 s; 0: no bound. */
	timeoutMs?: number;
	/** Written to the command's stdin, which is then closed. */
	input?: string | Buffer;
	/** A non-zero exit resolves instead of rejecting. */
	allowFailure?: boolean;
	/** The command's name in error messages (default: the command line). */
	label?: string;
	uid?: number;
	gid?: number;
	/** Called with each line of its output (stdout and stderr) as it comes. */
	onLine?: (line: string) => void;
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

/** A spawn that failed (no such command, no permission) has neither an exit code nor a signal. */
const notStarted = (r: Result): boolean =>
	r.failed && r.exitCode === undefined && r.signal === undefined && !r.isCanceled;

/**
 * Runs a command; resolves { code, signal, stdout, stderr, ms } or rejects on timeout / spawn
 * error / (unless allowFailure) a non-zero exit, with the tails of stdout and stderr in the message.
 * On timeout its group gets SIGTERM, then SIGKILL 5 s later. `uid`/`gid` (when running as root)
 * run it as another user, e.g. PostgreSQL's initdb.
 */
export async function runCommand(
	cmd: string,
	args: readonly string[],
	{
		timeoutMs = 120_000,
		input,
		allowFailure = false,
		label,
		onLine,
		...rest
	}: RunCommandOptions = {},
): Promise<CommandResult> {
	const name = label ?? [cmd, ...args].join(' ');
	const tap = function* (line: unknown) {
		onLine?.(String(line));
		yield line;
	};
	const cancel = new AbortController();
	const child = startGroup(cmd, args, {
		...rest,
		...(input === undefined ? { stdin: 'ignore' as const } : { input }),
		...(onLine ? { stdout: tap, stderr: tap } : {}),
		stripFinalNewline: false,
		cancelSignal: cancel.signal,
	});
	const onTimeout = () => {
		cancel.abort();
		signalGroup(child, 'SIGTERM');
		setTimeout(() => live.has(child) && signalGroup(child, 'SIGKILL'), 5_000).unref();
	};
	const timer = timeoutMs > 0 ? setTimeout(onTimeout, timeoutMs) : undefined;
	const r = await child;
	clearTimeout(timer);
	if (notStarted(r)) throw new Error(`${name}: could not start: ${r.originalMessage}`);
	const result: CommandResult = {
		code: r.exitCode ?? null,
		signal: (r.signal as NodeJS.Signals | undefined) ?? null,
		stdout: String(r.stdout),
		stderr: String(r.stderr),
		ms: Math.round(r.durationMs),
	};
	const failure = r.isCanceled
		? `timed out after ${timeoutMs} ms`
		: result.code !== 0 && !allowFailure && describeExit(result);
	if (failure)
		throw Object.assign(new Error(`${name}: ${failure}\n${describeOutput(result)}`), { result });
	return result;
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

/** A long-running process from startProcess. */
export interface Started {
	process: ResultPromise;
	/** The tail of what it printed, stdout and stderr interleaved. */
	output: () => string;
	/** How it exited, or null while it runs. */
	exited: () => ExitStatus | null;
	exitPromise: Promise<ExitStatus>;
	/** `signal` (default SIGTERM) to its group, SIGKILL after graceMs; resolves how it exited. */
	stop: (graceMs?: number, signal?: NodeJS.Signals) => Promise<ExitStatus>;
	/** Ends it at once (default SIGKILL: a crash, as far as it can tell). */
	kill: (signal?: NodeJS.Signals) => Promise<ExitStatus>;
}

/**
 * Starts a server in its own process group, its output kept (the last `keep` characters) unless
 * `inherit` prints it here instead. A command that cannot start counts as exited (code -1).
 */
export function startProcess(
	cmd: string,
	args: readonly string[],
	{
		keep = 50_000,
		inherit = false,
		...rest
	}: Pick<RunCommandOptions, 'cwd' | 'env' | 'uid' | 'gid'> & { keep?: number; inherit?: boolean },
): Started {
	const stdio = inherit ? 'inherit' : 'pipe';
	const child = startGroup(cmd, args, {
		...rest,
		stdin: 'ignore',
		stdout: stdio,
		stderr: stdio,
		all: !inherit,
		buffer: false,
	});
	let out = '';
	child.all?.on('data', (c: Buffer) => (out = (out + c).slice(-keep)));
	let exited: ExitStatus | null = null;
	const exitPromise = new Promise<ExitStatus>((resolve) => {
		child.once('exit', (code, signal) => resolve((exited ??= { code, signal })));
		void child.then((r) => {
			if (notStarted(r)) out += `\n${cmd}: could not start: ${r.originalMessage}`;
			resolve((exited ??= { code: -1, signal: null }));
		});
	});
	const stop = async (graceMs = 15_000, signal: NodeJS.Signals = 'SIGTERM') => {
		if (exited) return exited;
		killTree(child, signal);
		const timer = setTimeout(() => killTree(child, 'SIGKILL'), graceMs);
		const result = await exitPromise;
		clearTimeout(timer);
		return result;
	};
	const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
		killTree(child, signal);
		return await exitPromise;
	};
	return { process: child, output: () => out, exited: () => exited, exitPromise, stop, kill };
}

/**
 * Polls `probe` every `everyMs` until it holds; throws with the output's tail if the process exits
 * first, or stops it (SIGTERM, SIGKILL after 5 s) and throws after `timeoutMs`. Resolves the wait.
 */
export async function waitUntilReady(
	label: string,
	server: Pick<Started, 'exited' | 'output' | 'stop'>,
	probe: () => Promise<boolean>,
	{ timeoutMs, everyMs = 250 }: { timeoutMs: number; everyMs?: number },
): Promise<number> {
	const t0 = Date.now();
	const withOutput = (what: string) =>
		new Error(`${label} ${what}\n--- output (tail) ---\n${tail(server.output())}`);
	for (;;) {
		const exited = server.exited();
		if (exited) throw withOutput(`exited early (${describeExit(exited)})`);
		if (await probe().catch(() => false)) return Date.now() - t0;
		if (Date.now() - t0 > timeoutMs) {
			await server.stop(5_000);
			throw withOutput(`not ready within ${timeoutMs} ms`);
		}
		await sleep(everyMs);
	}
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
