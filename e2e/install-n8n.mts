// Installs a pinned, real n8n (and the Node it requires) into .cache/<folder>/ (git-ignored), for
// each n8n version the tier runs (e2e/n8n-profiles.mts: 2.41.3 with Node 24 in .cache/n8n,
// 1.123.81 on the Node that runs the tier in .cache/n8n-1).
//
//   npx tsx e2e/install-n8n.mts [--n8n 2|1|all] [--force]   # install or verify (fast no-op when the marker matches)
//
// TypeScript run by tsx, no other dependency: runs on the system Node 20. See e2e/README.md.
// Each install lives in its own package.json so the repository's package.json never needs an
// "overrides" field (the n8n community-node lint rules forbid it).
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
	REPO_ROOT,
	isInstalled,
	n8nEnv,
	n8nInstallation,
	nodePath,
	wantedMarker,
} from './n8n-installation.mts';
import {
	buildSqlite,
	npmEnv,
	npmInstallMonitor,
	nodeWorks,
	resolveSqliteDir,
	run,
	say,
	seconds,
	sqliteWorks,
	step,
	ticker,
	writePackageJson,
} from './install-n8n-tools.mts';
import { N8N_PROFILES, activeProfileId } from './n8n-profiles.mts';

export { N8N_PROFILES, activeProfileId };
export type { N8nProfile, N8nProfileId } from './n8n-profiles.mts';
export {
	CACHE_DIR,
	N8N_BIN,
	N8N_DIR,
	NODE_BIN,
	PROFILE,
	REPO_ROOT,
	isInstalled,
	n8nEnv,
	n8nInstallation,
	nodePath,
} from './n8n-installation.mts';
export type { N8nInstallation } from './n8n-installation.mts';
export { seconds, ticker } from './install-n8n-tools.mts';

/** The sqlite3 that n8n 1.123.81 and 2.41.3 both install, and where its one build lives. */
const SQLITE3_VERSION = '5.1.7';
const SQLITE_CACHE = path.join(REPO_ROOT, '.cache');

/** What installN8n resolves: where the profile's n8n is, and whether it was there already. */
export interface InstallResult {
	node: string;
	n8nBin: string;
	cacheDir: string;
	skipped: boolean;
	profile: string;
}

/**
 * Installs (or verifies) the cached n8n of a profile (default: this process's). Returns
 * { node, n8nBin, cacheDir, skipped, profile }.
 */
export async function installN8n({
	force = false,
	profile = activeProfileId(),
}: { force?: boolean; profile?: string } = {}): Promise<InstallResult> {
	const inst = n8nInstallation(profile);
	const { label } = inst.profile;
	const t0 = Date.now();
	const relative = path.relative(process.cwd(), inst.cacheDir);
	const where = relative && !relative.startsWith('..') ? relative : inst.cacheDir;
	const result = { node: inst.nodeBin, n8nBin: inst.n8nBin, cacheDir: inst.cacheDir, profile };
	if (!force && isInstalled(profile)) {
		say(`${label} on Node ${inst.nodeVersion} already installed in ${where}`);
		return { ...result, skipped: true };
	}
	mkdirSync(inst.cacheDir, { recursive: true });
	rmSync(inst.marker, { force: true });
	const nodeDep = inst.profile.node
		? { [inst.profile.node.package]: inst.profile.node.version }
		: {};
	const total = inst.profile.node ? 4 : 3;
	let number = 0;
	const next = <T,>(name: string, fn: () => Promise<T>): Promise<T> =>
		step(++number, total, `${label}: ${name}`, fn);
	say(
		`installing ${label} into ${where} (once; the first time takes minutes: ${total} steps, each reported, npm's full output in ${path.join(where, 'npm-install.log')})`,
	);
	// sqlite3's compile (minutes of C) runs while npm fetches n8n; step 3 awaits it, or builds the
	// version npm installed if it is another
	buildSqlite(SQLITE3_VERSION, SQLITE_CACHE).catch(() => {});

	// 1. A pinned Node alone (scripts off), so that npm can then install n8n running on it.
	const pinnedNode = inst.profile.node;
	if (pinnedNode) {
		if (force || !(await nodeWorks(inst))) {
			await next(
				`install Node ${inst.nodeVersion} (the registry package ${pinnedNode.package})`,
				async () => {
					writePackageJson(inst, nodeDep);
					const stop = ticker(`${label}: installing Node ${inst.nodeVersion}`);
					try {
						await run(
							'npm',
							['install', '--ignore-scripts', '--no-audit', '--no-fund', '--legacy-peer-deps'],
							{
								cwd: inst.cacheDir,
								env: npmEnv(),
								label: `npm install ${pinnedNode.package}`,
							},
						);
					} finally {
						stop();
					}
					if (!(await nodeWorks(inst)))
						throw new Error(`${inst.nodeBin} is not Node ${inst.nodeVersion}`);
				},
			);
		} else say(`step ${++number} of ${total}: Node ${inst.nodeVersion} present`);
	}

	// 2. n8n with its Node first on PATH (npm itself then runs on it). Rerunning is safe:
	// npm reconciles node_modules with package.json + package-lock.json.
	await next(
		`install n8n@${inst.profile.n8n} (npm install --legacy-peer-deps --ignore-scripts)`,
		async () => {
			writePackageJson(inst, { n8n: inst.profile.n8n, ...nodeDep });
			const npm = npmInstallMonitor(inst, inst.profile.packages);
			const stop = ticker(`${label}: npm install n8n`, npm.status);
			let out: string;
			try {
				out = await run(
					'npm',
					[
						'install',
						'--legacy-peer-deps',
						'--ignore-scripts',
						'--no-audit',
						'--no-fund',
						'--loglevel=http',
					],
					{
						cwd: inst.cacheDir,
						env: npmEnv({ PATH: nodePath(process.env.PATH, inst) }),
						label: 'npm install n8n',
						onLine: npm.onLine,
					},
				);
			} finally {
				stop();
			}
			npm.summary();
			const added = /^(added|changed|up to date).*$/m.exec(out)?.[0];
			if (added) say(`npm: ${added}`);
			if (!existsSync(inst.n8nBin)) throw new Error(`${inst.n8nBin} missing after npm install`);
		},
	);

	// 3. sqlite3's add-on, built once for every install (buildSqlite) and copied in.
	if (force || !(await sqliteWorks(inst))) {
		await next(
			`sqlite3, n8n's database driver: its add-on, built once for every install`,
			async () => {
				const sqliteDir = resolveSqliteDir(inst);
				const { version } = JSON.parse(readFileSync(path.join(sqliteDir, 'package.json'), 'utf8'));
				const built = await buildSqlite(version, SQLITE_CACHE);
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
	return { ...result, skipped: false };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const arg = process.argv.includes('--n8n')
		? process.argv[process.argv.indexOf('--n8n') + 1]
		: activeProfileId();
	const profiles = arg === 'all' ? Object.keys(N8N_PROFILES) : [arg];
	(async () => {
		for (const profile of profiles)
			await installN8n({ force: process.argv.includes('--force'), profile });
	})().catch((err) => {
		process.stderr.write(`[install-n8n] FAILED: ${err.stack ?? err}\n`);
		process.exit(1);
	});
}
