// @ts-nocheck (typed file by file: issue 34)
// Installs a pinned, real n8n (and the Node it requires) into .cache/<folder>/ (git-ignored), for
// each n8n version the tier runs (e2e/n8n-profiles.mts: 2.41.3 with Node 24 in .cache/n8n,
// 1.123.81 on the Node that runs the tier in .cache/n8n-1).
//
//   npx tsx e2e/install-n8n.mts [--n8n 2|1|all] [--force]   # install or verify (fast no-op when the marker matches)
//
// Plain Node ESM, no dependencies: runs on the system Node 20. See e2e/README.md.
// Each install lives in its own package.json so the repository's package.json never needs an
// "overrides" field (the n8n community-node lint rules forbid it).
import { spawn } from 'node:child_process';
import {
	appendFileSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { N8N_PROFILES, activeProfileId } from './n8n-profiles.mts';

export { N8N_PROFILES, activeProfileId };

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '..');

/**
 * Where a profile's n8n lives and which Node runs it: { profile, cacheDir, nodeBin, nodeBinDir,
 * nodeHeadersDir, nodeVersion, n8nDir, n8nBin, marker }.
 */
export function n8nInstallation(profileId = activeProfileId()) {
	const profile = N8N_PROFILES[profileId];
	if (!profile) throw new Error(`no n8n profile ${profileId}`);
	const fromEnv = process.env[profile.cacheEnv];
	const cacheDir = fromEnv
		? path.resolve(fromEnv)
		: path.join(REPO_ROOT, '.cache', profile.cacheFolder);
	let nodeBin;
	let nodeHeadersDir;
	let nodeVersion;
	if (profile.node) {
		// the binary package beside n8n (the binary and its C headers)
		nodeHeadersDir = path.join(cacheDir, 'node_modules', profile.node.package);
		nodeBin = path.join(nodeHeadersDir, 'bin', 'node');
		nodeVersion = profile.node.version;
	} else {
		// the Node running this script; its headers, when installed beside it (/usr/include/node for
		// /usr/bin/node, and in Node's release tarballs), else node-gyp fetches them
		nodeBin = process.execPath;
		const prefix = path.resolve(path.dirname(process.execPath), '..');
		if (existsSync(path.join(prefix, 'include', 'node', 'node.h'))) nodeHeadersDir = prefix;
		nodeVersion = process.versions.node;
	}
	const n8nDir = path.join(cacheDir, 'node_modules', 'n8n');
	return {
		profile,
		cacheDir,
		nodeBin,
		nodeBinDir: path.dirname(nodeBin),
		nodeHeadersDir,
		nodeVersion,
		n8nDir,
		n8nBin: path.join(n8nDir, 'bin', 'n8n'),
		marker: path.join(cacheDir, '.ready'),
	};
}

// The profile of this process (AIRSIGN_E2E_N8N), for the helpers in lib/.
const active = n8nInstallation();
export const PROFILE = active.profile;
export const CACHE_DIR = active.cacheDir;
export const NODE_BIN = active.nodeBin;
export const N8N_DIR = active.n8nDir;
export const N8N_BIN = active.n8nBin;

const wantedMarker = (inst) =>
	JSON.stringify({
		n8n: inst.profile.n8n,
		node: inst.nodeVersion,
		overrides: inst.profile.overrides,
		platform: `${process.platform}-${process.arch}`,
	});

/** PATH with the profile's Node first. */
export function nodePath(basePath = process.env.PATH ?? '', inst = active) {
	return [inst.nodeBinDir, basePath].filter(Boolean).join(path.delimiter);
}

/**
 * Environment for running the cached n8n against `userFolder` (n8n keeps its SQLite database,
 * encryption key and community packages under `$userFolder/.n8n`): local, quiet, no telemetry.
 * What differs between n8n versions comes from the profile (e2e/n8n-profiles.mts).
 */
export function n8nEnv(userFolder, extra = {}, inst = active) {
	const env = { ...process.env };
	// npm settings inherited from a parent `npm run` must not leak into n8n (its community-package
	// installer shells out to npm).
	for (const key of Object.keys(env)) if (/^npm_/i.test(key)) delete env[key];
	return {
		...env,
		PATH: nodePath(process.env.PATH, inst),
		N8N_USER_FOLDER: userFolder,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		// Fixed key: credentials imported by one command decrypt in the next (n8n otherwise
		// generates one into $N8N_USER_FOLDER/.n8n/config on first start).
		N8N_ENCRYPTION_KEY: 'airsign-e2e-only-not-a-secret',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_COMMUNITY_PACKAGES_PREVENT_LOADING: 'false',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_AI_ENABLED: 'false',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_SECURE_COOKIE: 'false',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
		N8N_LOG_LEVEL: 'warn',
		N8N_LOG_OUTPUT: 'console',
		N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
		DB_TYPE: 'sqlite',
		EXECUTIONS_MODE: 'regular',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		NODE_ENV: 'production',
		...inst.profile.env,
		...extra,
	};
}

function run(cmd, args, { cwd, env, label, onLine }) {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let tail = '';
		const partial = { stdout: '', stderr: '' };
		const keep = (name) => (chunk) => {
			tail = (tail + chunk.toString()).slice(-8000);
			if (!onLine) return;
			const lines = (partial[name] + chunk.toString()).split('\n');
			partial[name] = lines.pop();
			for (const line of lines) onLine(line);
		};
		child.stdout.on('data', keep('stdout'));
		child.stderr.on('data', keep('stderr'));
		child.on('error', reject);
		child.on('close', (code, signal) => {
			if (onLine) for (const rest of Object.values(partial)) if (rest) onLine(rest);
			if (code === 0) resolve(tail);
			else
				reject(
					new Error(
						`${label ?? cmd} failed (${code === null ? `killed by signal ${signal}` : `exit ${code}`}):\n${tail}`,
					),
				);
		});
	});
}

const say = (line) => process.stdout.write(`[install-n8n] ${line}\n`);
export const seconds = (ms) => {
	const s = Math.round(ms / 1000);
	return s < 90 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
};

/**
 * A line every 15 s while a long step runs (its label, time so far and status()), so that a first
 * run on a busy machine never sits silent for minutes.
 */
export function ticker(label, status = () => '', { everyMs = 15_000, print = say } = {}) {
	const t0 = Date.now();
	const timer = setInterval(() => {
		const detail = status();
		print(`${label}: ${seconds(Date.now() - t0)} so far${detail ? `, ${detail}` : ''}`);
	}, everyMs);
	timer.unref();
	return () => clearInterval(timer);
}

async function step(number, total, name, fn) {
	const t0 = Date.now();
	say(`step ${number} of ${total}: ${name} ...`);
	const result = await fn();
	say(`step ${number} of ${total} done in ${seconds(Date.now() - t0)}: ${name}`);
	return result;
}

/** Packages in an earlier install of this n8n's lock file (a retry knows its total), if any. */
function lockedPackageCount(inst) {
	try {
		const lock = JSON.parse(readFileSync(path.join(inst.cacheDir, 'package-lock.json'), 'utf8'));
		if (lock.packages?.['node_modules/n8n']?.version !== inst.profile.n8n) return undefined;
		return Object.entries(lock.packages).filter(
			([key, v]) => key.includes('node_modules/') && !v.link,
		).length;
	} catch {
		return undefined;
	}
}

/** Packages unpacked so far: folders with a package.json in node_modules, nested ones too. */
function countUnpacked(dir) {
	let count = 0;
	let entries;
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
function npmInstallMonitor(inst, expectedPackages) {
	const logFile = path.join(inst.cacheDir, 'npm-install.log');
	writeFileSync(logFile, '');
	const manifests = new Set();
	const tarballs = new Set();
	let deprecated = 0;
	const badEngine = new Set(); // isolated-vm: explained in the summary
	let engineBlock = null;
	const onLine = (line) => {
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

function npmEnv(extra = {}) {
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

function writePackageJson(inst, deps) {
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

async function nodeWorks(inst) {
	if (!existsSync(inst.nodeBin)) return false;
	try {
		return (
			(await run(inst.nodeBin, ['-v'], { label: 'node -v' })).trim() === `v${inst.nodeVersion}`
		);
	} catch {
		return false;
	}
}

async function sqliteWorks(inst) {
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

function findNodeGyp(inst) {
	const candidates = [
		path.join(inst.cacheDir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
		path.join(inst.n8nDir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
		path.join(
			path.dirname(process.execPath),
			'..',
			'lib',
			'node_modules',
			'npm',
			'node_modules',
			'node-gyp',
			'bin',
			'node-gyp.js',
		),
		'/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
		'/usr/share/nodejs/npm/node_modules/node-gyp/bin/node-gyp.js',
	];
	const found = candidates.find((p) => existsSync(p));
	if (!found) throw new Error(`node-gyp not found; looked in:\n  ${candidates.join('\n  ')}`);
	return found;
}

function resolveSqliteDir(inst) {
	for (const p of [
		path.join(inst.cacheDir, 'node_modules', 'sqlite3'),
		path.join(inst.n8nDir, 'node_modules', 'sqlite3'),
	]) {
		if (existsSync(path.join(p, 'package.json'))) return p;
	}
	throw new Error(`sqlite3 is not installed under ${inst.cacheDir}/node_modules`);
}

export function isInstalled(profileId = activeProfileId()) {
	const inst = n8nInstallation(profileId);
	return (
		existsSync(inst.marker) &&
		readFileSync(inst.marker, 'utf8') === wantedMarker(inst) &&
		existsSync(inst.nodeBin) &&
		existsSync(inst.n8nBin)
	);
}

/**
 * Installs (or verifies) the cached n8n of a profile (default: this process's). Returns
 * { node, n8nBin, cacheDir, skipped, profile }.
 */
export async function installN8n({ force = false, profile = activeProfileId() } = {}) {
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
	const next = (name, fn) => step(++number, total, `${label}: ${name}`, fn);
	say(
		`installing ${label} into ${where} (once; the first time takes minutes: ${total} steps, each reported, npm's full output in ${path.join(where, 'npm-install.log')})`,
	);

	// 1. A pinned Node alone (scripts off), so that npm can then install n8n running on it.
	if (inst.profile.node) {
		if (force || !(await nodeWorks(inst))) {
			await next(
				`install Node ${inst.nodeVersion} (the registry package ${inst.profile.node.package})`,
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
								label: `npm install ${inst.profile.node.package}`,
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
			let out;
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

	// 3. sqlite3 native add-on against the headers of the Node that runs n8n (the user .npmrc may
	// set another nodedir, so npm_config_nodedir is set explicitly when the headers are known).
	if (force || !(await sqliteWorks(inst))) {
		await next(
			`build sqlite3, n8n's database driver, against Node ${inst.nodeVersion} (C/C++ with node-gyp; about a minute on two idle cores)`,
			async () => {
				const sqliteDir = resolveSqliteDir(inst);
				const nodeGyp = findNodeGyp(inst);
				let compiled = 0;
				const stop = ticker(
					`${label}: building sqlite3`,
					// the count stalls on one file for most of the step: SQLite itself is one large C file
					() =>
						`${compiled} of about 6 source files started (sqlite3.c, SQLite itself, is most of the work)`,
				);
				try {
					await run(
						inst.nodeBin,
						[nodeGyp, 'rebuild', '--release', `--jobs=${Math.max(1, os.availableParallelism())}`],
						{
							cwd: sqliteDir,
							env: npmEnv({
								PATH: nodePath(process.env.PATH, inst),
								...(inst.nodeHeadersDir && { npm_config_nodedir: inst.nodeHeadersDir }),
								npm_config_build_from_source: 'true',
							}),
							label: 'node-gyp rebuild sqlite3',
							onLine: (line) => {
								if (/^\s*(CC|CXX)\(target\)/.test(line)) compiled++;
							},
						},
					);
				} finally {
					stop();
				}
				if (!(await sqliteWorks(inst)))
					throw new Error(
						`sqlite3 still does not load on Node ${inst.nodeVersion} after the rebuild`,
					);
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
