// `npm run scan [-- --no-build] [--keep]` (what it checks: CONTRIBUTING.md): the package as npm would
// publish it, through @n8n/scan-community-package's two ESLint legs (its CLI scans only published
// packages), and what n8n needs in it. Exits 1 with a report of all found.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Linter } from 'eslint';
import { packPackage } from '../e2e/lib/n8nPackage.mts';
import { runCommand, type RunCommandOptions } from '../e2e/lib/proc.mts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const secs = (t: number): string => ((performance.now() - t) / 1000).toFixed(1);

/** The report's sections, in the order the steps opened them: what was checked, what is wrong, what was found. */
const report: Array<{ title: string; problems: string[]; notes: string[] }> = [];
const section = (title: string) => report[report.push({ title, problems: [], notes: [] }) - 1];

const run = async (cmd: string, args: string[], options: RunCommandOptions = {}) =>
	(await runCommand(cmd, args, { cwd: ROOT, timeoutMs: 0, ...options })).stdout;

/** A package.json as published: the fields the scan reads (any of them may be missing or wrong). */
type PackageJson = Record<string, unknown> & {
	name: string;
	n8n?: { nodes?: string[]; credentials?: string[] };
	files?: string[];
	author?: string | { name?: string; email?: string; url?: string };
	repository?: string | { url?: string };
	homepage?: string;
};

/** The packed package: its tarball's name, the folder it is extracted in, its files (sorted). */
type Packed = Awaited<ReturnType<typeof pack>>;
async function pack(tmp: string, build: boolean) {
	const t = performance.now();
	// no bound on the build: on a busy machine it takes its time
	const { tarball, files } = await packPackage({ build, destDir: tmp, timeoutMs: 0 });
	if (build) console.log(`scan: npm run build + npm pack (${secs(t)} s)`);
	if (!existsSync(path.join(ROOT, 'dist')))
		throw new Error('dist/ is missing: run `npm run build` first');
	const filename = path.basename(tarball);
	const packageDir = path.join(tmp, 'package');
	mkdirSync(packageDir);
	await run('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);
	files.sort();
	const pkg = JSON.parse(
		readFileSync(path.join(packageDir, 'package.json'), 'utf8'),
	) as PackageJson;
	const kib = (f: string): number => statSync(path.resolve(packageDir, f)).size / 1024;
	const unpacked = files.reduce((sum, f) => sum + kib(f), 0);
	console.log(
		`scan: ${filename}: ${files.length} files, ${kib(tarball).toFixed(1)} KiB packed, ${unpacked.toFixed(1)} KiB unpacked`,
	);
	return { filename, packageDir, files, fileSet: new Set(files), pkg };
}

// n8n's verification scanner on this repository (source leg) and on the extracted tarball; warnings fail too.
/** What the scanner's scanner.mjs exports that the scan uses (the package ships no types). */
interface ScannerModule {
	SOURCE_FILE_PATTERNS: string[];
	buildScanConfig(): Promise<Linter.Config[]>;
}

async function scanWithN8nScanner({ filename, packageDir }: Packed): Promise<void> {
	const scannerEntry = createRequire(import.meta.url).resolve(
		'@n8n/scan-community-package/scanner/scanner.mjs',
	);
	const scanner = (await import(pathToFileURL(scannerEntry).href)) as ScannerModule;
	// ESLint and fast-glob as the scanner resolves them (its own dependencies)
	const scannerRequire = createRequire(scannerEntry);
	const { ESLint } = scannerRequire('eslint') as typeof import('eslint');
	const glob = scannerRequire('fast-glob') as typeof import('fast-glob');
	const scannerVersion = (scannerRequire('../package.json') as { version: string }).version;
	const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json']; // analyzePackageByName's tarball leg
	const legs = [
		{ name: 'source', dir: ROOT, patterns: scanner.SOURCE_FILE_PATTERNS, label: 'this repository' },
		{ name: 'tarball', dir: packageDir, patterns: TARBALL_FILE_PATTERNS, label: filename },
	];
	for (const leg of legs) {
		const t = performance.now();
		const s = section(
			`n8n scanner (@n8n/scan-community-package ${scannerVersion}), ${leg.name} leg: ${leg.label}, ${leg.patterns.join(' ')}`,
		);
		// analyzePackage's ESLint run, files and options, read here once: it fails on errors, this on warnings too.
		const eslint = new ESLint({
			cwd: leg.dir,
			allowInlineConfig: false,
			overrideConfigFile: true,
			overrideConfig: await scanner.buildScanConfig(),
		});
		const targets = glob.sync(leg.patterns, {
			cwd: leg.dir,
			absolute: true,
			ignore: ['node_modules/**', '**/package-lock.json'],
		});
		if (targets.length === 0) {
			s.problems.push(
				`no file matches ${leg.patterns.join(' ')} in ${leg.dir}: nothing was scanned`,
			);
			continue;
		}
		const results = await eslint.lintFiles(targets);
		const errors = results.reduce((n, r) => n + r.errorCount, 0);
		const warnings = results.reduce((n, r) => n + r.warningCount, 0);
		if (errors + warnings > 0) {
			const stylish = await eslint.loadFormatter('stylish');
			s.problems.push(
				`${errors ? 'the scanner fails it' : 'the scanner passes it (it fails on errors only), but'}: ${errors} error(s), ${warnings} warning(s):\n` +
					String(await stylish.format(results)).trim(),
			);
		} else s.notes.push(`${targets.length} files, passed with nothing reported (${secs(t)} s)`);
	}
}

// The tarball's files by rule, and the nodes and credentials of package.json's "n8n", loaded as n8n loads them.
async function checkContents({ packageDir, files, fileSet, pkg }: Packed, tmp: string) {
	const contents = section('package contents');
	/** A file of the package, parsed; undefined, and a problem, if it is not valid JSON. */
	const readJson = <T,>(f: string): T | undefined => {
		try {
			return JSON.parse(readFileSync(path.join(packageDir, f), 'utf8')) as T;
		} catch (e) {
			contents.problems.push(`${f}: not valid JSON: ${e.message}`);
			return undefined;
		}
	};
	const DIST = /^dist\/(nodes|credentials)\//;
	const allowed = Object.entries({
		'package files': /^(package\.json|README\.md|LICENSE\.md)$/,
		'compiled nodes, credentials and their helpers':
			/^dist\/(nodes|credentials)\/(?:[^/]+\/)*[^/]+\.js$/,
		icons: /^dist\/(nodes|credentials)\/(?:[^/]+\/)*[^/]+\.(svg|png)$/,
		'codex files': /^dist\/nodes\/(?:[^/]+\/)*[^/]+\.node\.json$/,
		// n8n serves them to the editor from beside the node's file (scripts/output-schemas.ts)
		'output schemas': /^dist\/nodes\/(?:[^/]+\/)*__schema__\/(?:[^/]+\/)*[^/]+\.json$/,
	});
	// Why a file is out of place (an allowed kind but one of these, package files aside).
	const reasons = Object.entries({
		'type declarations, which n8n does not read; package.json "files" keeps them out with "!dist/**/*.d.ts"':
			/\.d\.ts$/,
		'source maps, which point at .ts sources that the package does not hold; package.json "files" keeps them out with "!dist/**/*.map"':
			/\.map$/,
		'TypeScript sources': /\.ts$/,
		tests: /(^|[/.])(test|tests|spec|__tests__|__mocks__|fixtures?)([/.]|$)/i,
	});
	const counts = new Map(allowed.map(([what]) => [what, 0]));
	const unexpected = new Map<string, string[]>(); // reason → files
	const kept: string[] = [];
	for (const f of files) {
		const [what] = allowed.find(([, re]) => re.test(f)) ?? [];
		const [reason] = reasons.find(([, re]) => re.test(f)) ?? [];
		if (!what || (reason && what !== 'package files')) {
			const why = reason ?? 'matches none of the allowed kinds of file';
			unexpected.set(why, [...(unexpected.get(why) ?? []), f]);
		} else {
			counts.set(what, counts.get(what)! + 1); // counts holds every rule's `what`
			kept.push(f);
		}
	}
	for (const [why, list] of unexpected)
		contents.problems.push(
			`${list.length} file(s) not expected in the package (${why}): ${list.length > 6 ? `${list.slice(0, 5).join(', ')}, … and ${list.length - 5} more` : list.join(', ')}`,
		);
	contents.notes.push([...counts].map(([what, n]) => `${n} ${what}`).join(', '));
	for (const f of ['package.json', 'README.md', 'LICENSE.md'])
		if (!fileSet.has(f)) contents.problems.push(`${f}: missing`);

	// Compiled files must come from a current source: dist/<p>.js ← <p>.ts, icons and JSON ← same path.
	for (const f of kept.filter((f) => DIST.test(f))) {
		const rel = f.slice('dist/'.length);
		const source = rel.endsWith('.js') ? rel.replace(/\.js$/, '.ts') : rel;
		if (!existsSync(path.join(ROOT, source)))
			contents.problems.push(
				`${f}: no ${source} in the repository, a leftover of an earlier build? (rm -rf dist && npm run build)`,
			);
	}

	const n8nFiles = { nodes: pkg.n8n?.nodes ?? [], credentials: pkg.n8n?.credentials ?? [] };
	if (n8nFiles.nodes.length === 0) contents.problems.push('package.json "n8n.nodes" names no node');
	for (const [kind, suffix] of [
		['nodes', '.node.js'],
		['credentials', '.credentials.js'],
	] as const)
		for (const f of n8nFiles[kind]) {
			if (!fileSet.has(path.posix.normalize(f)))
				contents.problems.push(`${f}: named in package.json "n8n.${kind}", not in the package`);
			if (!f.endsWith(suffix))
				contents.problems.push(
					`${f}: a ${kind.slice(0, -1)} file's name must end in ${suffix}${kind === 'nodes' ? ' (n8n looks for its codex .node.json beside it)' : ''}`,
				);
		}

	// Loaded by n8n's own loader (n8n-core's PackageDirectoryLoader) in a child: n8n-workflow from NODE_PATH.
	const loader = `
		const { PackageDirectoryLoader } = require(process.argv[2]);
		const l = new PackageDirectoryLoader('.');
		const errors = []; // each file as loadAll() loads it, to report every file that fails
		for (const [kind, load] of [['nodes', 'loadNodeFromFile'], ['credentials', 'loadCredentialFromFile']])
			for (const file of l.packageJson.n8n?.[kind] ?? [])
				try { l[load](file); } catch (e) { errors.push(file + ': ' + e.message + (e.extra ? ' ' + JSON.stringify(e.extra) : '')); }
		const icon = (d) => d.iconUrl ?? d.icon ?? null;
		require('node:fs').writeFileSync(process.argv[1], JSON.stringify({ errors,
			nodes: l.types.nodes.map((d) => ({ name: d.name, icon: icon(d), file: l.known.nodes[d.name].sourcePath,
				credentials: (d.credentials ?? []).map((c) => c.name) })),
			credentials: l.types.credentials.map((c) => ({ name: c.name, icon: icon(c) })),
		}));`;
	const loadedJson = path.join(tmp, 'loaded.json'); // not stdout: module code may print
	const n8nCore = createRequire(import.meta.url).resolve('n8n-core');
	await run(process.execPath, ['-e', loader, loadedJson, n8nCore], {
		cwd: packageDir,
		env: { ...process.env, NODE_PATH: path.join(ROOT, 'node_modules') },
	});
	type Loaded = { name: string; icon: string | Record<string, string> | null };
	const loaded = JSON.parse(readFileSync(loadedJson, 'utf8')) as {
		errors: string[];
		nodes: Array<Loaded & { file: string; credentials: string[] }>;
		credentials: Loaded[];
	};
	for (const e of loaded.errors)
		contents.problems.push(`${e} (loaded as n8n loads it, by n8n-core)`);
	const credentialNames = new Set(loaded.credentials.map((c) => c.name));
	const referencedIcons = new Set<string>();
	// n8n serves a file: icon as icons/<package>/<its path>; fa:… and node:… icons ship nothing.
	const iconPrefix = `icons/${pkg.name}/`;
	for (const c of [...loaded.nodes, ...loaded.credentials]) {
		const icons = typeof c.icon === 'string' ? [c.icon] : Object.values(c.icon ?? {});
		if ('file' in c && icons.length === 0)
			contents.problems.push(`${c.file}: node "${c.name}" has no icon`);
		for (const icon of icons.filter((i) => i.startsWith(iconPrefix))) {
			const iconPath = icon.slice(iconPrefix.length);
			referencedIcons.add(iconPath);
			if (!fileSet.has(iconPath))
				contents.problems.push(`"${c.name}" names icon ${iconPath}, which is not in the package`);
		}
	}
	for (const file of new Set(loaded.nodes.map((n) => n.file))) {
		const codexFile = file.replace(/\.js$/, '.json');
		const names = loaded.nodes.filter((n) => n.file === file).map((n) => `${pkg.name}.${n.name}`);
		const codex = fileSet.has(codexFile) && readJson<{ node: string }>(codexFile);
		if (!fileSet.has(codexFile))
			contents.problems.push(`${file}: no codex file ${codexFile} beside it`);
		else if (codex && !names.includes(codex.node))
			contents.problems.push(
				`${codexFile}: "node" is ${JSON.stringify(codex.node)}, expected ${names.join(' or ')}`,
			);
	}
	for (const n of loaded.nodes)
		for (const cred of n.credentials)
			if (!credentialNames.has(cred))
				contents.problems.push(
					`${n.file}: node "${n.name}" uses credential "${cred}", which no file in package.json "n8n.credentials" defines`,
				);
	for (const f of files.filter((f) => /\.(svg|png)$/.test(f)))
		if (!referencedIcons.has(f))
			contents.problems.push(`${f}: an icon that no node or credential names`);
	const codexFiles = new Set(n8nFiles.nodes.map((f) => f.replace(/\.js$/, '.json')));
	for (const f of files.filter((f) => f.endsWith('.node.json')))
		if (!codexFiles.has(f))
			contents.problems.push(`${f}: a codex file of no node in package.json "n8n.nodes"`);
	// An output schema is read only beside a node's file, and the editor takes only an object with fields.
	for (const f of files.filter((f) => /\/__schema__\//.test(f))) {
		const nodeDir = f.slice(0, f.indexOf('/__schema__/'));
		if (!n8nFiles.nodes.some((n) => path.posix.dirname(path.posix.normalize(n)) === nodeDir))
			contents.problems.push(
				`${f}: beside no node of package.json "n8n.nodes", n8n never reads it`,
			);
		const schema = readJson<{ type?: unknown; properties?: object } | null>(f);
		if (
			schema !== undefined &&
			(schema?.type !== 'object' || !Object.keys(schema.properties ?? {}).length)
		)
			contents.problems.push(`${f}: not an object schema with properties (the editor ignores it)`);
	}
	contents.notes.push(
		`loaded ${[...new Set(loaded.nodes.map((n) => n.name))].join(', ')} and credential ${[...credentialNames].join(', ')}; ${referencedIcons.size} icons named, all present`,
	);
}

// package.json as published: every field that names a file names one in the tarball, no runtime dependencies.
function checkManifest({ files, fileSet, pkg }: Packed): void {
	const manifest = section('package.json');
	const inPackage = (p: string): boolean =>
		fileSet.has(path.posix.normalize(p.replace(/^\.\//, '')));
	/** As require() resolves a package's "main": the file, with .js/.json/.node, or its index. */
	const resolvesLikeMain = (p: string): boolean =>
		['', '.js', '.json', '.node', '/index.js', '/index.json', '/index.node'].some((ext) =>
			inPackage(p + ext),
		);
	const matchesSome = (pattern: string): boolean => {
		const re = new RegExp(
			`^${path.posix
				.normalize(pattern.replace(/^\.\//, ''))
				.replace(/[.+^${}()|[\]\\]/g, '\\$&')
				.replace(/\*/g, '.*')}$`,
		);
		return files.some((f) => re.test(f));
	};
	// Every file a field names: "main", "module" and "browser" as require() resolves them.
	const targets: Array<[string, string]> = [];
	const walk = (v: unknown, at: string): void => {
		if (typeof v === 'string') targets.push([at, v]);
		else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}[${i}]`));
		else if (v && typeof v === 'object')
			for (const [k, x] of Object.entries(v)) walk(x, `${at}.${k}`);
	};
	for (const [field, v] of Object.entries(pkg))
		if (/^(main|module|browser|types|typings|bin|man|exports)$/.test(field)) walk(v, field);
	for (const [at, target] of targets) {
		const found = /^(main|module|browser)$/.test(at)
			? resolvesLikeMain(target)
			: at.startsWith('exports') && target.includes('*')
				? matchesSome(target)
				: inPackage(target);
		if (!found)
			manifest.problems.push(
				`"${at}": "${target}" is not in the package${at === 'main' ? ' (n8n loads the files in "n8n"; a package of nodes needs no "main")' : ''}`,
			);
	}
	for (const entry of pkg.files ?? [])
		if (
			!entry.startsWith('!') &&
			!files.some((f) => f === entry || f.startsWith(`${entry.replace(/\/$/, '')}/`)) &&
			!matchesSome(entry)
		)
			manifest.problems.push(`"files": "${entry}" matches nothing in the package`);
	const dependencyFields = ['', 'optional', 'bundle', 'bundled'] as const;
	for (const field of dependencyFields.map((f) => (f ? `${f}Dependencies` : 'dependencies'))) {
		const deps = (pkg[field] ?? []) as Record<string, string> | string[];
		const names = Array.isArray(deps) ? deps : Object.keys(deps);
		if (names.length)
			manifest.problems.push(
				`"${field}": ${names.join(', ')}: a community node keeps zero runtime dependencies`,
			);
	}
	const { author: a } = pkg;
	const author = typeof a === 'string' ? a : [a?.name, a?.email, a?.url].filter(Boolean).join(' ');
	const repoUrl = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
	if (!author) manifest.problems.push('"author" is missing');
	if (!repoUrl)
		manifest.problems.push(
			'"repository" is missing (npm provenance needs it to name the GitHub repository)',
		);
	else if (!/^(git\+)?https:\/\/github\.com\/[^/]+\/[^/]+?(\.git)?$/.test(repoUrl))
		manifest.problems.push(
			`"repository": ${repoUrl} is not a GitHub https URL (npm provenance checks it against the repository that publishes)`,
		);
	if (!pkg.homepage) manifest.problems.push('"homepage" is missing');
	manifest.notes.push(
		`author ${author}; repository ${repoUrl}; homepage ${pkg.homepage} (publish.yml checks that the repository is the one it runs in)`,
	);
}

const { values: opts } = parseArgs({
	options: { 'no-build': { type: 'boolean' }, keep: { type: 'boolean' } },
});
const t0 = performance.now();

// The scanner creates a temporary folder when it is imported (tmp.dirSync, never removed):
// TMPDIR points at ours so that it goes with it.
const tmp = mkdtempSync(path.join(os.tmpdir(), 'airsign-scan-'));
process.env.TMPDIR = tmp;
let exitCode = 1;
try {
	const packed = await pack(tmp, !opts['no-build']);
	await scanWithN8nScanner(packed);
	await checkContents(packed, tmp);
	checkManifest(packed);
	let problems = 0;
	for (const s of report) {
		problems += s.problems.length;
		console.log(`\n${s.problems.length ? '✗' : '✓'} ${s.title}`);
		for (const p of s.problems) console.log(p.replace(/^/gm, '    '));
		if (!s.problems.length) for (const n of s.notes) console.log(`    ${n}`);
	}
	const { filename } = packed;
	const verdict = problems
		? `${problems} problem(s) in ${filename}`
		: `${filename} passes: nothing reported`;
	console.log(`\nscan: ${verdict} (${secs(t0)} s)${opts.keep ? `; kept in ${tmp}` : ''}`);
	if (!problems) exitCode = 0;
} catch (err) {
	console.error(`scan: ${err.stack ?? err}`);
} finally {
	if (!opts.keep) rmSync(tmp, { recursive: true, force: true });
}
process.exit(exitCode);
