// Step 3 of `npm run scan` (scripts/scan-package.mts): the tarball's files, by rule, and the nodes
// and credentials that package.json's "n8n" field names, loaded from the extracted tarball as n8n
// loads them to read their icons, names, credentials and codex files.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, run, section, type Packed } from './lib.mts';

/** The two lists of package.json's "n8n" field. */
type Kind = 'nodes' | 'credentials';

/** What the loader (run in a child node) writes for one file named in package.json's "n8n". */
interface LoadedFile {
	kind: Kind;
	file: string;
	/** Why the file could not be required, first line. */
	error?: string;
	/**
	 * Each exported node (its description) or credential: its icon ("file:…", "fa:…", "node:…",
	 * or one per theme), credentials; or, in `error`, why `new` threw on it.
	 */
	classes: Array<{
		error?: string;
		name: string;
		icon: string | Record<string, unknown> | null;
		credentials: string[];
	}>;
}

export function checkContents({ packageDir, files, fileSet, pkg }: Packed, tmp: string): void {
	const contents = section('package contents');
	const DIST = /^dist\/(nodes|credentials)\//;
	const allowed: Array<{ re: RegExp; what: string }> = [
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
	const reasons: Array<{ re: RegExp; why: string }> = [
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
	const unexpected = new Map<string, string[]>(); // reason → files
	const kept: string[] = [];
	for (const f of files) {
		const rule = allowed.find((a) => a.re.test(f));
		const reason = reasons.find((r) => r.re.test(f));
		if (!rule || (reason && rule.what !== 'package files')) {
			const why = reason?.why ?? 'matches none of the allowed kinds of file';
			unexpected.set(why, [...(unexpected.get(why) ?? []), f]);
		} else {
			counts.set(rule.what, counts.get(rule.what)! + 1); // counts holds every rule's `what`
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
	const present: Array<[Kind, string]> = [
		...n8nFiles.nodes.map((f): [Kind, string] => ['nodes', f]),
		...n8nFiles.credentials.map((f): [Kind, string] => ['credentials', f]),
	].filter(([, f]) => fileSet.has(path.posix.normalize(f)));
	const loadedJson = path.join(tmp, 'loaded.json'); // not stdout: module code may print
	run(process.execPath, ['-e', loader, loadedJson, JSON.stringify(present)], {
		cwd: packageDir,
		env: { ...process.env, NODE_PATH: path.join(ROOT, 'node_modules') },
	});
	const loaded = JSON.parse(readFileSync(loadedJson, 'utf8')) as LoadedFile[];
	const referencedIcons = new Set<string>();
	const credentialNames = new Set<string>();
	const nodesUsing: Array<{ file: string; name: string; credentials: string[] }> = [];
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
					const codex = JSON.parse(readFileSync(path.join(packageDir, codexFile), 'utf8')) as {
						node: string;
					};
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
			const schema = JSON.parse(readFileSync(path.join(packageDir, f), 'utf8')) as {
				type?: unknown;
				properties?: object;
			} | null;
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
}
