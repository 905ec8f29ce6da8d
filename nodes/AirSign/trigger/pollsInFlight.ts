/**
 * Triggers of this n8n process with a poll under way, by workflow and node.
 *
 * n8n starts a poll on every tick of its schedule, whether or not the previous poll of the same
 * trigger has ended: a slow AirSign (a request waits up to its timeout, a rate limit is waited
 * out) lets two polls run at once. Both would read from the same cursor and deliver the same
 * updates twice. A poll that finds another one under way therefore does nothing; the next tick
 * reads from wherever the running one leaves the cursor, so nothing is lost.
 *
 * Only the process that polls holds an entry (the n8n main, also in queue mode), and only while
 * a poll runs, so this is no state between polls.
 */
const polling = new Set<string>();

/**
 * Runs `poll` unless a poll of the same trigger (`key`: workflow and node) is under way in this
 * process; then calls `onSkip` and returns null, as a poll that found nothing does.
 */
export async function pollUnlessAlreadyPolling<T>(
	key: string,
	poll: () => Promise<T>,
	onSkip: () => void,
): Promise<T | null> {
	if (polling.has(key)) {
		onSkip();
		return null;
	}
	polling.add(key);
	try {
		return await poll();
	} finally {
		polling.delete(key);
	}
}
