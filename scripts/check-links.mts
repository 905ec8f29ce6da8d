// Checks every relative link and image in the repository's Markdown files, offline: the file it
// names exists, and a #fragment names a heading of that file (GitHub's anchor rules). Links to
// other sites are not fetched (CI reaches no network but the registries); they are listed with
// --external. Part of `npm run lint`. Exit 1 with one line per broken link.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The Markdown files git knows of (tracked, or new and not ignored), so build output never counts. */
function markdownFiles(): string[] {
	const out = execFileSync(
		'git',
		['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', '*.md'],
		{ cwd: ROOT, encoding: 'utf8' },
	);
	return out
		.split('\0')
		.filter(Boolean)
		.filter((file) => existsSync(path.join(ROOT, file)));
}

/** The text outside fenced code blocks and inline code spans, line by line (line numbers kept). */
function proseLines(text: string): string[] {
	let fence: string | null = null;
	return text.split('\n').map((line) => {
		const marker = /^\s*(```+|~~~+)/.exec(line);
		if (marker) {
			if (fence === null) fence = marker[1][0];
			else if (marker[1][0] === fence) fence = null;
			return '';
		}
		return fence === null ? line.replace(/`+[^`]*`+/g, '') : '';
	});
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, -N for repeats. */
function anchorsOf(text: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	let fence: string | null = null;
	for (const line of text.split('\n')) {
		const marker = /^\s*(```+|~~~+)/.exec(line);
		if (marker) {
			if (fence === null) fence = marker[1][0];
			else if (marker[1][0] === fence) fence = null;
			continue;
		}
		if (fence !== null) continue;
		const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (!heading) continue;
		const words = heading[1]
			.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
			.replace(/<[^>]+>/g, '')
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\- _]/gu, '')
			.replace(/ /g, '-');
		const count = seen.get(words) ?? 0;
		seen.set(words, count + 1);
		anchors.add(count === 0 ? words : `${words}-${count}`);
	}
	// Explicit anchors: <a id="…"> or <a name="…">.
	for (const match of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
	return anchors;
}

/** Every link target on a line: [text](target), ![alt](target), <img src="target">. */
function targetsOn(line: string): string[] {
	const targets: string[] = [];
	for (const match of line.matchAll(
		/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g,
	))
		targets.push(match[1]);
	for (const match of line.matchAll(/<img\s[^>]*src="([^"]+)"/g)) targets.push(match[1]);
	// Reference definitions: [label]: target
	const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
	if (definition) targets.push(definition[1]);
	return targets;
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOfFile(file: string): Set<string> {
	let anchors = anchorCache.get(file);
	if (!anchors) {
		anchors = anchorsOf(readFileSync(file, 'utf8'));
		anchorCache.set(file, anchors);
	}
	return anchors;
}

const broken: string[] = [];
const external = new Set<string>();
let checked = 0;
for (const file of markdownFiles()) {
	const absolute = path.join(ROOT, file);
	const lines = proseLines(readFileSync(absolute, 'utf8'));
	lines.forEach((line, index) => {
		for (const target of targetsOn(line)) {
			const where = `${file}:${index + 1}`;
			if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
				external.add(target);
				continue;
			}
			checked++;
			const [rawPath, fragment] = target.split('#', 2);
			const linked =
				rawPath === '' ? absolute : path.resolve(path.dirname(absolute), decodeURI(rawPath));
			if (!linked.startsWith(ROOT)) {
				broken.push(`${where}: ${target} points outside the repository`);
				continue;
			}
			if (!existsSync(linked)) {
				broken.push(`${where}: ${target}: no such file`);
				continue;
			}
			if (fragment === undefined || fragment === '') continue;
			if (statSync(linked).isDirectory() || !linked.endsWith('.md')) {
				broken.push(`${where}: ${target}: a #fragment on a file that has no headings`);
				continue;
			}
			if (!anchorsOfFile(linked).has(decodeURIComponent(fragment).toLowerCase()))
				broken.push(
					`${where}: ${target}: no heading with that anchor in ${path.relative(ROOT, linked)}`,
				);
		}
	});
}

if (process.argv.includes('--external')) for (const url of [...external].sort()) console.log(url);
if (broken.length) {
	console.error(`check-links: ${broken.length} broken link(s):`);
	for (const line of broken) console.error(`  ${line}`);
	process.exit(1);
}
console.log(`check-links: ${checked} relative links and images in Markdown files, all present`);
