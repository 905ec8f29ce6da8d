#!/usr/bin/env node
// `npm run test:e2e`: the end-to-end tier against a real n8n (see e2e/README.md).
// First version: installs the pinned n8n (cached in .cache/n8n) and runs the machinery smoke
// test, which builds, packs and loads this package. Scenario tests get added here.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installN8n } from './install-n8n.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
await installN8n();
const steps = [['smoke', path.join(here, 'smoke.mjs')]];
let failed = 0;
for (const [name, file] of steps) {
	const t0 = Date.now();
	const res = spawnSync(process.execPath, [file, ...process.argv.slice(2)], { stdio: 'inherit' });
	const ok = res.status === 0;
	if (!ok) failed++;
	console.log(`[e2e] ${ok ? 'PASS' : 'FAIL'} ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}
process.exit(failed ? 1 : 0);
