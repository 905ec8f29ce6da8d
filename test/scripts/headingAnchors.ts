import { readFileSync } from 'node:fs';

/**
 * GitHub's anchors of a Markdown file's headings, as GitHub and `npm run lint:links`
 * (remark-validate-links) compute them, for a file that repeats no heading: lower case,
 * punctuation dropped, spaces to hyphens.
 */
export function headingAnchors(file: string): Set<string> {
	return new Set(
		readFileSync(file, 'utf8')
			.split('\n')
			.filter((line) => /^#{1,6}\s/.test(line))
			.map((line) =>
				line
					.replace(/^#+\s+/, '')
					.toLowerCase()
					.replace(/[^\p{L}\p{N}\- _]/gu, '')
					.replace(/ /g, '-'),
			),
	);
}
