/** Every printed figure, kept by name for bench/results.json: docs read figures, not copies. */
import { summarize, type Summary } from './stats';

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

export function recordedFigures(): Figure[] {
	return [...figures.values()];
}
