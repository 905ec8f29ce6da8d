// The package as npm users get it (`npm run build` + `npm pack`), installed into an n8n user
// folder; and the temporary user folders themselves.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, npmEnv } from '../n8n-installation.mts';
import { runCommand } from './proc.mts';

export const PACKAGE_NAME: string = JSON.parse(
	readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'),
).name;

/** A fresh, empty n8n user folder under the OS temp dir. */
export function makeUserFolder(prefix = 'airsign-e2e-'): string {
	return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeUserFolder(userFolder: string | undefined): void {
	if (userFolder && userFolder.startsWith(os.tmpdir()))
		rmSync(userFolder, { recursive: true, force: true, maxRetries: 3 });
}

/** `npm run build` (bounded by `timeoutMs`, 0: none) then `npm pack` into `destDir` or a temp folder. */
export async function packPackage({
	build = true,
	destDir = '',
	timeoutMs = 180_000,
} = {}): Promise<{ tarball: string; files: string[] }> {
	if (build)
		await runCommand('npm', ['run', 'build'], {
			cwd: REPO_ROOT,
			env: npmEnv(),
			timeoutMs,
			label: 'npm run build',
		});
	const dest = destDir || mkdtempSync(path.join(os.tmpdir(), 'airsign-pack-'));
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

/** The package.json inside a packed tarball. */
export const tarballManifest = (tarball: string): { version: string } =>
	JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));

/** Where n8n keeps this package once installed in `userFolder`, however it was installed. */
export function installedPackageDir(userFolder: string): string {
	return path.join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
}

/**
 * Installs the tarball into `$userFolder/.n8n/nodes/node_modules`, where n8n finds it at start.
 * `--legacy-peer-deps`: n8n-workflow must be n8n's own copy (as n8n's installer strips peer
 * dependencies); a second one beside the package would break `instanceof` on errors.
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
