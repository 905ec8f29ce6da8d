/**
 * The Docs links n8n shows for the nodes (codex files) and the credential (documentationUrl) point
 * at README headings on the repository's page; `npm run lint:links` checks only Markdown files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { headingAnchors } from './headingAnchors';

import { AirSignApi } from '../../credentials/AirSignApi.credentials';

const ROOT = path.resolve(__dirname, '../..');
const NODES = path.join(ROOT, 'nodes/AirSign');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
	homepage: string;
};
const readmePage = pkg.homepage.replace(/#.*$/, '');

const anchors = headingAnchors(path.join(ROOT, 'README.md'));

interface Codex {
	resources: Record<string, Array<{ url: string }>>;
}

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

describe('documentation links of the nodes and the credential', () => {
	it('each names a heading of the README on the repository page', () => {
		expect(links.length).toBe(5);
		for (const { where, url } of links) {
			const [page, anchor] = url.split('#');
			expect(page, where).toBe(readmePage);
			expect(anchors.has(anchor), `${where}: ${url}: no README heading #${anchor}`).toBe(true);
		}
	});
});
