// `npm run scan [-- --no-build] [--keep]` (part of `npm run check`; what it checks: CONTRIBUTING.md):
// the package as npm would publish it, checked the way n8n's verification checks it, plus what n8n
// needs to find in it. The steps are files of scripts/scan-package/: lib.mts (build, pack, extract
// as the scanner extracts a download; running a command, the report), n8n-scanner.mts (@n8n/scan-community-package's two ESLint
// legs, through its own exported code: its CLI only scans published packages, and its provenance
// check cannot run before publishing, which publish.yml does with --provenance), contents.mts (the
// tarball's files by rule, the nodes and credentials loaded as n8n loads them) and manifest.mts
// (every file package.json names, no runtime dependencies). Exits 1 with a report of all found.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkContents } from './scan-package/contents.mts';
import { pack, report, secs } from './scan-package/lib.mts';
import { checkManifest } from './scan-package/manifest.mts';
import { scanWithN8nScanner } from './scan-package/n8n-scanner.mts';

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
	const packed = pack(tmp, !opts['no-build']);
	await scanWithN8nScanner(packed);
	checkContents(packed, tmp);
	checkManifest(packed);
	let problems = 0;
	for (const s of report) {
		problems += s.problems.length;
		console.log(`\n${s.problems.length ? '✗' : '✓'} ${s.title}`);
		for (const p of s.problems) console.log(p.replace(/^/gm, '    '));
		if (!s.problems.length) for (const n of s.notes) console.log(`    ${n}`);
	}
	const { filename } = packed.packInfo;
	const verdict = problems
		? `${problems} problem(s) in ${filename}`
		: `${filename} passes: nothing reported`;
	console.log(`\nscan: ${verdict} (${secs(t0)} s)${opts.keep ? `; kept in ${tmp}` : ''}`);
	if (!problems) exitCode = 0;
} catch (err) {
	console.error(`scan: ${err.stack ?? err}`);
} finally {
	if (!opts.keep) rmSync(tmp, { recursive: true, force: true });
}
process.exit(exitCode);
