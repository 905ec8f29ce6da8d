// `npm run check` (what .ci/run runs; CONTRIBUTING.md has the whole of it): the build, then one
// tarball, and beside what the tiers install (e2e/prepare.mts) the unit stage; once installed, the
// end-to-end, queue-mode and UI tiers beside the unit stage, each logging to .cache/check/<name>.log,
// printed whole when it ends. Stops at the first failure (the others stopped), prints each job's
// time, and fails if the run changed the tree.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isInstalled } from '../e2e/n8n-installation.mts';
import { packPackage } from '../e2e/lib/n8nPackage.mts';
import { onStopSignal, startProcess, tsx, type Started } from '../e2e/lib/proc.mts';

const REPO_ROOT = path.resolve(import.meta.dirname, '..');
const LOG_DIR = path.join(REPO_ROOT, '.cache', 'check');
const node = (file: string, args: string[] = []) => [
	process.execPath,
	...tsx(path.join(REPO_ROOT, 'e2e', file), args),
];
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

/** A child process of the run, in a process group of its own; its output in `log`, or the terminal. */
interface Job extends Started {
	name: string;
	log?: string;
	stopped?: boolean;
}
const running = new Set<Job>();
let firstFailure = 0;
/** The summary, in the order the jobs started: a job's name, then its time and how it ended. */
const rows = new Map<string, [time: string, result: string]>();

function start(name: string, [command, ...args]: string[], logName?: string, env = {}): Job {
	const log = logName && path.join(LOG_DIR, logName);
	const options = { cwd: REPO_ROOT, env: { ...process.env, ...env }, log, inherit: !log };
	const job: Job = { name, log, ...startProcess(command, args, options) };
	running.add(job);
	void job.exitPromise.then(() => running.delete(job));
	rows.set(name, ['—', 'running']);
	return job;
}

/** Stops every job still running: `signal` to its group (each tier stops its n8n), SIGKILL 30 s later. */
async function stopAll(signal: NodeJS.Signals = 'SIGTERM') {
	const jobs = [...running];
	for (const job of jobs) {
		job.stopped = true;
		say(`stopping ${job.name}`);
	}
	const ends = await Promise.all(jobs.map((job) => job.stop(30_000, signal)));
	jobs.forEach((job, i) => rows.set(job.name, [minutes(ends[i].ms), 'stopped']));
}
onStopSignal(async (signal) => {
	firstFailure ||= 130; // main() ends too once the jobs have: it must not say "passed"
	await stopAll(signal);
	return 130;
});

/** Prints a job's log whole (or its tail, when it failed and the log is long). */
function printLog(job: Job, head: string, code: number) {
	if (!job.log) {
		say(head); // its output went to the terminal
		return;
	}
	const lines = readFileSync(job.log, 'utf8').trimEnd().split('\n');
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

/** Waits for a job and prints it; the first job that fails stops the others. */
async function settle(job: Job, quiet = false): Promise<void> {
	const { code, signal, ms } = await job.exitPromise;
	if (job.stopped) return; // another failed: stopAll reports it
	// a signal as a shell reports it: 128 + its number
	const exit = code ?? 128 + (signal ? os.constants.signals[signal] : 0);
	const result = exit === 0 ? 'passed' : `FAILED (exit ${exit})`;
	rows.set(job.name, [minutes(ms), result]);
	if (quiet && exit === 0) say(`${job.name}: passed in ${minutes(ms)}`);
	else printLog(job, `${job.name}: ${result} in ${minutes(ms)}`, exit);
	if (exit !== 0 && !firstFailure) {
		firstFailure = exit;
		await stopAll();
	}
}

async function main(): Promise<number> {
	rmSync(LOG_DIR, { recursive: true, force: true });
	mkdirSync(LOG_DIR, { recursive: true });
	// bench smoke uses .cache/n8n when it is there: not while it is half made beside it
	const benchEnv = isInstalled('2') ? {} : { AIRSIGN_N8N_INSTALLING: '1' };
	const prepare = start(
		'installs for the tiers (e2e/prepare.mts)',
		node('prepare.mts'),
		'prepare.log',
	);
	say(`${prepare.name}: started, output in ${path.relative(REPO_ROOT, prepare.log!)}`);
	const build = start('build', ['npm', 'run', 'build']);
	await settle(build);
	if (firstFailure) return firstFailure;
	const packT0 = Date.now();
	// packed once, from the dist/ just built, for every tier
	const packed = await packPackage({ build: false }).catch((err: Error) => {
		say(`npm pack FAILED: ${err.stack ?? err}`);
	});
	rows.set('npm pack, once for the tiers', [
		minutes(Date.now() - packT0),
		packed ? 'passed' : 'FAILED',
	]);
	if (!packed) {
		await stopAll();
		return 1;
	}
	const { tarball } = packed;
	try {
		// The unit stage goes on beside the tiers: they start as soon as their installs are there.
		const unit = start(
			'unit (typecheck, lint, scan, test, bench smoke)',
			['npm', 'run', 'check:built'],
			undefined,
			benchEnv,
		);
		const unitDone = settle(unit);
		await settle(prepare, true);
		if (firstFailure) {
			await unitDone;
			return firstFailure;
		}
		// its lines `[prepare] installed: n8n 2.41.3 in 5 min 20 s`, in the summary
		for (const [, what, time] of readFileSync(prepare.log!, 'utf8').matchAll(
			/^\[prepare\] installed: (.*) in (.*)$/gm,
		))
			rows.set(`  of which ${what}`, [time, 'installed']);
		// All at once: the tiers mostly wait (for polls, n8n's start, the browser), and each wait
		// is bounded only to catch a hang, so a busy machine makes them slower, never failing.
		const jobs = (
			[
				['run.mts', [], 'e2e.log'],
				['scale.mts', ['--short'], 'scale.log'],
				['ui.mts', [], 'ui.log'],
			] as const
		).map(([file, args, log], i) =>
			start(TIERS[i], node(file, [...args, '--tarball', tarball]), log),
		);
		say(`${TIERS.join('; ')}: side by side, each printed when it ends`);
		const t0 = Date.now();
		const progress = setInterval(
			() =>
				say(
					`${minutes(Date.now() - t0)}: ${[unit.name, ...TIERS].map((name) => `${name.split(' ')[0]} ${rows.get(name)?.[1] ?? 'waiting'}`).join(', ')}`,
				),
			60_000,
		);
		await Promise.all([unitDone, ...jobs.map((job) => settle(job))]);
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
