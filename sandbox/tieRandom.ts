/**
 * The random source of `tieOrder: 'random'`: a new order of equal rows on every request, drawn
 * from a generator seeded by `tieSeed`, so that a run can be replayed exactly (the same seed and
 * the same requests give the same orders). With Math.random a rare unlucky order was a test
 * failure that no rerun could reproduce.
 */
export function createTieRandom(seed: number): () => number {
	// mulberry32: a small, well-mixed 32-bit generator; uniform enough for shuffling test data.
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
