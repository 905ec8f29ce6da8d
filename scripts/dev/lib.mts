// What the parts of `npm run dev` (scripts/dev.mts) share: its console lines and numbered stages,
// timed steps, hashes, the state file that records what was installed and imported, port checks.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { REPO_ROOT, seconds, ticker } from '../../e2e/install-n8n.mts';
import { STATE_FILE } from './options.mts';

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
