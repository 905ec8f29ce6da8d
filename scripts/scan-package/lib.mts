// What the steps of `npm run scan` (scripts/scan-package.mts) share: the repository's root, timing,
// the report's sections, and running a command.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const secs = (t: number): string => ((performance.now() - t) / 1000).toFixed(1);

/** One section of the report: what was checked, what is wrong, what was found when nothing is. */
export interface Section {
	title: string;
	problems: string[];
	notes: string[];
}

/** The report's sections, in the order the steps opened them. */
export const report: Section[] = [];
export const section = (title: string): Section => {
	const s: Section = { title, problems: [], notes: [] };
	report.push(s);
	return s;
};

export function run(
	cmd: string,
	args: string[],
	options: Omit<SpawnSyncOptions, 'encoding'> = {},
): string {
	const r = spawnSync(cmd, args, {
		cwd: ROOT,
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
		...options,
	});
	if (r.error) throw r.error;
	if (r.status !== 0) {
		const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
		throw new Error(
			`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})${out ? `:\n${out}` : ''}`,
		);
	}
	return r.stdout;
}
