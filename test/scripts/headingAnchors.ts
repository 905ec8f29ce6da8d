import { readFileSync } from 'node:fs';

import GithubSlugger from 'github-slugger';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString } from 'mdast-util-to-string';

interface MarkdownNode {
	type: string;
	children?: MarkdownNode[];
}

/**
 * GitHub's anchors of a Markdown file's headings, as GitHub and `npm run lint:links`
 * (remark-validate-links) compute them: the headings as Markdown parses them (a `#` line in a code
 * block is none), slugged by github-slugger (a repeated heading gets `-1`, `-2`...).
 */
export function headingAnchors(file: string): Set<string> {
	const slugger = new GithubSlugger();
	const anchors = new Set<string>();
	const visit = (node: MarkdownNode): void => {
		if (node.type === 'heading') anchors.add(slugger.slug(toString(node)));
		node.children?.forEach(visit);
	};
	visit(fromMarkdown(readFileSync(file, 'utf8')));
	return anchors;
}
