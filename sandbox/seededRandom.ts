/**
 * A seeded random source (mulberry32: small, well mixed, uniform enough for test data): the same
 * seed gives the same numbers, so a run can be replayed exactly. The sandbox draws the order of
 * equal rows under `tieOrder: 'random'` from it (seeded by `tieSeed`; with Math.random a rare
 * unlucky order was a test failure that no rerun could reproduce), and tests draw their data.
 */
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
