// The one process runner of the tiers and scripts, on execa. Each child gets a process group and
// every kill goes to the group: npm and n8n leave their own children running otherwise.
import { closeSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { execa, type Options as execaOptions, type Result, type ResultPromise } from 'execa';

// At this process's exit the children still running are killed with their groups, and so is every
// process below this one (`npm run dev` starts n8n in a group of its own). execa's `cleanup` does
// nothing for a detached child.
const live = new Set<ResultPromise>();
process.on('exit', () => {
	const below = descendants(process.pid); // read first: a killed child's children lose their parent
	for (const child of live) signalGroup(child, 'SIGKILL');
	for (const pid of below) kill(pid, 'SIGKILL');
});

const kill = (pid: number, signal: NodeJS.Signals): boolean => {
	try {
		return process.kill(pid, signal);
	} catch {
		return false; // gone already
	}
};

/** The processes below `pid`, from /proc: read synchronously, as an 'exit' hook must. */
function descendants(pid: number): number[] {
	const childrenOf = new Map<number, number[]>();
	let entries: string[];
	try {
		entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
	} catch {
		return []; // not Linux: the groups alone are killed
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
	if (!kill(-Number(child.pid), signal)) child.kill(signal); // no group (yet): the child alone
}

// SIGINT/SIGTERM: by default this process exits at once and the 'exit' hook ends everything below.
let onStop: ((signal: NodeJS.Signals) => Promise<number>) | undefined;
let firstSignalAt: number | undefined;
function stopSignal(signal: NodeJS.Signals): void {
	// One Ctrl-C arrives more than once (terminal, then npm run): only a later one stops waiting
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
 * other listed handler goes; tsx's hidden one (it tells tsx the signal arrived) stays.
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
export type ExitStatus = { code: number | null; signal: NodeJS.Signals | null };
type Exit = ExitStatus & { ms: number };
export type CommandResult = Exit & { stdout: string; stderr: string };

/**
 * `env` is the whole environment. The output goes to output() (its last `keep` characters) and
 * `onLine`, or to the terminal (`inherit`) or a new file (`log`). `buffer`: stdout and stderr whole
 * in `process`'s result. `timeoutMs` (0: none) catches a hang.
 */
type StartOptions = Pick<execaOptions, 'cwd' | 'env' | 'uid' | 'gid' | 'input'> & {
	keep?: number;
	inherit?: boolean;
	log?: string;
	onLine?: (line: string) => void;
	buffer?: boolean;
	timeoutMs?: number;
	graceMs?: number;
};

/**
 * stop() sends `signal` (default SIGTERM) to the group, SIGKILL after `graceMs`; kill() ends it at
 * once (default SIGKILL: a crash, as far as it can tell). Both resolve how it exited.
 */
export type Started = ReturnType<typeof startProcess>;

/** A spawn that failed (no such command, no permission) has neither an exit code nor a signal. */
const notStarted = (r: Result): boolean =>
	r.failed && r.exitCode === undefined && r.signal === undefined && !r.isCanceled;

/** Starts a process in its own group. One that cannot start exits with code -1 (why: in output). */
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
) {
	const t0 = Date.now();
	// a file's descriptor goes to the child itself: the log is whole once it has exited
	const fd = log === undefined ? undefined : openSync(log, 'w');
	const tap = function* (line: unknown) {
		onLine?.(String(line));
		yield line;
	};
	// any descriptor (execa's types name 3 to 9 only)
	const to = inherit ? 'inherit' : ((fd as 3 | undefined) ?? (onLine ? tap : 'pipe'));
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
	const forget = () => live.delete(child);
	void child.then(forget, forget);
	if (fd !== undefined) closeSync(fd);
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
		return await exitPromise.finally(() => clearTimeout(timer));
	};
	let timedOut = false;
	if (timeoutMs > 0) {
		const timer = setTimeout(() => {
			timedOut = true;
			onLine?.(`TIMEOUT after ${timeoutMs / 1000} s: stopping it`);
			void stop(graceMs);
		}, timeoutMs);
		void exitPromise.then(() => clearTimeout(timer));
	}
	return {
		process: child,
		output: () => out,
		exited: () => exited,
		exitPromise,
		timedOut: () => timedOut,
		stop,
		kill: async (signal: NodeJS.Signals = 'SIGKILL') => {
			if (!exited) signalGroup(child, signal);
			return await exitPromise;
		},
	};
}

/** `timeoutMs`: default 120 s, 0 none; `allowFailure`: a non-zero exit resolves; `label`: its name. */
export type RunCommandOptions = Pick<
	StartOptions,
	'cwd' | 'env' | 'uid' | 'gid' | 'input' | 'onLine' | 'timeoutMs'
> & { allowFailure?: boolean; label?: string };

/** Runs a command to its end; rejects on timeout, spawn error or (unless allowFailure) failure. */
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

/** node's arguments that run a TypeScript file with tsx. */
export function tsx(file: string, args: readonly string[] = []): string[] {
	return ['--import', 'tsx', file, ...args];
}

/** An onLine that prints each line after `name |`: children side by side stay readable. */
export function prefixed(name: string): (line: string) => void {
	return (line) => void process.stdout.write(`${name.padEnd(10)}| ${line}\n`);
}

/** "exit 1", or "killed by signal SIGSEGV" (a process a signal ended has no exit code). */
export const describeExit = ({ code, signal }: { code?: number | null; signal?: string | null }) =>
	code === null || code === undefined
		? `killed by signal ${signal ?? '(unknown)'}`
		: `exit ${code}`;

type Output = { stdout?: string; stderr?: string };
export const describeOutput = ({ stdout = '', stderr = '' }: Output) =>
	`--- stderr (tail) ---\n${tail(stderr) || '(empty)'}\n--- stdout (tail) ---\n${tail(stdout) || '(empty)'}`;

/** Polls `probe` until it holds (resolves the wait); throws if the process exits or the time is up. */
export async function waitUntilReady(
	label: string,
	server: Pick<Started, 'exited' | 'output' | 'stop'>,
	probe: () => Promise<boolean>,
	{ timeoutMs, everyMs = 250 }: { timeoutMs: number; everyMs?: number },
): Promise<number> {
	const t0 = Date.now();
	const withOutput = (what: string) =>
		`${label} ${what}\n--- output (tail) ---\n${tail(server.output())}`;
	await pollUntil(
		async () => {
			const exited = server.exited();
			if (exited) throw new Error(withOutput(`exited early (${describeExit(exited)})`));
			return await probe().catch(() => false);
		},
		async () => (await server.stop(5_000), withOutput(`not ready within ${timeoutMs} ms`)),
		{ timeoutMs, everyMs },
	);
	return Date.now() - t0;
}

/**
 * A long-running process, ready once `probe(it)` holds; `dir` (its cwd by default) is removed by
 * stop() or this process's exit. A start that fails is stopped and cleaned up.
 */
export async function startServer(
	label: string,
	cmd: string,
	args: readonly string[],
	{
		probe,
		timeoutMs,
		everyMs,
		dir,
		signal = 'SIGTERM',
		graceMs = 15_000,
		...options
	}: Pick<StartOptions, 'cwd' | 'env' | 'uid' | 'gid' | 'keep'> & {
		probe: (server: Started) => Promise<boolean>;
		timeoutMs: number;
		everyMs?: number;
		dir?: string;
		signal?: NodeJS.Signals;
		graceMs?: number;
	},
) {
	const rm = () => dir && rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
	if (dir) process.on('exit', rm);
	const server = startProcess(cmd, args, { cwd: dir, ...options });
	const stop = (grace = graceMs, sig = signal) => server.stop(grace, sig).finally(rm);
	try {
		const startMs = await waitUntilReady(label, server, () => probe(server), {
			timeoutMs,
			everyMs,
		});
		return { ...server, startMs, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

/** Polls `probe` until it resolves a truthy value; the bound `timeoutMs` only catches a hang. */
export async function pollUntil<T>(
	probe: () => T | Promise<T>,
	failure: (last: T | undefined) => string | Promise<string>,
	{ timeoutMs, everyMs = 500 }: { timeoutMs: number; everyMs?: number },
): Promise<Exclude<T, false | 0 | '' | null | undefined>> {
	const t0 = Date.now();
	for (;;) {
		const value = await probe();
		if (value) return value as Exclude<T, false | 0 | '' | null | undefined>;
		if (Date.now() - t0 > timeoutMs) throw new Error(await failure(value));
		await sleep(everyMs);
	}
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export type FetchInit = Omit<RequestInit, 'headers'> & { headers?: Record<string, string> };

/**
 * `fetch` on a new connection each time: node keeps idle sockets about 4 s, n8n and the sandbox
 * close theirs after 5 s, and on a loaded machine a request can go out on a closing socket.
 */
export function fetchFresh(url: string | URL, init: FetchInit = {}): Promise<Response> {
	return fetch(url, { ...init, headers: { ...init.headers, connection: 'close' } });
}
