// `npm run scan` (part of `npm run check`): the package as npm would publish it, checked the way
// n8n's verification checks it, plus what n8n needs to find in it.
//
//   npx tsx scripts/scan-package.mts [--no-build] [--keep]
//
//   --no-build  use the current dist/ (`npm run check` has just built it); default: `npm run build`
//   --keep      keep the temporary folder with the tarball and its extracted contents
//
// 1. `npm pack` into a temporary folder, extracted there as the scanner extracts a downloaded one
//    (tar -xzf --strip-components=1).
// 2. n8n's verification scanner, @n8n/scan-community-package (pinned in devDependencies). Its CLI
//    only scans published packages (it downloads the tarball and the source commit named by the
//    npm provenance statement), so its two ESLint legs run here on local copies, through its own
//    exported code: `buildScanConfig()` (its rule set, with its own pinned plugin versions),
//    `SOURCE_FILE_PATTERNS` and the ESLint options of its `analyzePackage()` (no inline
//    eslint-disable comments):
//      source leg   this repository (what the provenance commit holds), SOURCE_FILE_PATTERNS
//      tarball leg  the extracted tarball, **/*.js + package.json (as in analyzePackageByName)
//    `analyzePackage()` itself gives the verdict n8n would give (it fails on errors only); the
//    same config is run once more to show warnings too, which fail this check as well: the scan
//    must report nothing. Its provenance check cannot run before publishing: .github/workflows/
//    publish.yml publishes with --provenance.
// 3. The tarball's file list, by rule (no list of current files, so node folders may move):
//    only package.json, README.md, LICENSE.md and, under dist/nodes and dist/credentials,
//    compiled .js (no tests), .svg/.png icons, .node.json codex files and the output schemas in a
//    node's __schema__ folder (each beside a node, an object with fields); every file named in
//    package.json's "n8n" field present, each node with its codex beside it and every icon that a
//    node or credential names ("file:…"); no icon that none names; no compiled file without a
//    source (a leftover from an earlier build). The nodes and credentials are loaded from the
//    extracted tarball as n8n loads them (n8n-workflow from NODE_PATH) to read their icons,
//    names and credentials.
// 4. package.json: every field that names a file (main, module, browser, types, typings, bin,
//    man, exports, files, n8n.nodes, n8n.credentials) names one in the tarball; no runtime
//    dependencies; author, repository and homepage present (publish.yml checks that the
//    repository is the one it publishes from).
//
// Exits 1 with a report of everything found.
//
// Each step is a file of scripts/scan-package/: pack.mts, n8n-scanner.mts, contents.mts and
// manifest.mts; lib.mts holds the report's sections and running a command.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkContents } from './scan-package/contents.mts';
import { report, secs } from './scan-package/lib.mts';
import { checkManifest } from './scan-package/manifest.mts';
import { scanWithN8nScanner } from './scan-package/n8n-scanner.mts';
import { pack } from './scan-package/pack.mts';

const { values: opts } = parseArgs({
	options: { 'no-build': { type: 'boolean' }, keep: { type: 'boolean' } },
});
const t0 = performance.now();

// The scanner creates a temporary folder when it is imported (tmp.dirSync, never removed):
// TMPDIR points at ours so that it goes with it.
const tmp = mkdtempSync(path.join(os.tmpdir(), 'airsign-scan-'));
process.env.TMPDIR = tmp;
let exitCode = 1;
try {
	// ---- 1. build, pack, extract ------------------------------------------------------------
	const packed = pack(tmp, !opts['no-build']);
	const { packInfo } = packed;
	// ---- 2. n8n's verification scanner ------------------------------------------------------
	await scanWithN8nScanner(packed);
	// ---- 3. the tarball's files ---------------------------------------------------------------
	checkContents(packed, tmp);
	// ---- 4. package.json ----------------------------------------------------------------------
	checkManifest(packed);

	// ---- report -------------------------------------------------------------------------------
	let problems = 0;
	for (const s of report) {
		problems += s.problems.length;
		console.log(`\n${s.problems.length ? '✗' : '✓'} ${s.title}`);
		for (const p of s.problems) console.log(p.replace(/^/gm, '    '));
		if (!s.problems.length) for (const n of s.notes) console.log(`    ${n}`);
	}
	if (problems) {
		console.log(
			`\nscan: ${problems} problem(s) in ${packInfo.filename} (${secs(t0)} s)${opts.keep ? `; kept in ${tmp}` : ''}`,
		);
	} else {
		console.log(
			`\nscan: ${packInfo.filename} passes: nothing reported (${secs(t0)} s)${opts.keep ? `; kept in ${tmp}` : ''}`,
		);
		exitCode = 0;
	}
} catch (err) {
	console.error(`scan: ${err.stack ?? err}`);
} finally {
	if (!opts.keep) rmSync(tmp, { recursive: true, force: true });
}
process.exit(exitCode);
