// Installs a pinned, real n8n (and the Node it requires) into .cache/<folder>/ (git-ignored), for
// each n8n version the tier runs (e2e/n8n-profiles.mts: 2.41.3 with Node 24 in .cache/n8n,
// 1.123.81 on the Node that runs the tier in .cache/n8n-1).
//
//   npx tsx e2e/install-n8n.mts [--n8n 2|1|all] [--force]   # install or verify (fast no-op when the marker matches)
//
// Each install has its own package.json so the repository's never needs an "overrides" field (the
// n8n community-node lint rules forbid it). See e2e/README.md.
import {
	appendFileSync,
	copyFileSync,
	existsSync,
	mkdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from './lib/proc.mts';
import {
	REPO_ROOT,
	isInstalled,
	n8nEnv,
	n8nInstallation,
	nodePath,
	npmEnv,
	wantedMarker,
	type N8nInstallation,
} from './n8n-installation.mts';
import { N8N_PROFILES, activeProfileId } from './n8n-profiles.mts';

export { N8N_PROFILES };
export { PROFILE, REPO_ROOT } from './n8n-installation.mts';

/** The sqlite3 that n8n 1.123.81 and 2.41.3 both install, and where its one build lives. */
const SQLITE3_VERSION = '5.1.7';
const SQLITE_CACHE = path.join(REPO_ROOT, '.cache');
/** No install scripts run: sqlite3 is built below, and n8n needs no other. */
const NPM_INSTALL = [
	'install',
	'--legacy-peer-deps',
	'--ignore-scripts',
	'--no-audit',
	'--no-fund',
];

/** Runs a command as long as it takes; resolves the last 8000 characters of its output. */
async function run(
	cmd: string,
	args: string[],
	options: { cwd?: string; env?: NodeJS.ProcessEnv; label: string; onLine?: (l: string) => void },
): Promise<string> {
	const { stdout, stderr } = await runCommand(cmd, args, { ...options, timeoutMs: 0 });
	return (stdout + stderr).slice(-8000);
}

const say = (line: string): boolean => process.stdout.write(`[install-n8n] ${line}\n`);
export const seconds = (ms: number): string => {
	const s = Math.round(ms / 1000);
	return s < 90 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
};

/** A line every 15 s while a long step runs, so a first run on a busy machine never sits silent. */
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

/**
 * Reads `npm install --loglevel=http`: manifests fetched while npm resolves the tree, then one
 * tarball per package. Every line goes to npm-install.log; each warning is shown once, except the
 * two kinds a newcomer cannot act on, counted and explained in one line.
 */
function npmInstallMonitor(inst: N8nInstallation) {
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
	const status = () =>
		tarballs.size
			? `${tarballs.size} of about ${inst.profile.packages} packages downloaded`
			: `resolving n8n's dependency tree (${manifests.size} package manifests read)`;
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

/** The install's package.json: `deps` and the profile's overrides (written only when it changes). */
function writePackageJson(inst: N8nInstallation, deps: Record<string, string>): void {
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

/** Whether `cmd args` runs (and prints `expect`, when given). */
const works = (cmd: string, args: string[], label: string, cwd?: string, expect?: string) =>
	run(cmd, args, { cwd, label }).then(
		(out) => expect === undefined || out.trim() === expect,
		() => false,
	);
const nodeWorks = (inst: N8nInstallation) =>
	existsSync(inst.nodeBin) &&
	works(inst.nodeBin, ['-v'], 'node -v', undefined, `v${inst.nodeVersion}`);
const sqliteWorks = (inst: N8nInstallation) =>
	works(
		inst.nodeBin,
		['-e', "const s=require('sqlite3');new s.Database(':memory:').close()"],
		'load sqlite3',
		inst.n8nDir,
	);

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
function resolveSqliteDir(inst: N8nInstallation): string {
	const found = [inst.cacheDir, inst.n8nDir]
		.map((root) => path.join(root, 'node_modules', 'sqlite3'))
		.find((p) => existsSync(path.join(p, 'package.json')));
	if (!found) throw new Error(`sqlite3 is not installed under ${inst.cacheDir}/node_modules`);
	return found;
}

const sqliteBuilds = new Map<string, Promise<string>>();

/**
 * sqlite3's add-on (n8n's database driver), built from source once per version in
 * .cache/sqlite3-<version>/ and shared by every install: an N-API add-on, it loads on Node 20 and
 * 24 alike. Resolves the built file; one build per version and process, however many ask.
 */
function buildSqlite(version: string): Promise<string> {
	const known = sqliteBuilds.get(version);
	if (known) return known;
	const dir = path.join(SQLITE_CACHE, `sqlite3-${version}`);
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
		await run('npm', NPM_INSTALL, {
			cwd: dir,
			env: npmEnv(),
			label: `npm install sqlite3@${version}`,
		});
		let compiled = 0;
		// the count stalls on one file for most of the step: SQLite itself is one large C file
		const stop = ticker(
			`sqlite3 ${version}: building`,
			() =>
				`${compiled} of about 6 source files started (sqlite3.c, SQLite itself, is most of the work)`,
		);
		// this Node's C headers when installed beside it (/usr/include/node), else node-gyp's default
		const prefix = path.resolve(path.dirname(process.execPath), '..');
		const headers = existsSync(path.join(prefix, 'include', 'node', 'node.h'))
			? { npm_config_nodedir: prefix }
			: {};
		try {
			const jobs = `--jobs=${Math.max(1, os.availableParallelism())}`;
			await run(process.execPath, [findNodeGyp(dir), 'rebuild', '--release', jobs], {
				cwd: sqliteDir,
				// SQLite without optimisation: 44 s of CPU instead of 100 on a fresh clone, for the
				// few small queries the tiers make
				env: npmEnv({ npm_config_build_from_source: 'true', CFLAGS: '-O0', ...headers }),
				label: 'node-gyp rebuild sqlite3',
				onLine: (line) => void (/^\s*(CC|CXX)\(target\)/.test(line) && compiled++),
			});
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

/** Installs (or verifies) the cached n8n of a profile (default: this process's). */
export async function installN8n({
	force = false,
	profile = activeProfileId(),
}: { force?: boolean; profile?: string } = {}): Promise<{
	cacheDir: string;
	skipped: boolean;
	profile: string;
}> {
	const inst = n8nInstallation(profile);
	const { label } = inst.profile;
	const t0 = Date.now();
	const relative = path.relative(process.cwd(), inst.cacheDir);
	const where = relative && !relative.startsWith('..') ? relative : inst.cacheDir;
	if (!force && isInstalled(profile)) {
		say(`${label} on Node ${inst.nodeVersion} already installed in ${where}`);
		return { cacheDir: inst.cacheDir, skipped: true, profile };
	}
	mkdirSync(inst.cacheDir, { recursive: true });
	rmSync(inst.marker, { force: true });
	const pinnedNode = inst.profile.node;
	const nodeDep = pinnedNode ? { [pinnedNode.package]: pinnedNode.version } : {};
	const total = pinnedNode ? 4 : 3;
	let number = 0;
	/** One numbered step, with a line before, one with its time after, and `tick`'s lines between. */
	const next = async <T,>(name: string, fn: () => Promise<T>, tick?: () => string) => {
		const n = ++number;
		const t1 = Date.now();
		say(`step ${n} of ${total}: ${label}: ${name} ...`);
		const stop = tick ? ticker(`${label}: ${name}`, tick) : () => {};
		const result = await fn().finally(stop);
		say(`step ${n} of ${total} done in ${seconds(Date.now() - t1)}: ${label}: ${name}`);
		return result;
	};
	say(
		`installing ${label} into ${where} (once; the first time takes minutes: ${total} steps, each reported, npm's full output in ${path.join(where, 'npm-install.log')})`,
	);
	// sqlite3's compile (minutes of C) runs while npm fetches n8n; step 3 awaits it, or builds the
	// version npm installed if it is another
	buildSqlite(SQLITE3_VERSION).catch(() => {});

	// 1. A pinned Node alone (scripts off), so that npm can then install n8n running on it.
	if (pinnedNode) {
		if (force || !(await nodeWorks(inst))) {
			await next(
				`install Node ${inst.nodeVersion} (the registry package ${pinnedNode.package})`,
				async () => {
					writePackageJson(inst, nodeDep);
					await run('npm', NPM_INSTALL, {
						cwd: inst.cacheDir,
						env: npmEnv(),
						label: `npm install ${pinnedNode.package}`,
					});
					if (!(await nodeWorks(inst)))
						throw new Error(`${inst.nodeBin} is not Node ${inst.nodeVersion}`);
				},
				() => '',
			);
		} else say(`step ${++number} of ${total}: Node ${inst.nodeVersion} present`);
	}

	// 2. n8n with its Node first on PATH (npm itself then runs on it). Rerunning is safe: npm
	// reconciles node_modules with package.json + package-lock.json.
	const npm = npmInstallMonitor(inst);
	await next(
		`install n8n@${inst.profile.n8n} (npm install --legacy-peer-deps --ignore-scripts)`,
		async () => {
			writePackageJson(inst, { n8n: inst.profile.n8n, ...nodeDep });
			const out = await run('npm', [...NPM_INSTALL, '--loglevel=http'], {
				cwd: inst.cacheDir,
				env: npmEnv({ PATH: nodePath(process.env.PATH, inst) }),
				label: 'npm install n8n',
				onLine: npm.onLine,
			});
			npm.summary();
			const added = /^(added|changed|up to date).*$/m.exec(out)?.[0];
			if (added) say(`npm: ${added}`);
			if (!existsSync(inst.n8nBin)) throw new Error(`${inst.n8nBin} missing after npm install`);
		},
		npm.status,
	);

	// 3. sqlite3's add-on, built once for every install (buildSqlite) and copied in.
	if (force || !(await sqliteWorks(inst))) {
		await next(
			`sqlite3, n8n's database driver: its add-on, built once for every install`,
			async () => {
				const sqliteDir = resolveSqliteDir(inst);
				const { version } = JSON.parse(readFileSync(path.join(sqliteDir, 'package.json'), 'utf8'));
				const built = await buildSqlite(version);
				mkdirSync(path.join(sqliteDir, 'build', 'Release'), { recursive: true });
				copyFileSync(built, path.join(sqliteDir, 'build', 'Release', 'node_sqlite3.node'));
				if (!(await sqliteWorks(inst)))
					throw new Error(`sqlite3 ${version} does not load on Node ${inst.nodeVersion}`);
			},
		);
	} else say(`step ${++number} of ${total}: sqlite3 loads on Node ${inst.nodeVersion}`);

	// 4. Smoke: the n8n CLI answers.
	const version = await next('n8n --version answers', async () =>
		(
			await run(inst.nodeBin, [inst.n8nBin, '--version'], {
				env: n8nEnv(path.join(inst.cacheDir, '.version-check'), {}, inst),
				label: 'n8n --version',
			})
		).trim(),
	);
	if (!version.split('\n').some((l) => l.trim() === inst.profile.n8n))
		throw new Error(
			`n8n --version printed ${JSON.stringify(version)}, expected ${inst.profile.n8n}`,
		);

	writeFileSync(inst.marker, wantedMarker(inst));
	say(`${label} ready in ${seconds(Date.now() - t0)}`);
	return { cacheDir: inst.cacheDir, skipped: false, profile };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const arg = process.argv.includes('--n8n')
		? process.argv[process.argv.indexOf('--n8n') + 1]
		: activeProfileId();
	const force = process.argv.includes('--force');
	try {
		for (const profile of arg === 'all' ? Object.keys(N8N_PROFILES) : [arg])
			await installN8n({ force, profile });
	} catch (err) {
		process.stderr.write(`[install-n8n] FAILED: ${err.stack ?? err}\n`);
		process.exit(1);
	}
}
