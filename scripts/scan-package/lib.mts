// What the steps of `npm run scan` (scripts/scan-package.mts) share: the repository's root, timing,
// the report's sections, running a command, and step 1: build, `npm pack` into the temporary
// folder, and extract the tarball there as n8n's scanner extracts a downloaded one.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const secs = (t: number): string => ((performance.now() - t) / 1000).toFixed(1);

/** One section of the report: what was checked, what is wrong, what was found when nothing is. */
export interface Section {
	title: string;
	problems: string[];
	notes: string[];
}

/** The report's sections, in the order the steps opened them. */
export const report: Section[] = [];
export const section = (title: string): Section => {
	const s: Section = { title, problems: [], notes: [] };
	report.push(s);
	return s;
};

export function run(
	cmd: string,
	args: string[],
	options: Omit<SpawnSyncOptions, 'encoding'> = {},
): string {
	const r = spawnSync(cmd, args, {
		cwd: ROOT,
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
		...options,
	});
	if (r.error) throw r.error;
	if (r.status !== 0) {
		const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
		throw new Error(
			`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})${out ? `:\n${out}` : ''}`,
		);
	}
	return r.stdout;
}

/** One entry of `npm pack --json`: the fields the scan reads. */
export interface PackInfo {
	filename: string;
	unpackedSize: number;
}

/** A package.json as published: the fields the scan reads (any of them may be missing or wrong). */
type DependencyField = 'dependencies' | 'optionalDependencies' | `bundle${'' | 'd'}Dependencies`;
export interface PackageJson
	extends Partial<Record<'main' | 'module' | 'browser' | 'types' | 'typings' | 'exports', unknown>>,
		Partial<Record<DependencyField, Record<string, string> | string[]>> {
	name: string;
	n8n?: { nodes?: string[]; credentials?: string[] };
	bin?: string | Record<string, string>;
	man?: string | string[];
	files?: string[];
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
