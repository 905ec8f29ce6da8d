import type { TimeInput, TimestampPrecision } from './types';

/** The one clock of timestamps, token expiry and rate-limit windows: tests move it, never wait. */
export interface SandboxClock {
	now(): number;
	set(isoOrMs: TimeInput): void;
	advance(ms: number): void;
	freeze(): void;
	unfreeze(): void;
	readonly frozen: boolean;
}

export function toMillis(value: TimeInput): number {
	const ms =
		value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
	if (!Number.isFinite(ms)) throw new Error(`Not a time: ${String(value)}`);
	return ms;
}

export function createClock(start?: TimeInput): SandboxClock & { restart(): void } {
	// Running: real time plus offset. Frozen: a fixed instant.
	let offset = 0;
	let frozenAt: number | null = null;

	const restart = () => {
		offset = 0;
		frozenAt = start === undefined ? null : toMillis(start);
	};
	restart();

	const clock = {
		now: () => frozenAt ?? Date.now() + offset,
		set(isoOrMs: TimeInput) {
			const target = toMillis(isoOrMs);
			if (frozenAt !== null) frozenAt = target;
			else offset = target - Date.now();
		},
		advance(ms: number) {
			clock.set(clock.now() + ms);
		},
		freeze() {
			if (frozenAt === null) frozenAt = clock.now();
		},
		unfreeze() {
			if (frozenAt === null) return;
			offset = frozenAt - Date.now();
			frozenAt = null;
		},
		get frozen() {
			return frozenAt !== null;
		},
		restart,
	};
	return clock;
}

/** In 's' mode stored times lose their milliseconds, so equal timestamps really occur. */
export function truncateToPrecision(ms: number, precision: TimestampPrecision): number {
	return precision === 's' ? Math.floor(ms / 1000) * 1000 : ms;
}

export function formatTimestamp(ms: number, precision: TimestampPrecision): string {
	const iso = new Date(ms).toISOString();
	return precision === 's' ? iso.replace(/\.\d{3}Z$/, 'Z') : iso;
}

/** mulberry32: a small seeded generator of numbers in [0, 1), the same sequence for a seed. */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
