/**
 * Runs `runItem` for items 0 … count − 1 with at most `atOnce` under way at a time, and returns
 * the outcomes in item order. An item starts only when one before it has ended, so with
 * `atOnce` 1 this is the plain loop: item after item. Once an item's outcome says `stop`, no
 * further item starts; those under way end first. Items never started have no outcome.
 */
export async function runItemsAtOnce<T>(
	count: number,
	atOnce: number,
	runItem: (itemIndex: number) => Promise<T>,
	stop: (outcome: T) => boolean,
): Promise<Array<T | undefined>> {
	const outcomes = new Array<T | undefined>(count);
	let next = 0;
	let stopped = false;
	const lane = async () => {
		while (!stopped && next < count) {
			const itemIndex = next++;
			const outcome = await runItem(itemIndex);
			outcomes[itemIndex] = outcome;
			if (stop(outcome)) stopped = true;
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(atOnce, count)) }, lane));
	return outcomes;
}
