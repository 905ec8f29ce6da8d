#!/usr/bin/env node
// Installs a pinned, real n8n (and the Node it requires) into .cache/<folder>/ (git-ignored), for
// each n8n version the tier runs (e2e/n8n-profiles.mjs: 2.41.3 with Node 24 in .cache/n8n,
// 1.123.81 on the Node that runs the tier in .cache/n8n-1).
//
//   node e2e/install-n8n.mjs [--n8n 2|1|all] [--force]   # install or verify (fast no-op when the marker matches)
//
// Plain Node ESM, no dependencies: runs on the system Node 20. See e2e/README.md.
// Each install lives in its own package.json so the repository's package.json never needs an
// "overrides" field (the n8n community-node lint rules forbid it).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { N8N_PROFILES, activeProfileId } from './n8n-profiles.mjs';

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
 * What differs between n8n versions comes from the profile (e2e/n8n-profiles.mjs).
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

function run(cmd, args, { cwd, env, label }) {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let tail = '';
		const keep = (chunk) => {
			tail = (tail + chunk.toString()).slice(-8000);
		};
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		child.on('error', reject);
		child.on('close', (code, signal) => {
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

async function step(name, fn) {
	const t0 = Date.now();
	process.stdout.write(`[install-n8n] ${name} ...\n`);
	const result = await fn();
	process.stdout.write(`[install-n8n] ${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
	return result;
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
		description: `Pinned real ${inst.profile.label} for the end-to-end tests (generated by e2e/install-n8n.mjs)`,
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
	const where = path.relative(process.cwd(), inst.cacheDir) || inst.cacheDir;
	const result = { node: inst.nodeBin, n8nBin: inst.n8nBin, cacheDir: inst.cacheDir, profile };
	if (!force && isInstalled(profile)) {
		process.stdout.write(
			`[install-n8n] ${label} on Node ${inst.nodeVersion} already installed in ${where}\n`,
		);
		return { ...result, skipped: true };
	}
	mkdirSync(inst.cacheDir, { recursive: true });
	rmSync(inst.marker, { force: true });
	const nodeDep = inst.profile.node
		? { [inst.profile.node.package]: inst.profile.node.version }
		: {};

	// 1. A pinned Node alone (scripts off), so that npm can then install n8n running on it.
	if (inst.profile.node) {
		if (force || !(await nodeWorks(inst))) {
			await step(`install ${inst.profile.node.package}@${inst.nodeVersion}`, async () => {
				writePackageJson(inst, nodeDep);
				await run(
					'npm',
					['install', '--ignore-scripts', '--no-audit', '--no-fund', '--legacy-peer-deps'],
					{ cwd: inst.cacheDir, env: npmEnv(), label: `npm install ${inst.profile.node.package}` },
				);
				if (!(await nodeWorks(inst)))
					throw new Error(`${inst.nodeBin} is not Node ${inst.nodeVersion}`);
			});
		} else process.stdout.write(`[install-n8n] Node ${inst.nodeVersion} present\n`);
	}

	// 2. n8n with its Node first on PATH (npm itself then runs on it). Rerunning is safe:
	// npm reconciles node_modules with package.json + package-lock.json.
	await step(
		`install n8n@${inst.profile.n8n} (npm install --legacy-peer-deps --ignore-scripts)`,
		async () => {
			writePackageJson(inst, { n8n: inst.profile.n8n, ...nodeDep });
			await run(
				'npm',
				['install', '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund'],
				{
					cwd: inst.cacheDir,
					env: npmEnv({ PATH: nodePath(process.env.PATH, inst) }),
					label: 'npm install n8n',
				},
			);
			if (!existsSync(inst.n8nBin)) throw new Error(`${inst.n8nBin} missing after npm install`);
		},
	);

	// 3. sqlite3 native add-on against the headers of the Node that runs n8n (the user .npmrc may
	// set another nodedir, so npm_config_nodedir is set explicitly when the headers are known).
	if (force || !(await sqliteWorks(inst))) {
		await step(`rebuild sqlite3 against Node ${inst.nodeVersion} headers (node-gyp)`, async () => {
			const sqliteDir = resolveSqliteDir(inst);
			const nodeGyp = findNodeGyp(inst);
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
				},
			);
			if (!(await sqliteWorks(inst)))
				throw new Error(
					`sqlite3 still does not load on Node ${inst.nodeVersion} after the rebuild`,
				);
		});
	} else process.stdout.write(`[install-n8n] sqlite3 loads on Node ${inst.nodeVersion}\n`);

	// 4. Smoke: the n8n CLI answers.
	const version = await step('n8n --version', async () =>
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
	process.stdout.write(
		`[install-n8n] ${label} ready in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`,
	);
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
