// Step 4 of `npm run scan` (scripts/scan-package.mts): package.json as published. Every field that
// names a file names one in the tarball, no runtime dependencies, author, repository and homepage.
import path from 'node:path';
import { section, type Packed } from './lib.mts';

export function checkManifest({ files, fileSet, pkg }: Packed): void {
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
	for (const field of ['main', 'module', 'browser'] as const)
		if (typeof pkg[field] === 'string' && !resolvesLikeMain(pkg[field]))
			manifest.problems.push(
				`"${field}": "${pkg[field]}" is not in the package${field === 'main' ? ' (n8n loads the files in "n8n"; a package of nodes needs no "main")' : ''}`,
			);
	for (const field of ['types', 'typings'] as const)
		if (typeof pkg[field] === 'string' && !inPackage(pkg[field]))
			manifest.problems.push(`"${field}": "${pkg[field]}" is not in the package`);
	const bins = typeof pkg.bin === 'string' ? { [pkg.name]: pkg.bin } : (pkg.bin ?? {});
	for (const [name, f] of Object.entries(bins))
		if (!inPackage(f)) manifest.problems.push(`"bin.${name}": "${f}" is not in the package`);
	for (const f of ([] as string[]).concat(pkg.man ?? []))
		if (!inPackage(f)) manifest.problems.push(`"man": "${f}" is not in the package`);
	const exportTargets: Array<[string, string]> = [];
	(function walk(v: unknown, at: string): void {
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
	] as const) {
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
}
