// Step 1 of `npm run scan` (scripts/scan-package.mts): build, `npm pack` into the temporary folder,
// and extract the tarball there as n8n's scanner extracts a downloaded one.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT, run, secs } from './lib.mts';

/** One entry of `npm pack --json`: the fields the scan reads. */
export interface PackInfo {
	filename: string;
	unpackedSize: number;
}

/** A package.json as published: the fields the scan reads (any of them may be missing or wrong). */
export interface PackageJson {
	name: string;
	n8n?: { nodes?: string[]; credentials?: string[] };
	main?: unknown;
	module?: unknown;
	browser?: unknown;
	types?: unknown;
	typings?: unknown;
	bin?: string | Record<string, string>;
	man?: string | string[];
	exports?: unknown;
	files?: string[];
	dependencies?: Record<string, string> | string[];
	optionalDependencies?: Record<string, string> | string[];
	bundleDependencies?: Record<string, string> | string[];
	bundledDependencies?: Record<string, string> | string[];
	author?: string | { name?: string; email?: string; url?: string };
	repository?: string | { url?: string };
	homepage?: string;
}

/** The packed package: its tarball's name, the folder it is extracted in, and its files. */
export interface Packed {
	packInfo: PackInfo;
	packageDir: string;
	/** Paths inside the package (no leading package/), sorted. */
	files: string[];
	fileSet: Set<string>;
	pkg: PackageJson;
}

export function pack(tmp: string, build: boolean): Packed {
	if (build) {
		const t = performance.now();
		run('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
		console.log(`scan: npm run build (${secs(t)} s)`);
	}
	if (!existsSync(path.join(ROOT, 'dist')))
		throw new Error('dist/ is missing: run `npm run build` first');
	const packOut = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp]);
	const packInfo = (JSON.parse(packOut.slice(packOut.indexOf('['))) as PackInfo[])[0];
	const tarball = path.join(tmp, packInfo.filename);
	const packageDir = path.join(tmp, 'package');
	mkdirSync(packageDir);
	run('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);
	const files = run('tar', ['-tzf', tarball])
		.split('\n')
		.filter((f) => f && !f.endsWith('/'))
		.map((f) => f.replace(/^package\//, ''))
		.sort();
	const fileSet = new Set(files);
	const pkg = JSON.parse(
		readFileSync(path.join(packageDir, 'package.json'), 'utf8'),
	) as PackageJson;
	console.log(
		`scan: ${packInfo.filename}: ${files.length} files, ${(statSync(tarball).size / 1024).toFixed(1)} KiB packed, ` +
			`${(packInfo.unpackedSize / 1024).toFixed(1)} KiB unpacked`,
	);
	return { packInfo, packageDir, files, fileSet, pkg };
}
