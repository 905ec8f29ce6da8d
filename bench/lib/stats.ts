/** Small statistics and formatting helpers for the benches (no dependencies). */

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

export function ratioOf(a: number[], b: number[]): number[] {
	// Ratios are taken run by run (the same run's node and raw figures), then summarised.
	return a.map((value, i) => value / b[i]);
}

export function nowMs(): number {
	return performance.now();
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
	const start = performance.now();
	const value = await fn();
	return { ms: performance.now() - start, value };
}

export function mib(bytes: number): string {
	return `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
}

/** A markdown table from a header row and body rows. */
export function table(header: string[], rows: string[][]): string {
	const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
	return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function log(message: string): void {
	process.stderr.write(`[bench] ${message}\n`);
}

/** Runs both sides of a comparison, alternating which goes first, so drift on a noisy machine hits both alike. */
export async function inAlternatingOrder(
	run: number,
	one: () => Promise<unknown>,
	other: () => Promise<unknown>,
): Promise<void> {
	if (run % 2 === 0) {
		await one();
		await other();
	} else {
		await other();
		await one();
	}
}
