/**
 * Writes docs/performance.md from bench/results.json without running the bench again
 * (`npx tsx bench/performance-doc.ts`); `npm run bench` does the same after measuring.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { renderPerformanceDoc, type Results } from './lib/performance-doc';

const root = path.join(__dirname, '..');
const results = JSON.parse(
	readFileSync(path.join(root, 'bench', 'results.json'), 'utf8'),
) as Results;
writeFileSync(path.join(root, 'docs', 'performance.md'), renderPerformanceDoc(results));
