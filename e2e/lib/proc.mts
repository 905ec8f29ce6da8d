// The one process runner of the tiers and scripts, on execa: commands bounded in time with their
// output in the error, servers (n8n, the sandbox, PostgreSQL, …) and whole tiers. Each child runs in a
// process group of its own (`detached`) and every kill goes to the group: execa signals only the
// child, and npm or n8n leave theirs (scripts, the task runner) running otherwise.
import { closeSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { execa, type Result, type ResultPromise } from 'execa';

// Started here and not yet done when this process exits (a failed assertion, a signal): killed
// with their groups, so no `n8n` or npm outlives the script that started it. execa's own `cleanup`
// does nothing for a detached child. So is every process below this one: a child's own children
// in groups of their own (`npm run dev`'s n8n and sandbox) would outlive a child killed at once.
const live = new Set<ResultPromise>();
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

function signalGroup(child: ResultPromise, signal: NodeJS.Signals): void {
	try {
		process.kill(-Number(child.pid), signal);
	} catch {
		child.kill(signal); // never started, or no group left: the child alone
	}
}

// SIGINT/SIGTERM: by default this process exits at once, and the 'exit' hook above ends everything
// below it. A script that stops its children gracefully says how with onStopSignal.
let onStop: ((signal: NodeJS.Signals) => Promise<number>) | undefined;
let firstSignalAt: number | undefined;
function stopSignal(signal: NodeJS.Signals): void {
	// One Ctrl-C arrives more than once (from the terminal, again from npm run): only a later one is
	// the user's second, which stops waiting
	if (firstSignalAt !== undefined) {
		if (Date.now() - firstSignalAt > 1_000) process.exit(130);
		return;
	}
	firstSignalAt = Date.now();
	if (!onStop) process.exit(130);
	void onStop(signal).then((code) => process.exit(code));
}
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, stopSignal);

/**
 * On SIGINT/SIGTERM, `stop(signal)` runs and this process exits with the code it resolves. Every
 * other listed handler goes (lib/n8nServer.mts's exit at once); tsx's hidden one, which tells its
 * parent that the signal arrived, is not listed and stays (without it tsx SIGKILLs this process).
 */
export function onStopSignal(stop: (signal: NodeJS.Signals) => Promise<number>): void {
	onStop = stop;
	for (const sig of ['SIGINT', 'SIGTERM'] as const)
		for (const listener of process.listeners(sig))
			if (listener !== stopSignal) process.off(sig, listener);
}

export const tail = (text: string, max = 4000): string =>
	text.length > max ? '…' + text.slice(-max) : text;

/** How a process ended: its exit code, or the signal that ended it (then `code` is null). */
export interface ExitStatus {
	code: number | null;
	signal: NodeJS.Signals | null;
}

/** How a started process ended, and after how long. */
export interface Exit extends ExitStatus {
	ms: number;
}

/** What runCommand resolves: how the command ended, its whole output and its time. */
export interface CommandResult extends Exit {
	stdout: string;
	stderr: string;
}

/**
 * startProcess's options: `env` is the whole environment (default this process's). Its output,
 * stdout and stderr interleaved, is kept for output() (the last `keep` characters) and each line
 * given to `onLine`; or it goes to the terminal (`inherit`) or to a file made anew (`log`) instead.
 * `input` is written to its stdin; `buffer` keeps stdout and stderr whole in `process`'s result.
 * `timeoutMs` (0: none) only catches a hang: it is then stopped, SIGKILL `graceMs` after SIGTERM.
 */
export interface StartOptions {
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	uid?: number;
	gid?: number;
	keep?: number;
	inherit?: boolean;
	log?: string;
	onLine?: (line: string) => void;
	input?: string | Buffer;
	buffer?: boolean;
	timeoutMs?: number;
	graceMs?: number;
}

/**
 * A process from startProcess: output() is the tail of what it printed, exited() how it exited
 * (null while it runs). stop() sends `signal` (default SIGTERM) to its group, SIGKILL after graceMs;
 * kill() ends it at once (default SIGKILL: a crash, as far as it can tell). Both resolve how it exited.
 */
export interface Started {
	process: ResultPromise;
	output: () => string;
	exited: () => Exit | null;
	exitPromise: Promise<Exit>;
	/** Whether its timeoutMs stopped it. */
	timedOut: () => boolean;
	stop: (graceMs?: number, signal?: NodeJS.Signals) => Promise<Exit>;
	kill: (signal?: NodeJS.Signals) => Promise<Exit>;
}

/** A spawn that failed (no such command, no permission) has neither an exit code nor a signal. */
const notStarted = (r: Result): boolean =>
	r.failed && r.exitCode === undefined && r.signal === undefined && !r.isCanceled;

/**
 * Starts a process in its own process group. A command that cannot start counts as exited (code
 * -1, the reason in its output).
 */
export function startProcess(
	cmd: string,
	args: readonly string[],
	{
		keep = 50_000,
		inherit = false,
		log,
		onLine,
		input,
		buffer = false,
		timeoutMs = 0,
		graceMs = 5_000,
		...rest
	}: StartOptions = {},
): Started {
	const t0 = Date.now();
	// a file's descriptor goes to the child itself: the log is whole once it has exited
	const fd = log === undefined ? undefined : openSync(log, 'w');
	const tap = function* (line: unknown) {
		onLine?.(String(line));
		yield line;
	};
	// any descriptor (execa's types name 3 to 9 only)
	const to = inherit ? 'inherit' : ((fd as 3 | undefined) ?? (onLine ? tap : 'pipe'));
	// `extendEnv: false`: a given `env` is the whole environment, as with node's spawn
	const child: ResultPromise = execa(cmd, args, {
		...rest,
		...(input === undefined ? { stdin: 'ignore' as const } : { input }),
		stdout: to,
		stderr: to,
		all: !inherit && fd === undefined, // read below: unread, a pipe would stop the child
		buffer,
		stripFinalNewline: false,
		detached: true,
		reject: false,
		extendEnv: false,
	});
	live.add(child);
	const forget = () => live.delete(child); // it has exited and its output has closed
	void child.then(forget, forget);
	if (fd !== undefined) closeSync(fd); // the child has its own
	let out = '';
	child.all?.on('data', (c: Buffer) => (out = keep ? (out + c).slice(-keep) : ''));
	let exited: Exit | null = null;
	const exitPromise = new Promise<Exit>((resolve) => {
		const done = (code: number | null, signal: NodeJS.Signals | null) =>
			resolve((exited ??= { code, signal, ms: Date.now() - t0 }));
		child.once('exit', done);
		void child.then((r) => {
			if (notStarted(r)) out += `\n${cmd}: could not start: ${r.originalMessage}`;
			done(-1, null);
		});
	});
	const stop = async (grace = 15_000, signal: NodeJS.Signals = 'SIGTERM') => {
		if (exited) return exited;
		signalGroup(child, signal);
		const timer = setTimeout(() => !exited && signalGroup(child, 'SIGKILL'), grace);
		const result = await exitPromise;
		clearTimeout(timer);
		return result;
	};
	let timedOut = false;
	const timer =
		timeoutMs > 0 &&
		setTimeout(() => {
			timedOut = true;
			onLine?.(`TIMEOUT after ${timeoutMs / 1000} s: stopping it`);
			void stop(graceMs);
		}, timeoutMs);
	if (timer) void exitPromise.then(() => clearTimeout(timer));
	return {
		process: child,
		output: () => out,
		exited: () => exited,
		exitPromise,
		timedOut: () => timedOut,
		stop,
		kill: async (signal = 'SIGKILL') => {
			if (!exited) signalGroup(child, signal);
			return await exitPromise;
		},
	};
}

/** runCommand's options (all optional). */
export interface RunCommandOptions
	extends Pick<StartOptions, 'cwd' | 'env' | 'uid' | 'gid' | 'input' | 'onLine'> {
	/** Default 120 s; 0: no bound. */
	timeoutMs?: number;
	/** A non-zero exit resolves instead of rejecting. */
	allowFailure?: boolean;
	/** The command's name in error messages (default: the command line). */
	label?: string;
}

/** The error runCommand rejects with after the command ran: its result attached. */
export type CommandError = Error & { result: CommandResult };

/**
 * Runs a command; resolves { code, signal, stdout, stderr, ms } or rejects on timeout / spawn
 * error / (unless allowFailure) a non-zero exit, with the tails of stdout and stderr in the message.
 * On timeout its group gets SIGTERM, then SIGKILL 5 s later. `uid`/`gid` (when running as root)
 * run it as another user, e.g. PostgreSQL's initdb.
 */
export async function runCommand(
	cmd: string,
	args: readonly string[],
	{ timeoutMs = 120_000, allowFailure = false, label, ...rest }: RunCommandOptions = {},
): Promise<CommandResult> {
	const name = label ?? [cmd, ...args].join(' ');
	const run = startProcess(cmd, args, { ...rest, keep: 0, buffer: true, timeoutMs });
	const r = await run.process;
	if (notStarted(r)) throw new Error(`${name}: could not start: ${r.originalMessage}`);
	const result: CommandResult = {
		...(await run.exitPromise),
		stdout: String(r.stdout),
		stderr: String(r.stderr),
	};
	const failure = run.timedOut()
		? `timed out after ${timeoutMs} ms`
		: result.code !== 0 && !allowFailure && describeExit(result);
	if (failure)
		throw Object.assign(new Error(`${name}: ${failure}\n${describeOutput(result)}`), { result });
	return result;
}

/** node's arguments that run a TypeScript file with tsx, as the tiers run their parts. */
export function tsx(file: string, args: readonly string[] = []): string[] {
	return ['--import', 'tsx', file, ...args];
}

/** An onLine that prints each line here after `name |`: children side by side stay readable. */
export function prefixed(name: string): (line: string) => void {
	return (line) => void process.stdout.write(`${name.padEnd(10)}| ${line}\n`);
}

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

export function describeOutput({
	stdout = '',
	stderr = '',
}: {
	stdout?: string;
	stderr?: string;
}): string {
	return `--- stderr (tail) ---\n${tail(stderr) || '(empty)'}\n--- stdout (tail) ---\n${tail(stdout) || '(empty)'}`;
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
