/**
 * Triggers of this process with a poll under way: n8n starts a poll on every tick even while the
 * last one runs, and two polls from one cursor would deliver the same updates twice. An entry
 * lives only while its poll runs, so this is no state between polls.
 */
const polling = new Set<string>();

/** Runs `poll` unless one of the same trigger (`key`) runs here; then `onSkip`, and null. */
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
