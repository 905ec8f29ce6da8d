// The command line of `npm run dev` (scripts/dev.mts; its opening comment lists the options) and
// the paths and ports that follow from it. A bad option ends the process at once.
import path from 'node:path';
import { REPO_ROOT } from '../../e2e/install-n8n.mts';
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
