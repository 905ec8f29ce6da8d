/**
 * Writes docs/performance.md and the README's Performance lines from bench/results.json without running the bench again
 * (`npx tsx bench/performance-doc.ts`); `npm run bench` does the same after measuring.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { renderPerformanceDoc, withReadmePerformance, type Results } from './lib/performance-doc';

const root = path.join(__dirname, '..');
const results = JSON.parse(
	readFileSync(path.join(root, 'bench', 'results.json'), 'utf8'),
) as Results;
writeFileSync(path.join(root, 'docs', 'performance.md'), renderPerformanceDoc(results));
const readme = path.join(root, 'README.md');
writeFileSync(readme, withReadmePerformance(readFileSync(readme, 'utf8'), results));
