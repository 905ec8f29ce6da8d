// Where each profile's n8n is installed (.cache/<folder>/, e2e/n8n-profiles.mts), which Node runs
// it, and the environment of every n8n and npm process of the tiers.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { activeProfileId, findProfile, type N8nProfile } from './n8n-profiles.mts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '..');

export type N8nInstallation = ReturnType<typeof n8nInstallation>;

/** Where a profile's n8n lives, which Node runs it (and npm and node-gyp for it), its marker file. */
export function n8nInstallation(profileId: string = activeProfileId()) {
	const profile = findProfile(profileId);
	if (!profile) throw new Error(`no n8n profile ${profileId}`);
	const fromEnv = process.env[profile.cacheEnv];
	const cacheDir = fromEnv
		? path.resolve(fromEnv)
		: path.join(REPO_ROOT, '.cache', profile.cacheFolder);
	// the binary package beside n8n, or the Node running this script
	const nodeBin = profile.node
		? path.join(cacheDir, 'node_modules', profile.node.package, 'bin', 'node')
		: process.execPath;
	const nodeVersion = profile.node?.version ?? process.versions.node;
	const n8nDir = path.join(cacheDir, 'node_modules', 'n8n');
	return {
		profile,
		cacheDir,
		nodeBin,
		nodeBinDir: path.dirname(nodeBin),
		nodeVersion,
		n8nDir,
		n8nBin: path.join(n8nDir, 'bin', 'n8n'),
		marker: path.join(cacheDir, '.ready'),
	};
}

// The profile of this process (AIRSIGN_E2E_N8N), for the helpers in lib/.
const active = n8nInstallation();
export const PROFILE: N8nProfile = active.profile;
export const NODE_BIN: string = active.nodeBin;
export const N8N_BIN: string = active.n8nBin;

/** The marker file's text for a complete install of `inst` (a change of any part reinstalls). */
export const wantedMarker = (inst: N8nInstallation): string =>
	JSON.stringify({
		n8n: inst.profile.n8n,
		node: inst.nodeVersion,
		overrides: inst.profile.overrides,
		platform: `${process.platform}-${process.arch}`,
	});

/** PATH with the profile's Node first. */
export function nodePath(basePath: string = process.env.PATH ?? '', inst = active): string {
	return [inst.nodeBinDir, basePath].filter(Boolean).join(path.delimiter);
}

/**
 * The cached n8n's environment for `userFolder` (its database, key and packages under `.n8n`):
 * local, quiet, no telemetry; what differs between versions comes from the profile.
 */
export function n8nEnv(
	userFolder: string,
	extra: NodeJS.ProcessEnv = {},
	inst = active,
): NodeJS.ProcessEnv {
	return {
		...withoutNpmSettings(),
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
		// fixed: a credential imported by one command decrypts in the next
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
		// n8n pings its database every 2 s and answers 503 (readiness too) after one ping over 5 s:
		// beside the other tiers on a slow 2-core machine pings did, with n8n and its database fine.
		DB_PING_INTERVAL_SECONDS: '3600',
		EXECUTIONS_MODE: 'regular',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		NODE_ENV: 'production',
		...inst.profile.env,
		...extra,
	};
}

/** This environment without a parent `npm run`'s settings: not for n8n's npm, nor the tiers'. */
function withoutNpmSettings(): NodeJS.ProcessEnv {
	const env = { ...process.env };
	for (const key of Object.keys(env)) if (/^npm_/i.test(key)) delete env[key];
	return env;
}

/** The environment of npm (and node-gyp): no settings of a parent `npm run`, no notices. */
export function npmEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	return {
		...withoutNpmSettings(),
		npm_config_update_notifier: 'false',
		npm_config_fund: 'false',
		npm_config_audit: 'false',
		...extra,
	};
}

export function isInstalled(profileId: string = activeProfileId()): boolean {
	const inst = n8nInstallation(profileId);
	return (
		existsSync(inst.marker) &&
		readFileSync(inst.marker, 'utf8') === wantedMarker(inst) &&
		existsSync(inst.nodeBin) &&
		existsSync(inst.n8nBin)
	);
}
