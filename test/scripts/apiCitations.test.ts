/**
 * docs/api.md is the API this package is built to: no tracked file cites a document outside the
 * repository (a maintainer who clones it could not read one), and every docs/api.md#anchor
 * cited names a heading there (code comments escape `npm run lint:links`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { headingAnchors } from './headingAnchors';

const ROOT = path.resolve(__dirname, '../..');
const SELF = 'test/scripts/apiCitations.test.ts';
const OUTSIDE = /\.\.\/shared\/|signing-session-api|airsign-public-api|airsign-notes/i;
const CITATION = /docs\/api\.md#([\w-]+)/g;

const texts = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
	.split('\0')
	.filter((file) => file !== '' && file !== SELF && !/\.(png|jpe?g|gif|ico|tgz)$/.test(file))
	.filter((file) => existsSync(path.join(ROOT, file)))
	.map((file) => ({ file, lines: readFileSync(path.join(ROOT, file), 'utf8').split('\n') }));

const anchors = headingAnchors(path.join(ROOT, 'docs/api.md'));

describe('citations of the API', () => {
	it('no tracked file cites a document outside the repository', () => {
		const found = texts.flatMap(({ file, lines }) =>
			lines.flatMap((line, i) => (OUTSIDE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
		);
		expect(found, 'cite a section of docs/api.md instead').toEqual([]);
	});

	it('every docs/api.md#anchor names a heading of docs/api.md', () => {
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
