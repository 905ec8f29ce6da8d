import type { IDataObject } from 'n8n-workflow';

/**
 * The "known" states of the AirSign Trigger's events (node version 2): for every session that
 * can still change, the last state the trigger processed: its status, its recipients' statuses
 * and when the trigger saw it. Events are the difference between a delivered state and this.
 *
 * It is kept in the node's static data in the same write as the cursor (see triggerState.ts),
 * so it moves exactly with the cursor: a state is diffed exactly once, against exactly the state
 * before it.
 *
 * Compact, because n8n writes the whole static data to its database after every poll that
 * emits (and a trigger may watch 10,000 sessions in flight): each session is a 7-character hash
 * of its ID and one character per recipient; statuses are coded against a small dictionary kept
 * alongside; entries are grouped by status, number of recipients and the minute (the day, once
 * older than a day) they were seen, so that they need no separator.
 */
export interface KnownState {
	/** The session's status (any text AirSign gives). */
	status: string;
	/**
	 * The recipients' statuses, ordered by recipientId; undefined for a recipient whose status
	 * could not be coded (more distinct statuses than the dictionary holds).
	 */
	recipients: Array<string | undefined>;
	/**
	 * When the trigger saw this state, on AirSign's clock: the cursor after the poll that
	 * processed it, or the state's updatedAt when that is later (never before the state). To the
	 * minute; to the day once more than a day old.
	 */
	seenAt: number;
}

export interface EventMemory {
	/** The instant the trigger started from (its first cursor), epoch ms. */
	start: number;
	/** Known states by {@link sessionKey}. */
	known: Map<string, KnownState>;
	/**
	 * The starting picture (sessions in flight at the start) still being read: where its
	 * keyset paging stands. Undefined once it is read.
	 */
	picture?: PictureProgress;
}

export interface PictureProgress {
	/** Newest createdAt read so far (epoch ms); undefined before the first page. */
	createdAt?: number;
	/** Sessions already read that were created at exactly `createdAt`. */
	ids: string[];
	/** The group at `createdAt` was read to its end by offsets (more than a page share it). */
	groupDone?: boolean;
}

/**
 * How far back (on AirSign's clock, from the cursor) a timestamp still proves a change that the
 * trigger cannot have processed before: a completion, expiry or creation older than this, on a
 * session the trigger does not know, was seen and forgotten (or happened while the trigger was
 * more than this far behind AirSign).
 */
export const PROOF_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * How long a session in a final state is still remembered, from when it was seen (AirSign's
 * clock). Longer than {@link PROOF_WINDOW_MS}, so that a session forgotten in its final state
 * never proves that state again; the hour covers a cursor held back by the settling window or a
 * page cap, and the minute a stored time is rounded down.
 */
export const TERMINAL_MEMORY_MS = PROOF_WINDOW_MS + 60 * 60 * 1000;

const MINUTE_MS = 60_000;
const DAY_MINUTES = 24 * 60;
/** 64 characters, each safe in JSON without escaping: one per code or per 6 bits of a hash. */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_';
/** A recipient status that did not fit the dictionary: never equal to anything. */
const UNCODED = '~';
const HASH_LENGTH = 7;

/**
 * A short key for a session ID: 42 bits (two FNV-1a digests). Two of 10,000 sessions share
 * one with a chance of about 1 in 90,000; IDs are compared case-insensitively, as AirSign does.
 */
export function sessionKey(sessionId: unknown): string {
	const id = String(sessionId).toLowerCase();
	const high = fnv1a(id, 0x811c9dc5);
	const low = fnv1a(id, 0x050c5d1f);
	let key = '';
	for (let i = 0; i < 5; i++) key += ALPHABET[(high >>> (i * 6)) & 63];
	for (let i = 0; i < 2; i++) key += ALPHABET[(low >>> (i * 6)) & 63];
	return key;
}

function fnv1a(text: string, seed: number): number {
	let hash = seed;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash;
}

/** Stored times count minutes from midnight UTC of the start's day: whole minutes and days. */
function epochOf(start: number): number {
	return start - (start % (DAY_MINUTES * MINUTE_MS));
}

/** The stored form, as kept in the node's static data (plain JSON). */
interface StoredMemory {
	start: string;
	/** Status texts; a status's code is the ALPHABET character at its index. */
	codes: string[];
	/**
	 * Entries by group: status code, number of recipients (one ALPHABET character) and minutes
	 * since midnight UTC of the start's day (base 36). Each entry is its key and one code per
	 * recipient, all of one width within a group, written one after the other.
	 */
	known: Record<string, string>;
	picture?: { createdAt?: string; ids: string[]; groupDone?: boolean };
}

export function newMemory(start: number): EventMemory {
	return { start, known: new Map(), picture: { ids: [] } };
}

/** The memory kept in the static data; undefined when there is none (or it cannot be read). */
export function readMemory(stored: unknown): EventMemory | undefined {
	if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return undefined;
	const data = stored as Partial<StoredMemory>;
	const start = Date.parse(String(data.start));
	if (Number.isNaN(start) || !Array.isArray(data.codes) || typeof data.known !== 'object')
		return undefined;
	const codes = data.codes;
	const decode = (code: string) => {
		const index = ALPHABET.indexOf(code);
		return index === -1 ? undefined : codes[index];
	};
	const known = new Map<string, KnownState>();
	for (const [group, entries] of Object.entries(data.known ?? {})) {
		const status = decode(group.charAt(0));
		const recipientCount = ALPHABET.indexOf(group.charAt(1));
		const minutes = parseInt(group.slice(2), 36);
		if (status === undefined || recipientCount === -1 || Number.isNaN(minutes)) continue;
		const seenAt = epochOf(start) + minutes * MINUTE_MS;
		const width = HASH_LENGTH + recipientCount;
		const text = String(entries);
		for (let at = 0; at + width <= text.length; at += width) {
			known.set(text.slice(at, at + HASH_LENGTH), {
				status,
				recipients: [...text.slice(at + HASH_LENGTH, at + width)].map(decode),
				seenAt,
			});
		}
	}
	const picture = data.picture;
	return {
		start,
		known,
		picture:
			picture === undefined
				? undefined
				: {
						createdAt:
							picture.createdAt === undefined ? undefined : Date.parse(String(picture.createdAt)),
						ids: Array.isArray(picture.ids) ? picture.ids.map(String) : [],
						...(picture.groupDone === true && { groupDone: true }),
					},
	};
}

/**
 * The form to store, with what is forgotten now left out: sessions in a final state seen more
 * than {@link TERMINAL_MEMORY_MS} before `now` (the cursor). Times of sessions in flight older
 * than a day are kept to the day.
 */
export function storeMemory(
	memory: EventMemory,
	isFinal: (status: string) => boolean,
	now: number,
): IDataObject {
	const codes: string[] = [];
	const codeOf = (status: string | undefined): string => {
		if (status === undefined) return UNCODED;
		let index = codes.indexOf(status);
		if (index === -1) {
			if (codes.length === ALPHABET.length) return UNCODED;
			index = codes.push(status) - 1;
		}
		return ALPHABET[index];
	};
	const epoch = epochOf(memory.start);
	const nowMinutes = Math.floor((now - epoch) / MINUTE_MS);
	const groups: Record<string, string[]> = {};
	for (const [key, state] of memory.known) {
		const final = isFinal(state.status);
		if (final && now - state.seenAt > TERMINAL_MEMORY_MS) continue;
		let minutes = Math.max(0, Math.floor((state.seenAt - epoch) / MINUTE_MS));
		if (!final && nowMinutes - minutes > DAY_MINUTES) minutes -= minutes % DAY_MINUTES;
		const status = codeOf(state.status);
		// A session status that does not fit the dictionary cannot be stored: it is forgotten,
		// and its next state counts as a first sighting (nothing is invented).
		if (status === UNCODED) continue;
		// More recipients than one character counts (AirSign allows 20): kept without them, so
		// that the count differs next time and no recipient is compared (none invented).
		const recipients = state.recipients.length < ALPHABET.length ? state.recipients : [];
		const group = status + ALPHABET[recipients.length] + minutes.toString(36);
		(groups[group] ??= []).push(key + recipients.map(codeOf).join(''));
	}
	const known: Record<string, string> = {};
	for (const [group, entries] of Object.entries(groups)) known[group] = entries.join('');
	const stored: StoredMemory = {
		start: new Date(memory.start).toISOString(),
		codes,
		known,
	};
	if (memory.picture) {
		stored.picture = {
			...(memory.picture.createdAt !== undefined && {
				createdAt: new Date(memory.picture.createdAt).toISOString(),
			}),
			ids: [...memory.picture.ids],
			...(memory.picture.groupDone && { groupDone: true }),
		};
	}
	return stored as unknown as IDataObject;
}

/** A session's recipients as the memory keeps them: statuses ordered by recipientId. */
export function recipientStatuses(session: IDataObject): Array<string | undefined> {
	return sortedRecipients(session).map((recipient) =>
		recipient.status === undefined || recipient.status === null
			? undefined
			: String(recipient.status),
	);
}

/** Recipients ordered by recipientId: the order in which the memory keeps their statuses. */
export function sortedRecipients(session: IDataObject): IDataObject[] {
	const recipients = Array.isArray(session.recipients) ? (session.recipients as IDataObject[]) : [];
	return [...recipients].sort((a, b) =>
		String(a.recipientId ?? '').localeCompare(String(b.recipientId ?? '')),
	);
}
