/** The one driver of a polling trigger through rounds of changes, a poll, the clocks moved on. */
import type { PollResult } from './poll';
import { seededRandom, type Sandbox } from '../../sandbox';

const SESSIONS = '/api/v1/Sessions';
type RequestHook = Parameters<Sandbox['onRequest']>[0];

export interface DriveOptions {
	/** Another round while this holds (asked before each round, from 0). */
	while: (round: number) => boolean;
	/** Before the round's poll: changes, faults, clock. */
	before?: (round: number) => void | Promise<void>;
	/** Called on each List Sessions request of the round's poll. */
	during?: (round: number) => RequestHook | undefined;
	poll: () => Promise<PollResult>;
	after?: (result: PollResult, round: number) => void | Promise<void>;
	/** The clocks' step after each round; default 5 s, past the trigger's settle window. */
	advanceMs?: number | (() => number);
}

/** Runs the rounds; returns how many ran. */
export async function drive(sandbox: Sandbox, o: DriveOptions): Promise<number> {
	let round = 0;
	for (; o.while(round); round++) {
		await o.before?.(round);
		const hook = o.during?.(round);
		const off = hook && sandbox.onRequest((r) => (r.path === SESSIONS ? hook(r) : undefined));
		const result = await o.poll().finally(() => off?.());
		await o.after?.(result, round);
		const ms = typeof o.advanceMs === 'function' ? o.advanceMs() : (o.advanceMs ?? 5_000);
		if (ms) sandbox.clock.advance(ms);
	}
	return round;
}

export const listRequests = (sandbox: Sandbox) =>
	sandbox.requests.filter((r) => r.path === SESSIONS);

/** A poll that delivered nothing, without error, for exactly one List Sessions request. */
export const isQuiet = (sandbox: Sandbox, result: PollResult, requestsBefore: number) =>
	!result.error && result.items.length === 0 && listRequests(sandbox).length - requestsBefore === 1;

/** Seeded data (the sandbox's generator), so a failing soak can be replayed. */
export function prng(seed: number) {
	const next = seededRandom(seed);
	return {
		next,
		int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
		chance: (p: number) => next() < p,
		pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)],
	};
}

/** The soaks' seed: a failing soak replays with it. */
export const SEED = 20300304;
/** A hang detector, not a speed test: on a busy machine a soak may take minutes. */
export const SOAK_TIMEOUT_MS = 15 * 60_000;

export interface SoakOptions {
	rand: ReturnType<typeof prng>;
	/** One change (a burst makes new sessions at one instant); nothing once the run made all. */
	change: (burst: boolean) => void;
	done: () => boolean;
	poll: () => Promise<PollResult>;
	record: (result: PollResult) => void;
	restart: () => unknown;
	/** The poll from which timestamps have milliseconds (whole seconds before, never back). */
	msFrom: number;
	burst: [min: number, max: number];
	/** Maybe injects a fault into the next poll (the driver clears it after). */
	fault: () => void;
	/** Chance of changes while a poll pages; chance per request; most changes per request. */
	concurrency: [poll: number, request: number, most: number];
	/** Chance after a poll that a day passes (final states are forgotten). */
	dayChance?: number;
}

/** Polls through ties, changes while paging, faults, restarts and timestamp switches until
 * `done()`, then until two polls in a row are quiet (at most 60); returns polls, restarts, seconds. */
export async function soak(sandbox: Sandbox, o: SoakOptions) {
	const started = performance.now();
	const { rand } = o;
	const whole = () => sandbox.config.timestampPrecision === 's';
	let polls = 0;
	let restarts = 0;
	await drive(sandbox, {
		while: () => !o.done(),
		before: () => {
			polls++;
			if (polls === o.msFrom) sandbox.config.timestampPrecision = 'ms';
			sandbox.config.updatedAfterInclusive = rand.chance(0.5);
			sandbox.config.tieOrder = rand.chance(0.5) ? 'random' : 'id';
			const burst = rand.chance(0.03);
			const count = burst ? rand.int(...o.burst) : rand.int(0, 60);
			for (let i = 0; i < count; i++) {
				o.change(burst);
				if (!burst) sandbox.clock.advance(whole() ? rand.pick([0, 0, 1_000]) : rand.int(0, 3));
			}
			o.fault();
		},
		during: () => {
			if (!rand.chance(o.concurrency[0])) return undefined;
			return () => {
				if (!rand.chance(o.concurrency[1])) return;
				sandbox.clock.advance(whole() ? 1_000 : rand.int(1, 5));
				for (let i = rand.int(1, o.concurrency[2]); i > 0; i--) o.change(false);
			};
		},
		poll: o.poll,
		after: async (result) => {
			sandbox.clearFaults();
			o.record(result);
			if (rand.chance(0.02)) {
				await o.restart();
				restarts++;
			}
			if (o.dayChance && rand.chance(o.dayChance)) sandbox.clock.advance(26 * 3_600_000);
		},
		advanceMs: () => rand.int(2_000, 30_000),
	});
	let quiet = 0;
	let requestsBefore = 0;
	await drive(sandbox, {
		while: (extra) => extra < 60 && quiet < 2,
		before: () => {
			polls++;
			sandbox.clock.advance(10_000);
			requestsBefore = listRequests(sandbox).length;
		},
		poll: o.poll,
		after: (result) => {
			o.record(result);
			quiet = isQuiet(sandbox, result, requestsBefore) ? quiet + 1 : 0;
		},
		advanceMs: 0,
	});
	if (quiet < 2) throw new Error(`still delivering ${polls} polls on`);
	return { polls, restarts, seconds: ((performance.now() - started) / 1000).toFixed(1) };
}
