/** `npx tsx bench/performance-doc.ts`: docs/performance.md and the README's Performance lines from bench/results.json, without measuring (`npm run bench` writes them after measuring). */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { type Results, writePerformanceDocs } from './lib/performance-doc';

writePerformanceDocs(
	JSON.parse(readFileSync(path.join(__dirname, 'results.json'), 'utf8')) as Results,
);
