/**
 * `npm run fuzz 2>&1 | tee fuzz.log; npx tsx scripts/fuzz-figures.mts fuzz.log [--commit <sha>]
 * [--date YYYY-MM-DD]`: a green run's figures (each property's `[fuzz] passed: …` line, from
 * test/fuzz/budget.ts, on both engines) between the `<!-- fuzz-figures -->` markers of
 * docs/reliability.md and the README, so that no figure is copied by hand; any other log is refused.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, stripVTControlCharacters } from 'node:util';

const ENGINES = ['n8n 2.x', 'n8n 1.x'];
const START =
	'<!-- fuzz-figures: written by scripts/fuzz-figures.mts from a log of npm run fuzz, do not edit -->';
const END = '<!-- /fuzz-figures -->';

/** The kinds of input item an input property counts (test/fuzz/inputCases.ts). */
const INPUT_ITEM_KINDS = ['items valid', 'items invalid', 'items junk'];

/** One engine's run: each property's `[fuzz]` line, vitest's `Test Files` summary ('' if missing), its duration. */
type Run = ReturnType<typeof parseRun>;
type PropertyResult = Run['properties'][number];
/** Where the figures come from: the log's date and, if given, the commit that ran. */
type Meta = { date: string; commit?: string };

export function parseRun(text: string) {
	const lines = text.matchAll(
		/^\[fuzz\] (passed|FAILED): "([^"]+)", (\d+) case\(s\), seed (-?\d+); tried: (.*)$/gm,
	);
	const properties = [...lines].map((match) => ({
		passed: match[1] === 'passed',
		name: match[2],
		cases: Number(match[3]),
		seed: Number(match[4]),
		// what its cases tried: "what count, …"
		tried: Object.fromEntries(
			[...match[5].matchAll(/([^,]+) (\d+)(?:, |$)/g)].map(([, what, n]) => [what, Number(n)]),
		) as Record<string, number>,
	}));
	const filesSummary = (/Test Files\s+(.*)/.exec(text)?.[1] ?? '').trim();
	const durationSeconds = Number(/Duration\s+([\d.]+)s/.exec(text)?.[1] ?? NaN);
	return { properties, filesSummary, durationSeconds };
}

/** Both engines' runs, or an error saying why this log cannot be recorded. */
export function parseLog(log: string): Run[] {
	const text = stripVTControlCharacters(log); // the colours vitest adds in a terminal
	const runs = text.split(/^\s*RUN\s+v\S+ .*$/m).slice(1);
	if (runs.length !== ENGINES.length)
		throw new Error(`expected 2 vitest runs (n8n 2.x, then n8n 1.x), found ${runs.length}`);
	const parsed = runs.map(parseRun);
	parsed.forEach((run, i) => {
		const failed = run.properties.filter((p) => !p.passed).map((p) => p.name);
		if (failed.length > 0) throw new Error(`${ENGINES[i]}: failed: ${failed.join(', ')}`);
		// A run cut short (a crash, Ctrl-C) prints no summary: only a finished, green one counts.
		const green = /^\d+ passed/.test(run.filesSummary) && !/failed/.test(run.filesSummary);
		if (!green || run.properties.length === 0 || !Number.isFinite(run.durationSeconds))
			throw new Error(`${ENGINES[i]}: not green (Test Files ${run.filesSummary || 'missing'})`);
	});
	const names = (run: Run) => JSON.stringify(run.properties.map((p) => p.name).sort());
	if (names(parsed[0]) !== names(parsed[1]))
		throw new Error('the two engines ran different properties');
	return parsed;
}

const thousands = (n: number): string => n.toLocaleString('en-GB');

/** Where the figures come from, and a line per engine: its cases, input items and fuzzed answers. */
function summary(runs: Run[], { date, commit }: Meta): string[] {
	const lines = runs.map((run, i) => {
		let [inputItems, answerCases] = [0, 0];
		for (const p of run.properties)
			if (!p.name.startsWith('inputs')) answerCases += p.cases;
			else for (const kind of INPUT_ITEM_KINDS) inputItems += p.tried[kind] ?? 0;
		const counts = [...new Set(run.properties.map((p) => p.cases))].map(thousands);
		const cases = thousands(run.properties.reduce((sum, p) => sum + p.cases, 0));
		return (
			`- ${ENGINES[i]}: ${run.properties.length} properties × ${counts.join(' to ')} cases, all passed ` +
			`(${cases} cases: ${thousands(inputItems)} items of input, ` +
			`${thousands(answerCases)} fuzzed answers) in ${Math.round(run.durationSeconds / 60)} min.`
		);
	});
	const where = commit ? ` on a fresh clone of \`${commit}\`` : '';
	return [`One uninterrupted \`npm run fuzz\`${where}, ${date}:`, '', ...lines];
}

export function renderReadme(runs: Run[], meta: Meta): string {
	return [START, ...summary(runs, meta), END].join('\n');
}

export function renderDoc(runs: Run[], meta: Meta): string {
	const [v2, v1] = runs;
	const byName = new Map(v1.properties.map((p) => [p.name, p]));
	const label = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);
	const tried = (p: PropertyResult): string =>
		Object.entries(p.tried)
			.sort(([a], [b]) => a.localeCompare(b))
			.map(([what, n]) => `${what} ${thousands(n)}`)
			.join(', ');
	// inputs first, then answers; by name within each
	const rank = (p: PropertyResult): number => (p.name.startsWith('inputs') ? 0 : 1);
	const ordered = [...v2.properties].sort(
		(a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name),
	);
	const rows = ordered.map((p) => {
		// parseLog made sure both engines ran the same properties.
		const other = byName.get(p.name)!;
		return `| ${label(p.name)} | ${thousands(p.cases)} passed (seed ${p.seed}) | ${thousands(other.cases)} passed (seed ${other.seed}) | ${tried(p)} |`;
	});
	return [
		START,
		...summary(runs, meta),
		'',
		'| Property | n8n 2.x | n8n 1.x | What the 2.x cases tried |',
		'|---|---|---|---|',
		...rows,
		END,
	].join('\n');
}

function replaceBlock(text: string, block: string, file: string): string {
	const start = text.indexOf(START);
	const end = text.indexOf(END);
	if (start === -1 || end < start) throw new Error(`${file} has no fuzz-figures markers`);
	return text.slice(0, start) + block + text.slice(end + END.length);
}

function main(args: string[]): void {
	const { positionals, values } = parseArgs({
		args,
		allowPositionals: true,
		options: { commit: { type: 'string' }, date: { type: 'string' } },
	});
	const [logPath] = positionals;
	if (!logPath)
		throw new Error(
			'usage: npx tsx scripts/fuzz-figures.mts <log of npm run fuzz> [--commit <sha>] [--date YYYY-MM-DD]',
		);
	const meta: Meta = {
		commit: values.commit,
		date: values.date ?? statSync(logPath).mtime.toISOString().slice(0, 10),
	};
	const runs = parseLog(readFileSync(logPath, 'utf8'));
	const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
	for (const [file, render] of [
		['README.md', renderReadme],
		['docs/reliability.md', renderDoc],
	] as const) {
		const at = path.join(root, file);
		writeFileSync(at, replaceBlock(readFileSync(at, 'utf8'), render(runs, meta), file));
		console.log(`[fuzz-figures] wrote ${file}`);
	}
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	try {
		main(process.argv.slice(2));
	} catch (error) {
		console.error(`[fuzz-figures] ${error.message}`);
		process.exit(1);
	}
}
