// `npx tsx scripts/release-preflight.mts [--tag v1.2.3] [--repo owner/name]` (defaults: $GITHUB_REF_NAME,
// $GITHUB_REPOSITORY), run by publish.yml before `npm publish --provenance`: the tag must be "v" +
// the version, the repository URL the one the workflow runs in (npm rejects provenance from another).
// Prints the npm dist-tag (latest, or next for a prerelease), also as `dist-tag` to $GITHUB_OUTPUT.
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { tag: { type: 'string' }, repo: { type: 'string' } } });
const tag = values.tag ?? process.env.GITHUB_REF_NAME ?? '';
const repo = values.repo ?? process.env.GITHUB_REPOSITORY ?? '';
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
	name: string;
	version: string;
	repository?: string | { url?: string };
};

const errors: string[] = [];
if (tag !== `v${pkg.version}`)
	errors.push(
		`the tag "${tag}" is not "v" + package.json's version (${pkg.version}): tag the commit whose package.json says the version you publish`,
	);

const repoUrl = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
// git+https://github.com/owner/name.git, https://github.com/owner/name, github:owner/name
const m = /^(?:git\+)?(?:https?:\/\/github\.com\/|github:)([^/]+\/[^/#]+?)(?:\.git)?\/?$/i.exec(
	repoUrl ?? '',
);
if (!repo) errors.push('no GitHub repository given (--repo owner/name or $GITHUB_REPOSITORY)');
else if (!m)
	errors.push(
		`package.json "repository" (${JSON.stringify(pkg.repository)}) is not a GitHub repository URL; set it to "git+https://github.com/${repo}.git"`,
	);
else if (m[1].toLowerCase() !== repo.toLowerCase())
	errors.push(
		`package.json "repository.url" names ${m[1]}, but this workflow runs in ${repo}: npm rejects the provenance statement; set it to "git+https://github.com/${repo}.git" (and "homepage" to match)`,
	);

if (errors.length) {
	for (const e of errors) console.error(`release-preflight: ${e}`);
	process.exit(1);
}
const distTag = pkg.version.includes('-') ? 'next' : 'latest';
if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `dist-tag=${distTag}\n`);
console.log(
	`release-preflight: ${pkg.name}@${pkg.version} from ${repo}, tag ${tag}, npm dist-tag "${distTag}"`,
);
