import type { EventMemory, KnownState, PictureProgress } from './knownStates';

/**
 * Starting pictures read by this n8n process, by trigger (workflow and node) and start.
 *
 * n8n 2.x's database-backed poll scheduler without durable cursors keeps nothing of a poll that
 * emits no item: the part of the starting picture such a poll read would be read again, and
 * again, spending List Sessions requests every poll until one emits. The picture is a fact about
 * the start (each entry is a session's state before it), valid whatever happened since, and it
 * only fills what the memory does not know: so the process keeps what it read, and a poll whose
 * stored memory is behind continues from there. Nothing else is kept here; where n8n saves every
 * poll, the stored memory is never behind and this changes nothing.
 */
const pictures = new Map<
	string,
	{ start: number; entries: Map<string, KnownState>; progress?: PictureProgress }
>();
/** Triggers whose picture is remembered at most. */
const MAX_REMEMBERED = 100;

/** Brings a memory whose picture is behind the one this process read up to it. */
export function catchUpPicture(triggerKey: string, memory: EventMemory): void {
	const cached = pictures.get(triggerKey);
	if (!memory.picture) {
		pictures.delete(triggerKey);
		return;
	}
	if (!cached || cached.start !== memory.start || !isAhead(cached.progress, memory.picture)) return;
	for (const [key, state] of cached.entries)
		if (!memory.known.has(key)) memory.known.set(key, state);
	memory.picture = cached.progress && { ...cached.progress, ids: [...cached.progress.ids] };
}

/** Remembers what the picture added to the memory in this poll, and where it stands. */
export function rememberPicture(
	triggerKey: string,
	memory: EventMemory,
	added: Map<string, KnownState>,
): void {
	let cached = pictures.get(triggerKey);
	if (!cached || cached.start !== memory.start) {
		cached = { start: memory.start, entries: new Map() };
		pictures.delete(triggerKey);
		if (pictures.size >= MAX_REMEMBERED) pictures.delete(pictures.keys().next().value as string);
		pictures.set(triggerKey, cached);
	}
	for (const [key, state] of added) cached.entries.set(key, state);
	cached.progress = memory.picture && { ...memory.picture, ids: [...memory.picture.ids] };
}

function isAhead(cached: PictureProgress | undefined, stored: PictureProgress): boolean {
	if (!cached) return true;
	return (
		(cached.createdAt ?? Number.NEGATIVE_INFINITY) > (stored.createdAt ?? Number.NEGATIVE_INFINITY)
	);
}
