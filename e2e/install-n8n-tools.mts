// The installer's tools (e2e/install-n8n.mts): child processes with their output read line by line,
// its progress lines, npm's output summed up while n8n installs, and probes of the installed Node,
// sqlite3 and node-gyp.
import {
	appendFileSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
	type Dirent,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand } from './lib/proc.mts';
import type { N8nInstallation } from './n8n-installation.mts';

/** run's options: `onLine` receives each line of stdout and stderr as it comes. */
export interface RunOptions {
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	label?: string;
	onLine?: (line: string) => void;
}

/** Reads npm's output while it installs n8n (see npmInstallMonitor). */
export interface NpmInstallMonitor {
	onLine: (line: string) => void;
	/** The progress so far, in words, for the ticker. */
	status: () => string;
	/** Prints what was counted instead of shown. */
	summary: () => void;
}

/**
 * Runs a command, as long as it takes (npm's install of n8n: minutes); resolves the last 8000
 * characters of its output (stdout, then stderr), rejects on a non-zero exit with their tails.
 */
export async function run(
	cmd: string,
	args: string[],
	{ label = cmd, ...options }: RunOptions,
): Promise<string> {
	const { stdout, stderr } = await runCommand(cmd, args, { ...options, label, timeoutMs: 0 });
	return (stdout + stderr).slice(-8000);
}

/** One line of the installer's output. */
export const say = (line: string): boolean => process.stdout.write(`[install-n8n] ${line}\n`);
export const seconds = (ms: number): string => {
	const s = Math.round(ms / 1000);
	return s < 90 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
};

/**
 * A line every 15 s while a long step runs (its label, time so far and status()), so that a first
 * run on a busy machine never sits silent for minutes.
 */
export function ticker(
	label: string,
	status: () => string = () => '',
	{ everyMs = 15_000, print = say }: { everyMs?: number; print?: (line: string) => void } = {},
): () => void {
	const t0 = Date.now();
	const timer = setInterval(() => {
		const detail = status();
		print(`${label}: ${seconds(Date.now() - t0)} so far${detail ? `, ${detail}` : ''}`);
	}, everyMs);
	timer.unref();
	return () => clearInterval(timer);
}

/** Runs one numbered step of the install, with a line before and one with its time after. */
export async function step<T>(
	number: number,
	total: number,
	name: string,
	fn: () => Promise<T>,
): Promise<T> {
	const t0 = Date.now();
	say(`step ${number} of ${total}: ${name} ...`);
	const result = await fn();
	say(`step ${number} of ${total} done in ${seconds(Date.now() - t0)}: ${name}`);
	return result;
}

/** Packages in an earlier install of this n8n's lock file (a retry knows its total), if any. */
function lockedPackageCount(inst: N8nInstallation): number | undefined {
	try {
		const lock: { packages?: Record<string, { version?: string; link?: boolean }> } = JSON.parse(
			readFileSync(path.join(inst.cacheDir, 'package-lock.json'), 'utf8'),
		);
		if (lock.packages?.['node_modules/n8n']?.version !== inst.profile.n8n) return undefined;
		return Object.entries(lock.packages ?? {}).filter(
			([key, v]) => key.includes('node_modules/') && !v.link,
		).length;
	} catch {
		return undefined;
	}
}

/** Packages unpacked so far: folders with a package.json in node_modules, nested ones too. */
function countUnpacked(dir: string): number {
	let count = 0;
	let entries: Dirent[];
	try {
		entries = readdirSync(dir, { withFileTypes: true });
	} catch {
		return 0;
	}
	for (const entry of entries) {
		if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
		const names = entry.name.startsWith('@')
			? readdirSync(path.join(dir, entry.name)).map((name) => path.join(entry.name, name))
			: [entry.name];
		for (const name of names) {
			if (existsSync(path.join(dir, name, 'package.json'))) count++;
			count += countUnpacked(path.join(dir, name, 'node_modules'));
		}
	}
	return count;
}

/**
 * Reads `npm install --loglevel=http`: manifests fetched while npm resolves the tree, then one
 * tarball per package it unpacks. Every line goes to npm-install.log. Warnings: each shown once,
 * except the two kinds a newcomer cannot act on, which are counted and explained in one line.
 */
export function npmInstallMonitor(
	inst: N8nInstallation,
	expectedPackages: number,
): NpmInstallMonitor {
	const logFile = path.join(inst.cacheDir, 'npm-install.log');
	writeFileSync(logFile, '');
	const manifests = new Set<string>();
	const tarballs = new Set<string>();
	let deprecated = 0;
	const badEngine = new Set<string>(); // isolated-vm: explained in the summary
	let engineBlock: string[] | null = null;
	const onLine = (line: string): void => {
		appendFileSync(logFile, line + '\n');
		// npm logs a tarball twice (cache lookup, then fetch): counted once, by address
		if (/^npm http /.test(line)) {
			const url = /(https?:\/\/\S+?)(?:\s|$)/.exec(line)?.[1];
			if (url) (/\.tgz$/.test(url) ? tarballs : manifests).add(url);
			return;
		}
		if (/^npm warn deprecated /.test(line)) return void deprecated++;
		// EBADENGINE comes as a block of lines: "Unsupported engine {", package, required, current, "}"
		if (/^npm warn EBADENGINE /.test(line)) {
			engineBlock = (engineBlock ?? []).concat(line);
			if (!/^npm warn EBADENGINE \}/.test(line)) return;
			const pkg = /package: '([^']+)'/.exec(engineBlock.join('\n'))?.[1] ?? '';
			if (/^isolated-vm@/.test(pkg)) badEngine.add(pkg);
			else for (const l of engineBlock) say(l);
			engineBlock = null;
			return;
		}
		if (/^npm (warn|error) /.test(line)) say(line);
	};
	// npm prints no count while it unpacks: the folders it has written so far are counted instead
	const status = () => {
		if (tarballs.size === 0)
			return `resolving n8n's dependency tree (${manifests.size} package manifests read)`;
		const total = lockedPackageCount(inst) ?? expectedPackages;
		const unpacked = countUnpacked(path.join(inst.cacheDir, 'node_modules'));
		return `${tarballs.size} packages downloaded, ${unpacked}${total ? ` of about ${total}` : ''} unpacked`;
	};
	const summary = () => {
		if (deprecated)
			say(
				`npm listed ${deprecated} deprecated packages deep in n8n's own dependencies (n8n's to update, nothing to do here; list in ${logFile})`,
			);
		if (badEngine.size)
			say(
				`npm warned that ${[...badEngine].join(', ')} asks for a newer Node (EBADENGINE): expected; it is never built here (--ignore-scripts) and this n8n runs without it`,
			);
	};
	return { onLine, status, summary };
}

/** The environment of npm (and node-gyp): no settings of a parent `npm run`, no notices. */
export function npmEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	const env = { ...process.env };
	for (const key of Object.keys(env)) if (/^npm_/i.test(key)) delete env[key];
	return {
		...env,
		npm_config_update_notifier: 'false',
		npm_config_fund: 'false',
		npm_config_audit: 'false',
		...extra,
	};
}

/** The install's package.json: `deps` and the profile's overrides (written only when it changes). */
export function writePackageJson(inst: N8nInstallation, deps: Record<string, string>): void {
	const pkg = {
		name: `airsign-e2e-n8n-${inst.profile.id}`,
		private: true,
		description: `Pinned real ${inst.profile.label} for the end-to-end tests (generated by e2e/install-n8n.mts)`,
		dependencies: deps,
		overrides: inst.profile.overrides,
	};
	const file = path.join(inst.cacheDir, 'package.json');
	const text = JSON.stringify(pkg, null, 2) + '\n';
	if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
}

/** Whether the install's Node binary is there and is the profile's version. */
export async function nodeWorks(inst: N8nInstallation): Promise<boolean> {
	if (!existsSync(inst.nodeBin)) return false;
	try {
		return (
			(await run(inst.nodeBin, ['-v'], { label: 'node -v' })).trim() === `v${inst.nodeVersion}`
		);
	} catch {
		return false;
	}
}

/** Whether n8n's sqlite3 add-on loads on the install's Node. */
export async function sqliteWorks(inst: N8nInstallation): Promise<boolean> {
	try {
		await run(
			inst.nodeBin,
			['-e', "const s=require('sqlite3');new s.Database(':memory:').close()"],
			{ cwd: inst.n8nDir, label: 'load sqlite3' },
		);
		return true;
	} catch {
		return false;
	}
}

/** node-gyp's script: the one npm brings (beside this Node, or the system's), else sqlite3's own. */
function findNodeGyp(sqliteFolder: string): string {
	const candidates = [
		path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm'),
		'/usr/lib/node_modules/npm',
		'/usr/share/nodejs/npm',
		sqliteFolder,
	].map((root) => path.join(root, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
	const found = candidates.find((p) => existsSync(p));
	if (!found) throw new Error(`node-gyp not found; looked in:\n  ${candidates.join('\n  ')}`);
	return found;
}

/** The sqlite3 package of the install (hoisted, or under n8n). */
export function resolveSqliteDir(inst: N8nInstallation): string {
	for (const p of [
		path.join(inst.cacheDir, 'node_modules', 'sqlite3'),
		path.join(inst.n8nDir, 'node_modules', 'sqlite3'),
	]) {
		if (existsSync(path.join(p, 'package.json'))) return p;
	}
	throw new Error(`sqlite3 is not installed under ${inst.cacheDir}/node_modules`);
}

const sqliteBuilds = new Map<string, Promise<string>>();

/**
 * sqlite3's add-on (n8n's database driver), built from source once per version in
 * .cache/sqlite3-<version>/ and shared by every n8n install: it is an N-API add-on, so one build
 * loads on Node 20 and Node 24 alike. Resolves the built file; one build per version and process,
 * however many installs ask.
 */
export function buildSqlite(version: string, cacheRoot: string): Promise<string> {
	const known = sqliteBuilds.get(version);
	if (known) return known;
	const dir = path.join(cacheRoot, `sqlite3-${version}`);
	const sqliteDir = path.join(dir, 'node_modules', 'sqlite3');
	const built = path.join(sqliteDir, 'build', 'Release', 'node_sqlite3.node');
	const marker = path.join(dir, '.ready');
	const building = (async () => {
		if (existsSync(marker) && existsSync(built)) return built;
		rmSync(marker, { force: true });
		mkdirSync(dir, { recursive: true });
		const pkg = { name: 'airsign-e2e-sqlite3', private: true, dependencies: { sqlite3: version } };
		writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
		const t0 = Date.now();
		say(`sqlite3 ${version}: building it once for every n8n install (C/C++ with node-gyp) ...`);
		await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], {
			cwd: dir,
			env: npmEnv(),
			label: `npm install sqlite3@${version}`,
		});
		let compiled = 0;
		const stop = ticker(
			`sqlite3 ${version}: building`,
			// the count stalls on one file for most of the step: SQLite itself is one large C file
			() =>
				`${compiled} of about 6 source files started (sqlite3.c, SQLite itself, is most of the work)`,
		);
		try {
			await run(
				process.execPath,
				[
					findNodeGyp(dir),
					'rebuild',
					'--release',
					`--jobs=${Math.max(1, os.availableParallelism())}`,
				],
				{
					cwd: sqliteDir,
					env: npmEnv({ npm_config_build_from_source: 'true', ...nodeHeaders() }),
					label: 'node-gyp rebuild sqlite3',
					onLine: (line) => {
						if (/^\s*(CC|CXX)\(target\)/.test(line)) compiled++;
					},
				},
			);
		} finally {
			stop();
		}
		writeFileSync(marker, version);
		say(`sqlite3 ${version}: built in ${seconds(Date.now() - t0)}`);
		return built;
	})();
	sqliteBuilds.set(version, building);
	return building;
}

/** This Node's C headers when installed beside it (/usr/include/node), else node-gyp's default. */
function nodeHeaders(): NodeJS.ProcessEnv {
	const prefix = path.resolve(path.dirname(process.execPath), '..');
	return existsSync(path.join(prefix, 'include', 'node', 'node.h'))
		? { npm_config_nodedir: prefix }
		: {};
}
