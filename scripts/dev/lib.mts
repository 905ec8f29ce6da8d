// What `npm run dev` (scripts/dev.mts) shares with its banner: the command line (a bad option ends
// the process at once), the user folder and its paths, console lines, the state file's shape.
import path from 'node:path';
import { REPO_ROOT } from '../../e2e/install-n8n.mts';

const argv = process.argv.slice(2);
export const flag = (name: string): boolean => argv.includes(name);
export function option<F extends string | undefined>(
	name: string,
	envName: string | undefined,
	fallback: F,
): string | F {
	const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
	if (i >= 0) return argv[i].includes('=') ? argv[i].slice(name.length + 1) : argv[i + 1];
	return (envName && process.env[envName]) || fallback;
}
export function fail(message: string): never {
	console.error(`[dev] ${message}`);
	process.exit(1);
}

export const userFolder = path.resolve(REPO_ROOT, option('--dir', 'AIRSIGN_DEV_DIR', '.n8n-dev'));
export const FILES_DIR = path.join(userFolder, 'n8n-files'); // N8N_RESTRICT_FILE_ACCESS_TO
export const PDF_PATH = path.join(FILES_DIR, 'contract.pdf');

export const show = (p: string): string =>
	p.startsWith(REPO_ROOT + path.sep) ? path.relative(REPO_ROOT, p) : p;
export const say = (msg: string): boolean => process.stdout.write(`[dev] ${msg}\n`);

/** What the state file (airsign-dev.json in the user folder) records between runs. */
export interface DevState {
	/** SHA-256 of the tarball installed into n8n. */
	packageSha256?: string;
	/** SHA-256 of what was imported last, by id: each credential and example workflow. */
	imported?: Record<string, string>;
	/** The owner account as created by the first start. */
	owner?: { email: string; password: string };
}
/** An example workflow (examples/*.json), imported by its id: the fields `npm run dev` reads. */
export type ExampleWorkflow = {
	id: string;
	name: string;
	nodes: Array<{ name: string; type: string; parameters?: Record<string, unknown> }>;
};
