// A local npm registry (Verdaccio) on loopback in a temporary folder: the packages a tier publishes,
// every other package passed through to the registry this machine's npm uses. n8n without an
// Enterprise licence installs from registry.npmjs.org only: routeNpmjsTo gives its npm and HTTP
// client an HTTPS proxy (a certificate made for the run) that forwards there to the local registry;
// nothing else is reachable through it.
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
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

/** Verdaccio with a publishing user; this package is never looked up upstream. */
export async function startRegistry() {
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

		// a tarball, or a package's folder
		const publish = async (tarball: string): Promise<void> =>
			void (await runCommand(
				NPM,
				['publish', tarball, '--userconfig', npmrc, '--registry', url, '--ignore-scripts'],
				{ timeoutMs: 120_000, label: `npm publish ${path.basename(tarball)}` },
			));
		return { url, publish, output: server.output, stop };
	} catch (err) {
		await stop();
		throw err;
	}
}

const host = 'registry.npmjs.org';

/** One request that went through the route; `status` is the registry's, or `error: …`. */
type RoutedRequest = { method: string; path: string; status: number | string | undefined };

export type NpmjsRoute = Awaited<ReturnType<typeof routeNpmjsTo>>;

/** Whether n8n's npm fetched `name@version`'s tarball through the route (304: from its cache). */
export function tarballFetched(route: NpmjsRoute, name: string, version: string): boolean {
	return route
		.requests()
		.some(
			(r) => r.path.endsWith(`/${name}-${version}.tgz`) && (r.status === 200 || r.status === 304),
		);
}

/** Starts the proxy that routes registry.npmjs.org to `registryUrl`. */
export async function routeNpmjsTo(registryUrl: string) {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'airsign-npmjs-route-'));
	const target = new URL(registryUrl);
	const seen: RoutedRequest[] = [];
	const refusedHosts: string[] = [];
	// tunnels leave the HTTP server's bookkeeping: closed by stop() themselves
	const tunnels = new Set<Duplex>();
	try {
		// self-signed, an EC key: quick on a loaded machine
		const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
		await runCommand(
			'openssl',
			[
				...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'],
				...['-nodes', '-days', '2', '-keyout', key, '-out', cert],
				...['-subj', `/CN=${host}`, '-addext', `subjectAltName=DNS:${host}`],
			],
			{ timeoutMs: 60_000, label: 'openssl req (certificate for the registry route)' },
		);
		// Never listens: CONNECT tunnels for `host` are handed to it, TLS is ended here.
		const tls = https.createServer(
			{ key: readFileSync(key), cert: readFileSync(cert) },
			(req, res) => {
				const entry: RoutedRequest = { method: req.method!, path: req.url!, status: undefined };
				seen.push(entry);
				// Verdaccio writes tarball URLs from Host and X-Forwarded-Proto: they stay on this route.
				const upstream = http.request(
					{
						hostname: target.hostname,
						port: target.port,
						method: req.method,
						path: req.url,
						headers: { ...req.headers, host, 'x-forwarded-proto': 'https' },
					},
					(up) => {
						entry.status = up.statusCode;
						res.writeHead(up.statusCode as number, up.headers);
						up.pipe(res);
					},
				);
				upstream.on('error', (err) => {
					entry.status = `error: ${err.message}`;
					res.destroy(err);
				});
				req.pipe(upstream);
			},
		);
		const proxy = http.createServer((req, res) => {
			refusedHosts.push(`plain ${req.method} ${req.url}`);
			res.writeHead(403).end('only CONNECT to ' + host);
		});
		proxy.on('connect', (req, socket, head) => {
			// host:port
			const authority = req.url as string;
			const [name, port] = authority.split(':');
			if (name !== host || port !== '443') {
				refusedHosts.push(authority);
				socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
				return;
			}
			tunnels.add(socket);
			socket.on('close', () => tunnels.delete(socket));
			socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			if (head.length) socket.unshift(head);
			tls.emit('connection', socket);
		});
		await new Promise<void>((resolve, reject) => {
			proxy.once('error', reject);
			proxy.listen(0, '127.0.0.1', resolve);
		});
		const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
		// the certificates trusted so far plus this one (node reads NODE_EXTRA_CA_CERTS at start)
		const bundle = path.join(dir, 'extra-ca.pem');
		const inherited = process.env.NODE_EXTRA_CA_CERTS;
		writeFileSync(
			bundle,
			(inherited && existsSync(inherited) ? readFileSync(inherited, 'utf8') + '\n' : '') +
				readFileSync(cert, 'utf8'),
		);
		const stop = async () => {
			for (const socket of tunnels) socket.destroy();
			proxy.closeAllConnections();
			await new Promise<void>((resolve) => proxy.close(() => resolve()));
			rmSync(dir, { recursive: true, force: true });
		};
		const npmConfig = { https_proxy: proxyUrl, cafile: cert, cache: path.join(dir, 'npm-cache') };
		return {
			// npm_config_https_proxy, _cafile, _cache (of its own: no packument of an earlier run)
			env: {
				...Object.fromEntries(Object.entries(npmConfig).map(([k, v]) => [`npm_config_${k}`, v])),
				NODE_EXTRA_CA_CERTS: bundle,
			},
			// the same npm settings as .npmrc lines, for an npm run with a stripped environment
			npmrc: Object.entries(npmConfig)
				.map(([k, v]) => `${k.replace('_', '-')}=${v}\n`)
				.join(''),
			requests: () => seen.map((r) => ({ ...r })),
			refused: () => [...refusedHosts], // the other hosts asked for
			stop,
		};
	} catch (err) {
		rmSync(dir, { recursive: true, force: true });
		throw err;
	}
}
