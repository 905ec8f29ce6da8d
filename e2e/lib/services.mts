// PostgreSQL and Redis for the queue-mode tier (e2e/scale.mts), from Debian packages: each on a
// free loopback port with its data in a temporary folder that stop() (or this process's exit) removes.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type pgModule from 'pg';
import { cacheRequire } from './n8n.mts';
import { runCommand, startServer, type ExitStatus } from './proc.mts';

/** The newest `/usr/lib/postgresql/<version>/bin/<name>` (Debian keeps them off PATH). */
function postgresBin(name: string): string | undefined {
	const root = '/usr/lib/postgresql';
	const versions = existsSync(root)
		? readdirSync(root)
				.filter((v) => existsSync(path.join(root, v, 'bin', name)))
				.sort((a, b) => Number(b) - Number(a))
		: [];
	return versions.length ? path.join(root, versions[0], 'bin', name) : undefined;
}

const onPath = (name: string): string | undefined =>
	[...(process.env.PATH ?? '').split(path.delimiter), '/usr/bin']
		.map((dir) => path.join(dir, name))
		.find((file) => existsSync(file));

/** apt-get installs PostgreSQL, Redis and openssl (lib/registry.mts's route) where missing (as root). */
export async function ensureServerPackages({
	log = () => {},
}: { log?: (msg: string) => void } = {}): Promise<string[]> {
	const missing: string[] = [];
	if (!postgresBin('postgres') || !postgresBin('initdb')) missing.push('postgresql');
	if (!onPath('redis-server')) missing.push('redis-server');
	if (!onPath('openssl')) missing.push('openssl');
	if (!missing.length) return [];
	if (process.getuid?.() !== 0)
		throw new Error(
			`${missing.join(' and ')} not installed, and this is not root: run  sudo apt-get install -y ${missing.join(' ')}`,
		);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	log(`installing ${missing.join(', ')} (apt-get)`);
	for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...missing]])
		await runCommand('apt-get', [...args, '-o', 'DPkg::Lock::Timeout=300'], {
			env,
			timeoutMs: 900_000,
		});
	if (!postgresBin('postgres') || !onPath('redis-server') || !onPath('openssl'))
		throw new Error(`apt-get install ${missing.join(' ')} finished, but one is still missing`);
	return missing;
}

/** PostgreSQL refuses to run as root: then it runs as the `postgres` user the package created. */
function postgresUser(): { uid: number; gid: number } | { uid?: undefined; gid?: undefined } {
	if (process.getuid?.() !== 0) return {};
	const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
	return { uid: id('-u'), gid: id('-g') };
}

type QueryRow = Record<string, unknown>;
export type Postgres = Awaited<ReturnType<typeof startPostgres>>;
export type Redis = Awaited<ReturnType<typeof startRedis>>;

/**
 * A throw-away PostgreSQL (user and database `n8n`, trust authentication, no fsync: the tests never
 * kill it). `env`: n8n's DB_* variables for it; `query`: one statement's rows in database `n8n`.
 */
export async function startPostgres({
	port,
	timeoutMs = 60_000,
}: {
	port: number;
	timeoutMs?: number;
}) {
	const initdb = postgresBin('initdb');
	const postgres = postgresBin('postgres');
	if (!initdb || !postgres) throw new Error('PostgreSQL is not installed (ensureServerPackages)');
	const t0 = Date.now();
	const dir = mkdtempSync(path.join(os.tmpdir(), 'airsign-pg-'));
	const dataDir = path.join(dir, 'data');
	const user = postgresUser();
	if (user.uid !== undefined) chownSync(dir, user.uid, user.gid);
	await runCommand(
		initdb,
		['-D', dataDir, '-U', 'n8n', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
		{
			cwd: dir,
			env: { ...process.env, LC_ALL: 'C' },
			timeoutMs: 120_000,
			label: 'initdb',
			...user,
		},
	);
	const pg = cacheRequire('pg') as typeof pgModule;
	const connect = async (database: string): Promise<pgModule.Client> => {
		const client = new pg.Client({
			host: '127.0.0.1',
			port,
			user: 'n8n',
			database,
			connectionTimeoutMillis: 5_000,
		});
		await client.connect();
		return client;
	};
	const once = async (sql: string) => {
		const client = await connect('postgres');
		try {
			await client.query(sql);
			return true;
		} finally {
			await client.end();
		}
	};
	const settings = [
		'listen_addresses=127.0.0.1',
		'unix_socket_directories=',
		'fsync=off',
		'synchronous_commit=off',
		'full_page_writes=off',
	];
	// SIGINT: PostgreSQL's "fast" shutdown (disconnects clients, then stops)
	const server = await startServer(
		`postgres on 127.0.0.1:${port}`,
		postgres,
		['-D', dataDir, '-p', String(port), ...settings.flatMap((setting) => ['-c', setting])],
		{
			dir,
			signal: 'SIGINT',
			graceMs: 20_000,
			probe: () => once('select 1'),
			timeoutMs,
			everyMs: 200,
			...user,
		},
	);
	try {
		await once('create database n8n');
	} catch (error) {
		await server.stop();
		throw error;
	}
	let client: pgModule.Client | undefined;
	return {
		port,
		dir,
		startMs: Date.now() - t0,
		env: {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(port),
			DB_POSTGRESDB_DATABASE: 'n8n',
			DB_POSTGRESDB_USER: 'n8n',
			DB_POSTGRESDB_PASSWORD: '',
		},
		query: async <Row extends QueryRow = QueryRow>(sql: string, params: unknown[] = []) => {
			client ??= await connect('n8n');
			return (await client.query<Row>(sql, params)).rows;
		},
		output: server.output,
		stop: async (): Promise<ExitStatus> => {
			if (client) await client.end().catch(() => {});
			return await server.stop();
		},
	};
}

/** PING over RESP; true on +PONG. */
function redisPing(port: number): Promise<boolean> {
	return new Promise((resolve, reject) => {
		const socket = net.connect({ host: '127.0.0.1', port });
		let data = '';
		socket.setTimeout(2_000, () => socket.destroy(new Error('timeout')));
		socket.on('connect', () => socket.write('PING\r\n'));
		socket.on('data', (c: Buffer) => {
			data += c;
			if (data.includes('\r\n')) {
				socket.end();
				resolve(data.startsWith('+PONG'));
			}
		});
		socket.on('error', reject);
	});
}

/** A throw-away Redis on 127.0.0.1:<port>, no persistence. */
export async function startRedis({
	port,
	timeoutMs = 30_000,
}: {
	port: number;
	timeoutMs?: number;
}) {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'airsign-redis-'));
	const server = await startServer(
		`redis-server on 127.0.0.1:${port}`,
		onPath('redis-server') ?? 'redis-server',
		['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''].concat(
			'--appendonly no --daemonize no'.split(' '),
		),
		{ dir, graceMs: 20_000, probe: () => redisPing(port), timeoutMs, everyMs: 200 },
	);
	return {
		port,
		env: { QUEUE_BULL_REDIS_HOST: '127.0.0.1', QUEUE_BULL_REDIS_PORT: String(port) },
		...server,
	};
}
