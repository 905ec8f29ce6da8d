// Step 2 of `npm run scan` (scripts/scan-package.mts): n8n's verification scanner,
// @n8n/scan-community-package, run through its own exported code on this repository (source leg)
// and on the extracted tarball (tarball leg); warnings fail the check as well as errors.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Linter } from 'eslint';
import { ROOT, secs, section, type Packed } from './lib.mts';

/** What the scanner's scanner.mjs exports that the scan uses (the package ships no types). */
interface ScannerModule {
	SOURCE_FILE_PATTERNS: string[];
	analyzePackage(
		packageDir: string,
		filePatterns: string[],
	): Promise<{ passed: boolean; message?: string; details?: string }>;
	buildScanConfig(): Promise<Linter.Config[]>;
}

export async function scanWithN8nScanner({ packInfo, packageDir }: Packed): Promise<void> {
	const scannerEntry = createRequire(import.meta.url).resolve(
		'@n8n/scan-community-package/scanner/scanner.mjs',
	);
	const scanner = (await import(pathToFileURL(scannerEntry).href)) as ScannerModule;
	// ESLint and fast-glob as the scanner resolves them (its own dependencies)
	const scannerRequire = createRequire(scannerEntry);
	const { ESLint } = scannerRequire('eslint') as typeof import('eslint');
	const glob = scannerRequire('fast-glob') as typeof import('fast-glob');
	const scannerVersion = (
		JSON.parse(
			readFileSync(path.join(path.dirname(scannerEntry), '..', 'package.json'), 'utf8'),
		) as { version: string }
	).version;
	const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json']; // analyzePackageByName's tarball leg
	const legs = [
		{ name: 'source', dir: ROOT, patterns: scanner.SOURCE_FILE_PATTERNS, label: 'this repository' },
		{ name: 'tarball', dir: packageDir, patterns: TARBALL_FILE_PATTERNS, label: packInfo.filename },
	];
	for (const leg of legs) {
		const t = performance.now();
		const s = section(
			`n8n scanner (@n8n/scan-community-package ${scannerVersion}), ${leg.name} leg: ${leg.label}, ${leg.patterns.join(' ')}`,
		);
		const verdict = await scanner.analyzePackage(leg.dir, leg.patterns);
		if (!verdict.passed) {
			s.problems.push(
				`the scanner fails it: ${verdict.message}${verdict.details ? `\n${verdict.details.trim()}` : ''}`,
			);
			continue;
		}
		// Same config and options as analyzePackage, to see warnings as well.
		const eslint = new ESLint({
			cwd: leg.dir,
			allowInlineConfig: false,
			overrideConfigFile: true,
			overrideConfig: await scanner.buildScanConfig(),
		});
		const targets = glob.sync(leg.patterns, {
			cwd: leg.dir,
			absolute: true,
			ignore: ['node_modules/**', '**/package-lock.json'],
		});
		if (targets.length === 0) {
			s.problems.push(
				`no file matches ${leg.patterns.join(' ')} in ${leg.dir}: nothing was scanned`,
			);
			continue;
		}
		const results = await eslint.lintFiles(targets);
		const errors = results.reduce((n, r) => n + r.errorCount, 0);
		const warnings = results.reduce((n, r) => n + r.warningCount, 0);
		if (errors + warnings > 0) {
			const stylish = await eslint.loadFormatter('stylish');
			s.problems.push(
				`the scanner passes it (it fails on errors only), but it reports ${errors} error(s), ${warnings} warning(s):\n` +
					String(await stylish.format(results)).trim(),
			);
		}
		s.notes.push(`${targets.length} files, passed with nothing reported (${secs(t)} s)`);
	}
}
