// A local npm registry (Verdaccio) on loopback in a temporary folder: the packages a tier publishes,
// every other package passed through to the registry this machine's npm uses.
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../n8n-installation.mts';
import { PACKAGE_NAME, getFreePort } from './n8n.mts';
import { fetchFresh, runCommand, startServer } from './proc.mts';

const SOURCE_DIR = path.join(REPO_ROOT, 'e2e', 'registry');
const INSTALL_DIR = path.join(REPO_ROOT, '.cache', 'verdaccio');
const VERDACCIO = path.join(INSTALL_DIR, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const USER = { name: 'e2e-publisher', password: 'E2e-publisher-1', email: 'e2e@example.com' };

async function upstreamRegistry(): Promise<string> {
	const result = await runCommand(NPM, ['config', 'get', 'registry'], { timeoutMs: 60_000 });
	return result.stdout.trim() || 'https://registry.npmjs.org/';
}

/** Installs e2e/registry/'s Verdaccio into .cache/verdaccio, once per lockfile. */
export async function ensureVerdaccio(): Promise<void> {
	const lock = readFileSync(path.join(SOURCE_DIR, 'package-lock.json'), 'utf8');
	const marker = path.join(INSTALL_DIR, '.ready');
	if (existsSync(VERDACCIO) && existsSync(marker) && readFileSync(marker, 'utf8') === lock) return;
	rmSync(INSTALL_DIR, { recursive: true, force: true });
	mkdirSync(INSTALL_DIR, { recursive: true });
	for (const file of ['package.json', 'package-lock.json'])
		copyFileSync(path.join(SOURCE_DIR, file), path.join(INSTALL_DIR, file));
	await runCommand(NPM, ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
		cwd: INSTALL_DIR,
		timeoutMs: 600_000,
	});
	writeFileSync(marker, lock);
}

export interface Registry {
	url: string;
	port: number;
	/** A user config (`npm --userconfig`) pointing npm at the registry with the publisher's token. */
	npmrc: string;
	/** A tarball, or a package's folder. */
	publish: (tarball: string) => Promise<void>;
	output: () => string;
	stop: () => Promise<void>;
}

/** Verdaccio with a publishing user; this package is never looked up upstream. */
export async function startRegistry(): Promise<Registry> {
	await ensureVerdaccio();
	const port = await getFreePort();
	const dir = mkdtempSync(path.join(os.tmpdir(), 'airsign-registry-'));
	const url = `http://127.0.0.1:${port}/`;
	const rule = 'access: $all, publish: $authenticated';
	writeFileSync(
		path.join(dir, 'config.yaml'),
		`storage: ${path.join(dir, 'storage')}
auth: { htpasswd: { file: ${path.join(dir, 'htpasswd')} } }
uplinks: { upstream: { url: '${await upstreamRegistry()}', timeout: 120s } }
packages:
  '${PACKAGE_NAME}': { ${rule} }
  '**': { ${rule}, proxy: upstream }
web: { enable: false }
log: { type: stdout, format: pretty, level: warn }
`,
	);
	const server = await startServer(
		`registry on ${url}`,
		process.execPath,
		[VERDACCIO, '--config', path.join(dir, 'config.yaml'), '--listen', `127.0.0.1:${port}`],
		{
			dir,
			probe: async () => (await fetchFresh(`${url}-/ping`)).ok,
			timeoutMs: 120_000,
			everyMs: 150,
		},
	);
	const stop = async () => void (await server.stop(5_000));
	try {
		const res = await fetchFresh(`${url}-/user/org.couchdb.user:${USER.name}`, {
			method: 'PUT',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ _id: `org.couchdb.user:${USER.name}`, type: 'user', ...USER }),
		});
		const { token }: { token?: string } = res.ok ? await res.json() : {};
		if (!res.ok || !token) throw new Error(`registry refused the publishing user: ${res.status}`);
		const npmrc = path.join(dir, 'npmrc');
		writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);

		const publish = async (tarball: string): Promise<void> =>
			void (await runCommand(
				NPM,
				['publish', tarball, '--userconfig', npmrc, '--registry', url, '--ignore-scripts'],
				{ timeoutMs: 120_000, label: `npm publish ${path.basename(tarball)}` },
			));
		return { url, port, npmrc, publish, output: server.output, stop };
	} catch (err) {
		await stop();
		throw err;
	}
}
