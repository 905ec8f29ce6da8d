/**
 * Links that `npm run lint:links` cannot see, as it checks only Markdown files. docs/api.md is the
 * API this package is built to: no tracked file cites a document outside the repository (a
 * maintainer who clones it could not read one), and every docs/api.md#anchor cited names a heading
 * there. The Docs links n8n shows for the nodes (codex files) and the credential
 * (documentationUrl) point at README headings on the repository's page.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import GithubSlugger from 'github-slugger';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString } from 'mdast-util-to-string';
import { describe, expect, it } from 'vitest';

import { AirSignApi } from '../../credentials/AirSignApi.credentials';
import { homepage } from '../../package.json';

const ROOT = path.resolve(__dirname, '../..');
const SELF = 'test/scripts/anchors.test.ts';
const OUTSIDE = /\.\.\/shared\/|signing-session-api|airsign-public-api|airsign-notes/i;
const CITATION = /docs\/api\.md#([\w-]+)/g;

/**
 * GitHub's anchors of a Markdown file's headings, as GitHub and remark-validate-links compute them:
 * the headings as Markdown parses them (a `#` line in a code block is none), slugged by
 * github-slugger (a repeated heading gets `-1`, `-2`...).
 */
function headingAnchors(file: string): Set<string> {
	const slugger = new GithubSlugger();
	const anchors = new Set<string>();
	const visit = (node: { type: string; children?: unknown[] }): void => {
		if (node.type === 'heading') anchors.add(slugger.slug(toString(node)));
		(node.children as Array<typeof node> | undefined)?.forEach(visit);
	};
	visit(fromMarkdown(readFileSync(path.join(ROOT, file), 'utf8')));
	return anchors;
}

describe('citations of the API', () => {
	const texts = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
		.split('\0')
		.filter((file) => file !== '' && file !== SELF && !/\.(png|jpe?g|gif|ico|tgz)$/.test(file))
		.filter((file) => existsSync(path.join(ROOT, file)))
		.map((file) => ({ file, lines: readFileSync(path.join(ROOT, file), 'utf8').split('\n') }));

	it('no tracked file cites a document outside the repository', () => {
		const found = texts.flatMap(({ file, lines }) =>
			lines.flatMap((line, i) => (OUTSIDE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
		);
		expect(found, 'cite a section of docs/api.md instead').toEqual([]);
	});

	it('every docs/api.md#anchor names a heading of docs/api.md', () => {
		const anchors = headingAnchors('docs/api.md');
		const broken = texts.flatMap(({ file, lines }) =>
			lines.flatMap((line, i) =>
				[...line.matchAll(CITATION)]
					.filter(([, anchor]) => !anchors.has(anchor))
					.map(([citation]) => `${file}:${i + 1}: ${citation}`),
			),
		);
		expect(broken).toEqual([]);
	});
});

describe('documentation links of the nodes and the credential', () => {
	it('each names a heading of the README on the repository page', () => {
		const NODES = path.join(ROOT, 'nodes/AirSign');
		const anchors = headingAnchors('README.md');
		type Codex = { resources: Record<string, Array<{ url: string }>> };
		const links = [
			...readdirSync(NODES)
				.filter((file) => file.endsWith('.node.json'))
				.flatMap((file) => {
					const codex = JSON.parse(readFileSync(path.join(NODES, file), 'utf8')) as Codex;
					return Object.entries(codex.resources).flatMap(([kind, entries]) =>
						entries.map(({ url }) => ({ where: `${file} ${kind}`, url })),
					);
				}),
			{ where: 'AirSignApi documentationUrl', url: new AirSignApi().documentationUrl },
		];
		expect(links.length).toBe(5);
		for (const { where, url } of links) {
			const [page, anchor] = url.split('#');
			expect(page, where).toBe(homepage.replace(/#.*$/, ''));
			expect(anchors.has(anchor), `${where}: ${url}: no README heading #${anchor}`).toBe(true);
		}
	});
});
