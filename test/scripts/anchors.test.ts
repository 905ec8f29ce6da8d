/**
 * The docs against the code. Links that `npm run lint:links` cannot see (it checks only Markdown):
 * docs/api.md is the API this package is built to: no tracked file cites a document outside the
 * repository (a maintainer who clones it could not read one), and every docs/api.md#anchor cited
 * names a heading there. The Docs links n8n shows for the nodes (codex files) and the credential
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

// The README's "Start here" against the banner `npm run dev` prints (scripts/dev/banner.mts, with
// the example workflows and two pending demo sessions): its items, curls, workflows and poll times.
const at = (file: string) => JSON.stringify(path.join(ROOT, file));

const PRINT_BANNER = `
import { procs } from ${at('scripts/dev/processes.mts')};
import { banner, demoCalls } from ${at('scripts/dev/banner.mts')};
import { loadExamples } from ${at('e2e/lib/fixtures.mts')};
procs.sandbox = { url: 'http://127.0.0.1:8787' };
procs.model = { baseUrl: 'http://127.0.0.1:8788/v1' };
const signers = (...emails) => emails.map((email) => ({ email, status: 'sent' }));
const pending = [
	{ sessionId: 's-1', name: 'Lease', status: 'pending', recipients: signers('a@example.com', 'b@example.com') },
	{ sessionId: 's-2', name: 'NDA', status: 'pending', recipients: signers('c@example.com') },
];
banner('http://127.0.0.1:5678', {}, demoCalls(pending), Object.values(loadExamples()));
`;

const printed = execFileSync(
	process.execPath,
	['--import', 'tsx', '--input-type=module', '-e', PRINT_BANNER],
	{ cwd: ROOT, encoding: 'utf8' },
);
/** The banner's numbered items, by number: their lines. */
const items = new Map<number, string>();
for (const part of printed.split(/^ {2}(?=\d\. )/m).slice(1))
	items.set(Number(part.slice(0, part.indexOf('.'))), part);
/** The URLs of an item's curl lines, in order. */
const curls = (n: number) =>
	[...(items.get(n) ?? '').matchAll(/curl -s(?: -X \w+)? '?(\S+?)'?(?: |$)/gm)].map((m) => m[1]);

const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const startHere = readme.slice(readme.indexOf('## Start here'), readme.indexOf('## Install'));

describe("README's Start here and the banner of npm run dev", () => {
	it('the number of items the README announces is what the banner numbers', () => {
		const [, count] = /prints (\w+) numbered items/.exec(startHere)!;
		const words = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
		expect([...items.keys()]).toEqual(
			words.slice(0, words.indexOf(count) + 1).map((_, i) => i + 1),
		);
	});

	it("each curl the README names is that item's, as it names it", () => {
		const named = [...startHere.matchAll(/[Ii]tem (\d)'s (first )?`curl` \(`…(\/\w+)`\)/g)];
		expect(named.map((m) => m[0])).toHaveLength(2);
		for (const [text, item, first, ending] of named) {
			const urls = curls(Number(item));
			expect(urls.length, text).toBeGreaterThan(0);
			if (!first) expect(urls, `${text}: the item's only curl`).toHaveLength(1);
			expect(urls[0], text).toMatch(new RegExp(`${ending}$`));
		}
	});

	it('the workflows the README opens or publishes are those of the items it names', () => {
		const steps = [...startHere.matchAll(/^\d\. Items? (\d)(?: and (\d))?: (.*(?:\n {3}.*)*)/gm)];
		expect(steps).toHaveLength(2);
		for (const [, a, b, text] of steps) {
			const names = [...text.matchAll(/"(AirSign: [^"]+)"/g)].map((m) => m[1]);
			expect(names).toHaveLength(b ? 2 : 1);
			expect(items.get(Number(a))).toContain(names[0].replace(/\s+/g, ' '));
			if (b) expect(items.get(Number(b))).toContain(names[1].replace(/\s+/g, ' '));
		}
	});

	it("the triggers' poll times and their requests an hour, as the banner says them", () => {
		const [, minutes, spent, budget] =
			/polls every (\d+) minutes: (\d+) of AirSign's (\d+) List Sessions/.exec(
				startHere.replace(/\s+/g, ' '),
			)!;
		const banner = printed.replace(/\s+/g, ' ');
		expect(banner).toContain(`it polls every ${minutes} minutes`);
		expect(banner).toContain(`This trigger polls every ${minutes} minutes`);
		expect(banner).toContain(`the two spend ${spent} of the ${budget} List Sessions requests`);
	});

	it('what npm run dev starts, on the ports the banner prints', () => {
		for (const url of ['http://127.0.0.1:8787', 'http://127.0.0.1:8788', 'http://127.0.0.1:5678']) {
			expect(startHere).toContain(`<${url}>`);
			expect(printed).toContain(url);
		}
	});
});
