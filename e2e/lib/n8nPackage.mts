// The package as npm users get it, put into an n8n: `npm run build` + `npm pack`, then an install
// into an n8n user folder's community-package folder; and the temporary user folders themselves.
// Re-exported by e2e/lib/n8n.mts.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, npmEnv } from '../n8n-installation.mts';
import { runCommand } from './proc.mts';

export const PACKAGE_NAME: string = JSON.parse(
	readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'),
).name;

/** A fresh, empty n8n user folder under the OS temp dir (n8n will create `.n8n/` inside). */
export function makeUserFolder(prefix = 'airsign-e2e-'): string {
	return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeUserFolder(userFolder: string | undefined): void {
	if (userFolder && userFolder.startsWith(os.tmpdir()))
		rmSync(userFolder, { recursive: true, force: true, maxRetries: 3 });
}

/**
 * `npm run build` then `npm pack` of the repository into a temp dir: exactly what npm users get.
 * Returns { tarball, files } (files = paths inside the tarball, from `npm pack --json`).
 */
export async function packPackage({
	build = true,
	destDir,
	timeoutMs = 180_000,
}: {
	/** `npm run build` first. */
	build?: boolean;
	/** Where the tarball goes (default: a new temp dir). */
	destDir?: string;
	timeoutMs?: number;
} = {}): Promise<{ tarball: string; files: string[] }> {
	if (build)
		await runCommand('npm', ['run', 'build'], {
			cwd: REPO_ROOT,
			env: npmEnv(),
			timeoutMs,
			label: 'npm run build',
		});
	const dest = destDir ?? mkdtempSync(path.join(os.tmpdir(), 'airsign-pack-'));
	const { stdout } = await runCommand(
		'npm',
		['pack', '--json', '--ignore-scripts', '--pack-destination', dest],
		{
			cwd: REPO_ROOT,
			env: npmEnv(),
			timeoutMs: 60_000,
			label: 'npm pack',
		},
	);
	const info: { filename: string; files: { path: string }[] } = JSON.parse(
		stdout.slice(stdout.indexOf('[')),
	)[0];
	const tarball = path.join(dest, info.filename);
	if (!existsSync(tarball)) throw new Error(`npm pack did not produce ${tarball}`);
	return { tarball, files: info.files.map((f) => f.path) };
}

/** Where n8n keeps this package once installed in `userFolder` (any way it was installed). */
export function installedPackageDir(userFolder: string): string {
	return path.join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
}

/**
 * Installs the packed tarball as a community package of the n8n instance at `userFolder`:
 * `$userFolder/.n8n/nodes/node_modules/<package>`, the folder n8n scans for `n8n-nodes-*` at start.
 *
 * Peer dependency n8n-workflow: n8n's own installer strips peerDependencies before `npm install`,
 * and n8n's loader puts n8n's module paths on NODE_PATH so `require('n8n-workflow')` from the
 * package resolves to n8n's copy. `--legacy-peer-deps` stops npm 7+ from installing a second,
 * different n8n-workflow next to the package (which would break `instanceof` checks on errors).
 */
export async function installPackageIntoN8n(
	userFolder: string | null,
	tarball: string,
	{
		timeoutMs = 180_000,
		// an n8n this tier did not start (e2e/external.mts, userFolder null) names it itself
		nodesDir = path.join(userFolder ?? '', '.n8n', 'nodes'),
	}: { timeoutMs?: number; nodesDir?: string } = {},
): Promise<string> {
	mkdirSync(nodesDir, { recursive: true });
	const pkgJson = path.join(nodesDir, 'package.json');
	if (!existsSync(pkgJson))
		writeFileSync(
			pkgJson,
			JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2),
		);
	await runCommand(
		'npm',
		[
			...'install --ignore-scripts --no-audit --no-fund --legacy-peer-deps --bin-links=false'.split(
				' ',
			),
			'--install-strategy=shallow',
			'--no-package-lock',
			tarball,
		],
		{
			cwd: nodesDir,
			env: npmEnv(),
			timeoutMs,
			label: `npm install ${path.basename(tarball)} (into ${nodesDir})`,
		},
	);
	const packageDir = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	if (!existsSync(path.join(packageDir, 'package.json')))
		throw new Error(`${packageDir} missing after npm install`);
	if (existsSync(path.join(nodesDir, 'node_modules', 'n8n-workflow')))
		throw new Error(
			'npm installed a separate n8n-workflow beside the package; it must come from n8n itself',
		);
	return packageDir;
}
