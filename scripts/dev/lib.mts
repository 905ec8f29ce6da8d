// What the parts of `npm run dev` (scripts/dev.mts) share: its command line (a bad option ends the
// process at once) and the paths and ports that follow, console lines and numbered stages, timed
// steps, hashes, the state file that records what was installed and imported, port checks.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { REPO_ROOT, seconds, ticker } from '../../e2e/install-n8n.mts';
import { DEV_OWNER } from '../../e2e/lib/fixtures.mts';

const argv = process.argv.slice(2);
export const flag = (name: string): boolean => argv.includes(name);
function option<F extends string | undefined>(
	name: string,
	envName: string | undefined,
	fallback: F,
): string | F {
	const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
	if (i >= 0) return argv[i].includes('=') ? argv[i].slice(name.length + 1) : argv[i + 1];
	return (envName && process.env[envName]) || fallback;
}
function portOption(name: string, envName: string, fallback: number): number {
	const raw = option(name, envName, String(fallback));
	const port = Number(raw);
	if (!Number.isInteger(port) || port < 1 || port > 65535)
		fail(`${name}: not a port number: ${raw}`);
	return port;
}
export function fail(message: string): never {
	console.error(`[dev] ${message}`);
	process.exit(1);
}

export const smoke = flag('--smoke') || /^(1|true|yes)$/i.test(process.env.AIRSIGN_DEV_SMOKE ?? '');
export const verbose = flag('--verbose');
export const n8nPort = portOption('--port', 'AIRSIGN_DEV_N8N_PORT', 5678);
export const sandboxPort = portOption('--sandbox-port', 'AIRSIGN_SANDBOX_PORT', 8787);
export const modelPort = portOption('--model-port', 'AIRSIGN_DEV_MODEL_PORT', 8788);
export const userFolder = path.resolve(REPO_ROOT, option('--dir', 'AIRSIGN_DEV_DIR', '.n8n-dev'));
export const tarballOption = option('--tarball', undefined, undefined);
export const STATE_FILE = path.join(userFolder, 'airsign-dev.json');
export const FILES_DIR = path.join(userFolder, 'n8n-files'); // N8N_RESTRICT_FILE_ACCESS_TO
export const PDF_PATH = path.join(FILES_DIR, 'contract.pdf');
export const OWNER = DEV_OWNER;
// n8n 2.x lets Read/Write Files from Disk touch this folder only (default ~/.n8n-files).
export const FILE_ENV = { N8N_RESTRICT_FILE_ACCESS_TO: FILES_DIR };

export const show = (p: string): string =>
	p.startsWith(REPO_ROOT + path.sep) ? path.relative(REPO_ROOT, p) : p;

export const t00 = Date.now();
export const say = (msg: string): boolean => process.stdout.write(`[dev] ${msg}\n`);
// What a first run does, in order; each announces itself as "step N of 7" and long ones report
// every 15 s, so that a first start on a busy machine never sits silent.
const STAGES = [
	'n8n in .cache (installed by the first run only: minutes)',
	'build and pack the package',
	'install the package into n8n',
	'start the sandbox and the demo model',
	'import the credentials and example workflows',
	'start n8n',
	'the owner account (created by the first start)',
];
export const stage = (index: number): boolean =>
	say(`step ${index + 1} of ${STAGES.length}: ${STAGES[index]}`);
export async function step<T>(
	label: string,
	fn: () => T | Promise<T>,
	{ running }: { running?: string } = {},
): Promise<T> {
	const t0 = Date.now();
	const stop = running ? ticker(running, undefined, { print: say }) : () => {};
	try {
		const value = await fn();
		say(`${label} (${seconds(Date.now() - t0)})`);
		return value;
	} finally {
		stop();
	}
}
export const sha256 = (data: string | Buffer): string =>
	createHash('sha256').update(data).digest('hex');

/** What the state file (airsign-dev.json in the user folder) records between runs. */
export interface DevState {
	/** SHA-256 of the tarball installed into n8n. */
	packageSha256?: string;
	/** SHA-256 of what was imported last: each credential, and each workflow by id. */
	imports?: { credential?: string; modelCredential?: string; workflows: Record<string, string> };
	/** The owner account as created by the first start. */
	owner?: { email: string; password: string };
}
export const readState = (): DevState => {
	try {
		return JSON.parse(readFileSync(STATE_FILE, 'utf8')) as DevState;
	} catch {
		return {};
	}
};
export const writeState = (state: DevState): void =>
	writeFileSync(STATE_FILE, JSON.stringify(state, null, 2) + '\n');

export function portFree(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}

/** An example workflow (examples/*.json), imported by its id: the fields `npm run dev` reads. */
export type ExampleWorkflow = {
	id: string;
	name: string;
	nodes: Array<{ name: string; type: string; parameters?: Record<string, unknown> }>;
};
