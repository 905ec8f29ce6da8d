/** Small statistics, the recorded figures and formatting helpers for the benches (no dependencies). */

export interface Summary {
	median: number;
	min: number;
	max: number;
	runs: number;
}

export function summarize(values: number[]): Summary {
	if (values.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, runs: 0 };
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
	return { median, min: sorted[0], max: sorted[sorted.length - 1], runs: values.length };
}

/** "12.3 (11.9–13.0)": median with min–max. */
export function fmt(summary: Summary, digits = 1): string {
	if (!summary.runs) return 'n/a';
	if (summary.runs === 1) return summary.median.toFixed(digits);
	return `${summary.median.toFixed(digits)} (${summary.min.toFixed(digits)}–${summary.max.toFixed(digits)})`;
}

export const fmtOf = (values: number[], digits = 1) => fmt(summarize(values), digits);

export function ratioOf(a: number[], b: number[]): number[] {
	// Ratios are taken run by run (the same run's node and raw figures), then summarised.
	return a.map((value, i) => value / b[i]);
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
	const start = performance.now();
	const value = await fn();
	return { ms: performance.now() - start, value };
}

/** Each contestant once a run, first place rotating (drift hits all alike); `warmUp`: one round. */
export async function rotate<C extends Record<string, (() => Promise<unknown>) | undefined>>(
	runs: number,
	contestants: C,
	warmUp = false,
): Promise<{ [K in keyof C]-?: Array<Awaited<ReturnType<NonNullable<C[K]>>>> }> {
	const entries = Object.entries(contestants).filter(([, run]) => run !== undefined);
	if (warmUp) for (const [, run] of entries) await run!();
	const results: Record<string, unknown[]> = Object.fromEntries(
		entries.map(([name]) => [name, []]),
	);
	for (let run = 0; run < runs; run++)
		for (let i = 0; i < entries.length; i++) {
			const [name, work] = entries[(run + i) % entries.length];
			results[name].push(await work!());
		}
	return results as never;
}

/** A markdown table from a header row (or its cells joined by ' | ') and body rows. */
export function table(head: string[] | string, rows: string[][]): string {
	const header = typeof head === 'string' ? head.split(' | ') : head;
	const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
	return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function log(message: string): void {
	process.stderr.write(`[bench] ${message}\n`);
}

/** Every printed figure, kept by name for bench/results.json: docs read figures, not copies. */
export interface Figure extends Summary {
	/** `operation/mode/size/latency/client[/at once]/measure`, e.g. `upload/filesystem/7MiB/0ms/node/x1/peak-per-file-semi1`. */
	name: string;
	operation: string;
	/** n8n's binary data mode, or the scenario (`plain`, `burst`). */
	mode: string;
	size: string;
	latencyMs: number;
	client: string;
	measure: string;
	unit: string;
}

const figures = new Map<string, Figure>();

export function record(
	parts: Omit<Figure, 'name' | 'median' | 'min' | 'max' | 'runs'>,
	values: number[],
): void {
	const { operation, mode, size, latencyMs, client, measure } = parts;
	const name = [operation, mode, size, `${latencyMs}ms`, client, measure].join('/');
	figures.set(name, { name, ...parts, ...summarize(values) });
}

export const recordedFigure = (name: string): Figure | undefined => figures.get(name);

export const recordedFigures = (): Figure[] => [...figures.values()];
