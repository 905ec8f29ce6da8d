// @ts-nocheck (typed file by file: issue 34)
// `npm run scan` (part of `npm run check`): the package as npm would publish it, checked the way
// n8n's verification checks it, plus what n8n needs to find in it.
//
//   npx tsx scripts/scan-package.mts [--no-build] [--keep]
//
//   --no-build  use the current dist/ (`npm run check` has just built it); default: `npm run build`
//   --keep      keep the temporary folder with the tarball and its extracted contents
//
// 1. `npm pack` into a temporary folder, extracted there as the scanner extracts a downloaded one
//    (tar -xzf --strip-components=1).
// 2. n8n's verification scanner, @n8n/scan-community-package (pinned in devDependencies). Its CLI
//    only scans published packages (it downloads the tarball and the source commit named by the
//    npm provenance statement), so its two ESLint legs run here on local copies, through its own
//    exported code: `buildScanConfig()` (its rule set, with its own pinned plugin versions),
//    `SOURCE_FILE_PATTERNS` and the ESLint options of its `analyzePackage()` (no inline
//    eslint-disable comments):
//      source leg   this repository (what the provenance commit holds), SOURCE_FILE_PATTERNS
//      tarball leg  the extracted tarball, **/*.js + package.json (as in analyzePackageByName)
//    `analyzePackage()` itself gives the verdict n8n would give (it fails on errors only); the
//    same config is run once more to show warnings too, which fail this check as well: the scan
//    must report nothing. Its provenance check cannot run before publishing: .github/workflows/
//    publish.yml publishes with --provenance.
// 3. The tarball's file list, by rule (no list of current files, so node folders may move):
//    only package.json, README.md, LICENSE.md and, under dist/nodes and dist/credentials,
//    compiled .js (no tests), .svg/.png icons, .node.json codex files and the output schemas in a
//    node's __schema__ folder (each beside a node, an object with fields); every file named in
//    package.json's "n8n" field present, each node with its codex beside it and every icon that a
//    node or credential names ("file:…"); no icon that none names; no compiled file without a
//    source (a leftover from an earlier build). The nodes and credentials are loaded from the
//    extracted tarball as n8n loads them (n8n-workflow from NODE_PATH) to read their icons,
//    names and credentials.
// 4. package.json: every field that names a file (main, module, browser, types, typings, bin,
//    man, exports, files, n8n.nodes, n8n.credentials) names one in the tarball; no runtime
//    dependencies; author, repository and homepage present (publish.yml checks that the
//    repository is the one it publishes from).
//
// Exits 1 with a report of everything found.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
	options: { 'no-build': { type: 'boolean' }, keep: { type: 'boolean' } },
});
const t0 = performance.now();
const secs = (t) => ((performance.now() - t) / 1000).toFixed(1);

/** Sections of the report: each { title, problems: string[], notes: string[] }. */
const report = [];
const section = (title) => {
	const s = { title, problems: [], notes: [] };
	report.push(s);
	return s;
};

function run(cmd, args, options = {}) {
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

// The scanner creates a temporary folder when it is imported (tmp.dirSync, never removed):
// TMPDIR points at ours so that it goes with it.
const tmp = mkdtempSync(path.join(os.tmpdir(), 'airsign-scan-'));
process.env.TMPDIR = tmp;
let exitCode = 1;
try {
	// ---- 1. build, pack, extract ------------------------------------------------------------
	if (!opts['no-build']) {
		const t = performance.now();
		run('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
		console.log(`scan: npm run build (${secs(t)} s)`);
	}
	if (!existsSync(path.join(ROOT, 'dist')))
		throw new Error('dist/ is missing: run `npm run build` first');
	const packOut = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp]);
	const packInfo = JSON.parse(packOut.slice(packOut.indexOf('[')))[0];
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
	const pkg = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
	console.log(
		`scan: ${packInfo.filename}: ${files.length} files, ${(statSync(tarball).size / 1024).toFixed(1)} KiB packed, ` +
			`${(packInfo.unpackedSize / 1024).toFixed(1)} KiB unpacked`,
	);

	// ---- 2. n8n's verification scanner ------------------------------------------------------
	const scannerEntry = createRequire(import.meta.url).resolve(
		'@n8n/scan-community-package/scanner/scanner.mjs',
	);
	const scanner = await import(pathToFileURL(scannerEntry).href);
	// ESLint and fast-glob as the scanner resolves them (its own dependencies)
	const scannerRequire = createRequire(scannerEntry);
	const { ESLint } = scannerRequire('eslint');
	const glob = scannerRequire('fast-glob');
	const scannerVersion = JSON.parse(
		readFileSync(path.join(path.dirname(scannerEntry), '..', 'package.json'), 'utf8'),
	).version;
	const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json']; // analyzePackageByName's tarball leg
	const legs = [
		{ name: 'source', dir: ROOT, patterns: scanner.SOURCE_FILE_PATTERNS, label: 'this repository' },
		{ name: 'tarball', dir: packageDir, patterns: TARBALL_FILE_PATTERNS, label: packInfo.filename },
	];
	for (const leg of legs) {
		const t = performance.now();
		const s = section(
			`n8n scanner (@n8n/scan-community-package ${scannerVersion}), ${leg.name} leg: ${leg.label}, ${leg.patterns.join(' ')}`,
		);
		const verdict = await scanner.analyzePackage(leg.dir, leg.patterns);
		if (!verdict.passed) {
			s.problems.push(
				`the scanner fails it: ${verdict.message}${verdict.details ? `\n${verdict.details.trim()}` : ''}`,
			);
			continue;
		}
		// Same config and options as analyzePackage, to see warnings as well.
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
				`the scanner passes it (it fails on errors only), but it reports ${errors} error(s), ${warnings} warning(s):\n` +
					String(await stylish.format(results)).trim(),
			);
		}
		s.notes.push(`${targets.length} files, passed with nothing reported (${secs(t)} s)`);
	}

	// ---- 3. the tarball's files ---------------------------------------------------------------
	const contents = section('package contents');
	const DIST = /^dist\/(nodes|credentials)\//;
	const allowed = [
		{ re: /^(package\.json|README\.md|LICENSE\.md)$/, what: 'package files' },
		{
			re: /^dist\/(nodes|credentials)\/(?:[^/]+\/)*[^/]+\.js$/,
			what: 'compiled nodes, credentials and their helpers',
		},
		{ re: /^dist\/(nodes|credentials)\/(?:[^/]+\/)*[^/]+\.(svg|png)$/, what: 'icons' },
		{ re: /^dist\/nodes\/(?:[^/]+\/)*[^/]+\.node\.json$/, what: 'codex files' },
		// n8n serves them to the editor from beside the node's file (scripts/output-schemas.ts)
		{
			re: /^dist\/nodes\/(?:[^/]+\/)*__schema__\/(?:[^/]+\/)*[^/]+\.json$/,
			what: 'output schemas',
		},
	];
	const reasons = [
		{
			re: /\.d\.ts$/,
			why: 'type declarations, which n8n does not read; package.json "files" keeps them out with "!dist/**/*.d.ts"',
		},
		{
			re: /\.map$/,
			why: 'source maps, which point at .ts sources that the package does not hold; package.json "files" keeps them out with "!dist/**/*.map"',
		},
		{ re: /\.ts$/, why: 'TypeScript sources' },
		{ re: /(^|[/.])(test|tests|spec|__tests__|__mocks__|fixtures?)([/.]|$)/i, why: 'tests' },
	];
	const counts = new Map(allowed.map((a) => [a.what, 0]));
	const unexpected = new Map(); // reason → files
	const kept = [];
	for (const f of files) {
		const rule = allowed.find((a) => a.re.test(f));
		const reason = reasons.find((r) => r.re.test(f));
		if (!rule || (reason && rule.what !== 'package files')) {
			const why = reason?.why ?? 'matches none of the allowed kinds of file';
			unexpected.set(why, [...(unexpected.get(why) ?? []), f]);
		} else {
			counts.set(rule.what, counts.get(rule.what) + 1);
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
	for (const [kind, list] of Object.entries(n8nFiles))
		for (const f of list) {
			const norm = path.posix.normalize(f);
			if (!fileSet.has(norm))
				contents.problems.push(`${f}: named in package.json "n8n.${kind}", not in the package`);
			if (kind === 'nodes' && !/\.node\.js$/.test(f))
				contents.problems.push(
					`${f}: a node file's name must end in .node.js (n8n looks for its codex .node.json beside it)`,
				);
			if (kind === 'credentials' && !/\.credentials\.js$/.test(f))
				contents.problems.push(`${f}: a credential file's name must end in .credentials.js`);
		}

	// Load them from the extracted package as n8n does: n8n-workflow comes from NODE_PATH.
	const loader = `
		const path = require('node:path');
		const out = [];
		for (const [kind, file] of JSON.parse(process.argv[2])) {
			const entry = { kind, file, classes: [] };
			try {
				const mod = require(path.resolve(file));
				for (const [exportName, C] of Object.entries(mod)) {
					if (typeof C !== 'function') continue;
					let inst;
					try { inst = new C(); } catch (e) { entry.classes.push({ exportName, error: 'new ' + exportName + '(): ' + e.message }); continue; }
					const d = kind === 'nodes' ? (inst.description ?? inst.baseDescription) : inst;
					if (!d || typeof d.name !== 'string') continue;
					entry.classes.push({ exportName, name: d.name, icon: d.icon ?? null,
						credentials: (d.credentials ?? []).map((c) => c.name) });
				}
			} catch (e) { entry.error = e.message.split('\\n')[0]; }
			out.push(entry);
		}
		require('node:fs').writeFileSync(process.argv[1], JSON.stringify(out));`;
	const present = [
		...n8nFiles.nodes.map((f) => ['nodes', f]),
		...n8nFiles.credentials.map((f) => ['credentials', f]),
	].filter(([, f]) => fileSet.has(path.posix.normalize(f)));
	const loadedJson = path.join(tmp, 'loaded.json'); // not stdout: module code may print
	run(process.execPath, ['-e', loader, loadedJson, JSON.stringify(present)], {
		cwd: packageDir,
		env: { ...process.env, NODE_PATH: path.join(ROOT, 'node_modules') },
	});
	const loaded = JSON.parse(readFileSync(loadedJson, 'utf8'));
	const referencedIcons = new Set();
	const credentialNames = new Set();
	const nodesUsing = [];
	for (const entry of loaded) {
		if (entry.error) {
			contents.problems.push(`${entry.file}: cannot be loaded as n8n loads it: ${entry.error}`);
			continue;
		}
		for (const c of entry.classes.filter((c) => c.error))
			contents.problems.push(`${entry.file}: ${c.error}`);
		const found = entry.classes.filter((c) => !c.error);
		if (found.length === 0) {
			contents.problems.push(
				`${entry.file}: exports no ${entry.kind === 'nodes' ? 'node (class with a description)' : 'credential (class with a name)'}`,
			);
			continue;
		}
		const dir = path.posix.dirname(entry.file);
		for (const c of found) {
			if (entry.kind === 'credentials') credentialNames.add(c.name);
			else nodesUsing.push({ file: entry.file, name: c.name, credentials: c.credentials });
			const icons =
				c.icon === null ? [] : typeof c.icon === 'string' ? [c.icon] : Object.values(c.icon);
			if (entry.kind === 'nodes' && icons.length === 0)
				contents.problems.push(`${entry.file}: node "${c.name}" has no icon`);
			for (const icon of icons) {
				if (typeof icon !== 'string' || !icon.startsWith('file:')) continue; // fa:… and node:… icons ship nothing
				const iconPath = path.posix.normalize(path.posix.join(dir, icon.slice('file:'.length)));
				referencedIcons.add(iconPath);
				if (!fileSet.has(iconPath))
					contents.problems.push(
						`${entry.file}: "${c.name}" names icon ${icon}, and ${iconPath} is not in the package`,
					);
			}
		}
		if (entry.kind === 'nodes') {
			const codexFile = entry.file.replace(/\.js$/, '.json');
			if (!fileSet.has(codexFile))
				contents.problems.push(`${entry.file}: no codex file ${codexFile} beside it`);
			else {
				try {
					const codex = JSON.parse(readFileSync(path.join(packageDir, codexFile), 'utf8'));
					const names = found.map((c) => `${pkg.name}.${c.name}`);
					if (!names.includes(codex.node))
						contents.problems.push(
							`${codexFile}: "node" is ${JSON.stringify(codex.node)}, expected ${names.join(' or ')}`,
						);
				} catch (e) {
					contents.problems.push(`${codexFile}: not valid JSON: ${e.message}`);
				}
			}
		}
	}
	for (const n of nodesUsing)
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
		try {
			const schema = JSON.parse(readFileSync(path.join(packageDir, f), 'utf8'));
			if (schema?.type !== 'object' || !Object.keys(schema.properties ?? {}).length)
				contents.problems.push(
					`${f}: not an object schema with properties (the editor ignores it)`,
				);
		} catch (e) {
			contents.problems.push(`${f}: not valid JSON: ${e.message}`);
		}
	}
	contents.notes.push(
		`loaded ${nodesUsing.map((n) => n.name).join(', ')} and credential ${[...credentialNames].join(', ')}; ${referencedIcons.size} icons named, all present`,
	);

	// ---- 4. package.json ----------------------------------------------------------------------
	const manifest = section('package.json');
	const inPackage = (p) => fileSet.has(path.posix.normalize(p.replace(/^\.\//, '')));
	/** As require() resolves a package's "main": the file, with .js/.json/.node, or its index. */
	const resolvesLikeMain = (p) =>
		['', '.js', '.json', '.node', '/index.js', '/index.json', '/index.node'].some((ext) =>
			inPackage(p + ext),
		);
	const matchesSome = (pattern) => {
		const re = new RegExp(
			`^${path.posix
				.normalize(pattern.replace(/^\.\//, ''))
				.replace(/[.+^${}()|[\]\\]/g, '\\$&')
				.replace(/\*/g, '.*')}$`,
		);
		return files.some((f) => re.test(f));
	};
	for (const field of ['main', 'module', 'browser'])
		if (typeof pkg[field] === 'string' && !resolvesLikeMain(pkg[field]))
			manifest.problems.push(
				`"${field}": "${pkg[field]}" is not in the package${field === 'main' ? ' (n8n loads the files in "n8n"; a package of nodes needs no "main")' : ''}`,
			);
	for (const field of ['types', 'typings'])
		if (typeof pkg[field] === 'string' && !inPackage(pkg[field]))
			manifest.problems.push(`"${field}": "${pkg[field]}" is not in the package`);
	const bins = typeof pkg.bin === 'string' ? { [pkg.name]: pkg.bin } : (pkg.bin ?? {});
	for (const [name, f] of Object.entries(bins))
		if (!inPackage(f)) manifest.problems.push(`"bin.${name}": "${f}" is not in the package`);
	for (const f of [].concat(pkg.man ?? []))
		if (!inPackage(f)) manifest.problems.push(`"man": "${f}" is not in the package`);
	const exportTargets = [];
	(function walk(v, at) {
		if (typeof v === 'string') exportTargets.push([at, v]);
		else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}[${i}]`));
		else if (v && typeof v === 'object')
			for (const [k, x] of Object.entries(v)) walk(x, `${at}[${JSON.stringify(k)}]`);
	})(pkg.exports, 'exports');
	for (const [at, target] of exportTargets)
		if (target.includes('*') ? !matchesSome(target) : !inPackage(target))
			manifest.problems.push(`"${at}": "${target}" is not in the package`);
	for (const entry of pkg.files ?? [])
		if (
			!entry.startsWith('!') &&
			!files.some((f) => f === entry || f.startsWith(`${entry.replace(/\/$/, '')}/`)) &&
			!matchesSome(entry)
		)
			manifest.problems.push(`"files": "${entry}" matches nothing in the package`);
	for (const field of [
		'dependencies',
		'optionalDependencies',
		'bundleDependencies',
		'bundledDependencies',
	]) {
		const deps = pkg[field];
		if (deps && (Array.isArray(deps) ? deps.length : Object.keys(deps).length))
			manifest.problems.push(
				`"${field}": ${Object.keys(Array.isArray(deps) ? Object.fromEntries(deps.map((d) => [d, 1])) : deps).join(', ')}: a community node keeps zero runtime dependencies`,
			);
	}
	const author =
		typeof pkg.author === 'string'
			? pkg.author
			: [
					pkg.author?.name,
					pkg.author?.email && `<${pkg.author.email}>`,
					pkg.author?.url && `(${pkg.author.url})`,
				]
					.filter(Boolean)
					.join(' ');
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

	// ---- report -------------------------------------------------------------------------------
	let problems = 0;
	for (const s of report) {
		problems += s.problems.length;
		console.log(`\n${s.problems.length ? '✗' : '✓'} ${s.title}`);
		for (const p of s.problems) console.log(p.replace(/^/gm, '    '));
		if (!s.problems.length) for (const n of s.notes) console.log(`    ${n}`);
	}
	if (problems) {
		console.log(
			`\nscan: ${problems} problem(s) in ${packInfo.filename} (${secs(t0)} s)${opts.keep ? `; kept in ${tmp}` : ''}`,
		);
	} else {
		console.log(
			`\nscan: ${packInfo.filename} passes: nothing reported (${secs(t0)} s)${opts.keep ? `; kept in ${tmp}` : ''}`,
		);
		exitCode = 0;
	}
} catch (err) {
	console.error(`scan: ${err.stack ?? err}`);
} finally {
	if (!opts.keep) rmSync(tmp, { recursive: true, force: true });
}
process.exit(exitCode);
