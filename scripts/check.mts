// `npm run check` (what .ci/run runs): the unit stage, then the real-n8n tiers. What mostly waits
// runs beside other work: what the tiers install (e2e/prepare.mts: both n8n versions, Verdaccio,
// Debian packages) beside the unit stage; then the package is packed once and the end-to-end,
// queue-mode and UI tiers run side by side, each its own n8n, ports and folders. Their output goes
// to .cache/check/<name>.log, and each log is printed whole when its job ends (never interleaved).
// Stops at the first job that fails, with its exit code (the others are stopped). At the end it
// prints each job's time, and fails if the run changed the files git tracks or added new ones
// (pictures and figures are written by their own commands: CONTRIBUTING).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isInstalled } from '../e2e/n8n-installation.mts';
import { packPackage } from '../e2e/lib/n8nPackage.mts';

const REPO_ROOT = path.resolve(import.meta.dirname, '..');
const LOG_DIR = path.join(REPO_ROOT, '.cache', 'check');
const e2e = (file: string) => path.join(REPO_ROOT, 'e2e', file);
const TIERS = [
	'end-to-end (real n8n 2.x and 1.x)',
	'scale (queue mode, short)',
	'UI (the editor in chromium)',
];

const git = (...args: string[]) =>
	execFileSync('git', args, { cwd: REPO_ROOT, maxBuffer: 1 << 30 }).toString();
/** What git sees of the working tree: a hash of the tracked changes, and the untracked files. */
function treeState(): string | undefined {
	try {
		const diff = createHash('sha256')
			.update(git('diff', 'HEAD', '--binary'))
			.digest('hex');
		return `${diff}\n${git('ls-files', '--others', '--exclude-standard')}`;
	} catch {
		return undefined; // not a git checkout (an unpacked tarball): nothing to compare
	}
}

const minutes = (ms: number): string => {
	const s = Math.round(ms / 1000);
	return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
};
const say = (msg: string) => process.stdout.write(`[check] ${msg}\n`);

/** A child process of the run: its own process group, so that it can be stopped whole. */
interface Job {
	name: string;
	child: ChildProcess;
	/** Where its output goes; none: the terminal. */
	log?: string;
	t0: number;
	/** Its exit code (a signal as a shell reports it: 128 + the signal's number). */
	done: Promise<number>;
	ms?: number;
}
const running = new Set<Job>();
const stopped = new Set<Job>();
/** The summary, in the order the jobs started: a job's name, then its time and how it ended. */
const rows = new Map<string, [time: string, result: string]>();

function start(name: string, command: string, args: string[], log?: string, env = {}): Job {
	const out = log ? openSync(log, 'w') : 'inherit';
	const child = spawn(command, args, {
		cwd: REPO_ROOT,
		env: { ...process.env, ...env },
		stdio: ['ignore', out, out],
		detached: true,
	});
	const job: Job = { name, child, log, t0: Date.now(), done: Promise.resolve(0) };
	job.done = new Promise((resolve) =>
		child.on('exit', (code, signal) => {
			job.ms = Date.now() - job.t0;
			running.delete(job);
			resolve(code ?? 128 + (signal ? os.constants.signals[signal] : 0));
		}),
	);
	running.add(job);
	rows.set(name, ['—', 'running']);
	return job;
}
const tsx = (file: string, args: string[] = []) => ['--import', 'tsx', file, ...args];

/** Stops every job still running (SIGTERM to its group: each tier stops its n8n, services). */
async function stopAll(signal: NodeJS.Signals = 'SIGTERM') {
	const jobs = [...running];
	for (const job of jobs) {
		stopped.add(job);
		say(`stopping ${job.name}`);
		for (const [sig, delay] of [
			[signal, 0],
			['SIGKILL', 30_000],
		] as const)
			setTimeout(() => {
				try {
					process.kill(-Number(job.child.pid), sig);
				} catch {
					/* gone already */
				}
			}, delay).unref();
	}
	await Promise.all(jobs.map((job) => job.done));
	for (const job of jobs) rows.set(job.name, [minutes(job.ms!), 'stopped']);
}
for (const sig of ['SIGINT', 'SIGTERM'] as const)
	process.once(sig, () => void stopAll(sig).then(() => process.exit(130)));

/** Prints a job's log whole (or its tail, when it failed and the log is long). */
function printLog(job: Job, code: number) {
	const head = `${job.name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${minutes(job.ms!)}`;
	if (!job.log) {
		say(head); // its output went to the terminal
		return;
	}
	const text = readFileSync(job.log, 'utf8');
	const lines = text.trimEnd().split('\n');
	const shown = code !== 0 && lines.length > 400 ? lines.slice(-400) : lines;
	process.stdout.write(
		[
			'',
			`──── ${head} ─ its output${shown.length < lines.length ? `, last ${shown.length} lines` : ''} (${path.relative(REPO_ROOT, job.log)}) ────`,
			...shown,
			`──── end of ${job.name} ────`,
			'',
		].join('\n'),
	);
}

let firstFailure = 0;
/** Waits for a job and prints it; the first job that fails stops the others. */
async function settle(job: Job, quiet = false): Promise<void> {
	const code = await job.done;
	if (stopped.has(job)) return; // another failed: stopAll reports it
	if (quiet && code === 0) say(`${job.name}: passed in ${minutes(job.ms!)}`);
	else printLog(job, code);
	rows.set(job.name, [minutes(job.ms!), code === 0 ? 'passed' : `FAILED (exit ${code})`]);
	if (code !== 0 && !firstFailure) {
		firstFailure = code;
		await stopAll();
	}
}

async function main(): Promise<number> {
	rmSync(LOG_DIR, { recursive: true, force: true });
	mkdirSync(LOG_DIR, { recursive: true });
	// bench smoke uses .cache/n8n when it is there: not while it is half made beside it
	const benchEnv = isInstalled('2') ? {} : { AIRSIGN_N8N_INSTALLING: '1' };
	const unit = start(
		'unit (build, typecheck, lint, scan, test, bench smoke)',
		'npm',
		['run', 'check:unit'],
		undefined,
		benchEnv,
	);
	const prepare = start(
		'installs for the tiers (e2e/prepare.mts), beside the unit stage',
		process.execPath,
		tsx(e2e('prepare.mts')),
		path.join(LOG_DIR, 'prepare.log'),
	);
	say(`${prepare.name}: started, output in ${path.relative(REPO_ROOT, prepare.log!)}`);
	await Promise.all([settle(unit), settle(prepare, true)]);
	if (firstFailure) return firstFailure;
	// its lines `[prepare] installed: n8n 2.41.3 in 5 min 20 s`, in the summary
	for (const [, what, time] of readFileSync(prepare.log!, 'utf8').matchAll(
		/^\[prepare\] installed: (.*) in (.*)$/gm,
	))
		rows.set(`  of which ${what}`, [time, 'installed']);

	// the unit stage has just built dist/: packed once, without building again, for every tier
	const packT0 = Date.now();
	const packed = await packPackage({ build: false }).catch((err: Error) => {
		say(`npm pack FAILED: ${err.stack ?? err}`);
	});
	rows.set('npm pack, once for the tiers', [
		minutes(Date.now() - packT0),
		packed ? 'passed' : 'FAILED',
	]);
	if (!packed) return 1;
	const { tarball } = packed;
	try {
		const tier = (name: string, file: string, args: string[], log: string) =>
			start(
				name,
				process.execPath,
				tsx(e2e(file), [...args, '--tarball', tarball]),
				path.join(LOG_DIR, log),
			);
		// All three at once: they mostly wait (for polls, n8n's start, the browser), and each wait
		// is bounded only to catch a hang, so a busy machine makes them slower, never failing.
		const jobs = [
			tier(TIERS[0], 'run.mts', [], 'e2e.log'),
			tier(TIERS[1], 'scale.mts', ['--short'], 'scale.log'),
			tier(TIERS[2], 'ui.mts', [], 'ui.log'),
		];
		say(`${TIERS.join('; ')}: side by side, each printed when it ends`);
		const t0 = Date.now();
		const progress = setInterval(
			() =>
				say(
					`${minutes(Date.now() - t0)}: ${TIERS.map((name) => `${name.split(' ')[0]} ${rows.get(name)?.[1] ?? 'waiting'}`).join(', ')}`,
				),
			60_000,
		);
		await Promise.all(jobs.map((job) => settle(job)));
		clearInterval(progress);
	} finally {
		rmSync(path.dirname(tarball), { recursive: true, force: true });
	}
	return firstFailure;
}

const before = treeState();
const t00 = Date.now();
let exitCode = await main();
for (const tier of TIERS) if (!rows.has(tier)) rows.set(tier, ['—', 'not run']);
const lines = [...rows].map(
	([name, [time, result]]) => `  ${name.padEnd(64)} ${time.padStart(12)}  ${result}`,
);
if (exitCode === 0 && before !== undefined && treeState() !== before) {
	exitCode = 1;
	lines.push(
		'  FAILED: the run changed what git tracks or added files (git status): a test run must leave',
		'  the tree as it found it; pictures and figures are written by their own commands. Now:',
		...git('status', '--short')
			.trimEnd()
			.split('\n')
			.map((line) => `    ${line}`),
	);
}
process.stdout.write(
	[
		'',
		`npm run check: ${exitCode === 0 ? 'passed' : 'FAILED'} in ${minutes(Date.now() - t00)} (the tiers side by side)`,
		...lines,
		'',
	].join('\n'),
);
process.exit(exitCode);
