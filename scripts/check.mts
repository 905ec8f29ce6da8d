// `npm run check` (what .ci/run runs): the unit stage, then the real-n8n tiers, in order, each with
// the terminal to itself. Stops at the first stage that fails, with its exit code. At the end it
// prints how long each stage took, and fails if the run changed the files git tracks or added new
// ones (pictures and figures are written by their own commands: CONTRIBUTING).
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

const REPO_ROOT = path.resolve(import.meta.dirname, '..');
const STAGES: [name: string, script: string, args?: string[]][] = [
	['unit (build, typecheck, lint, scan, test, bench smoke)', 'check:unit'],
	['end-to-end (real n8n 2.x and 1.x)', 'test:e2e'],
	['UI (the editor in chromium)', 'test:ui'],
	['scale (queue mode, short)', 'test:scale', ['--short']],
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

function run(script: string, args: string[]): Promise<number> {
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const child = spawn(npm, ['run', script, ...(args.length ? ['--', ...args] : [])], {
		cwd: REPO_ROOT,
		stdio: 'inherit',
	});
	return new Promise((resolve) =>
		// a stage ended by a signal exits as a shell reports it: 128 + the signal's number
		child.on('exit', (code, signal) =>
			resolve(code ?? 128 + (signal ? os.constants.signals[signal] : 0)),
		),
	);
}

const minutes = (ms: number): string => {
	const s = Math.round(ms / 1000);
	return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
};

const before = treeState();
const t00 = Date.now();
const times: [name: string, ms: number, result: string][] = [];
let exitCode = 0;
for (const [name, script, args = []] of STAGES) {
	const t0 = Date.now();
	const code = await run(script, args);
	times.push([name, Date.now() - t0, code === 0 ? 'passed' : `FAILED (exit ${code})`]);
	if (code !== 0) {
		exitCode = code;
		break;
	}
}
const lines = times.map(
	([name, ms, result]) => `  ${name.padEnd(56)} ${minutes(ms).padStart(12)}  ${result}`,
);
for (const [name] of STAGES.slice(times.length))
	lines.push(`  ${name.padEnd(56)} ${'—'.padStart(12)}  not run`);
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
		`npm run check: ${exitCode === 0 ? 'passed' : 'FAILED'} in ${minutes(Date.now() - t00)}`,
		...lines,
		'',
	].join('\n'),
);
process.exit(exitCode);
