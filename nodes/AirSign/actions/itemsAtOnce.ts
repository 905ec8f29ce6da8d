/** Decides when one more item may start (the adaptive lanes, transport/adaptiveLanes.ts). */
export interface ItemGate {
	/** May one more item start, with `itemsUnderWay` already running? */
	mayStart(itemsUnderWay: number): boolean;
	/** Resolves when an item has ended, so that {@link mayStart} may say yes now. */
	untilItemEnds(): Promise<void>;
	/** An item ended: wakes a waiter of {@link untilItemEnds}. */
	wake(): void;
}

/**
 * Runs `runItem` for items 0 … count − 1, starting them in item order as the gate allows, and
 * returns the outcomes in item order. With at most one under way this is the plain loop: item
 * after item. Once an item's outcome says `stop`, no further item starts; those under way end
 * first. Items never started have no outcome.
 */
export async function runItemsAtOnce<T>(
	count: number,
	lanes: ItemGate,
	runItem: (itemIndex: number) => Promise<T>,
	stop: (outcome: T) => boolean,
): Promise<Array<T | undefined>> {
	const outcomes = new Array<T | undefined>(count);
	const underWay = new Set<Promise<void>>();
	let next = 0;
	let stopped = false;
	let thrown: { error: unknown } | undefined;
	while (!stopped && next < count) {
		if (!lanes.mayStart(underWay.size)) {
			await lanes.untilItemEnds();
			continue;
		}
		const itemIndex = next++;
		const item: Promise<void> = runItem(itemIndex)
			.then(
				(outcome) => {
					outcomes[itemIndex] = outcome;
					if (stop(outcome)) stopped = true;
				},
				(error: unknown) => {
					thrown ??= { error };
					stopped = true;
				},
			)
			.finally(() => {
				underWay.delete(item);
				lanes.wake();
			});
		underWay.add(item);
	}
	await Promise.all(underWay);
	if (thrown) throw thrown.error;
	return outcomes;
}
