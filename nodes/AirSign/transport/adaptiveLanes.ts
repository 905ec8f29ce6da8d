import { LANES_AT_START, SLOW_ANSWER_EXTRA_MS } from '../helpers/constants';
import type { RateLimitState } from './answerHeaders';
import type { AirSignContext } from './request';
import { Signal } from './signal';

/** What one answer (or its absence) told the lanes. */
export interface AnswerSignal {
	/** Undefined when no answer came (refused, dropped, timed out). */
	statusCode?: number;
	rateLimit: RateLimitState;
	/** From sending to the answer, pauses for a 429 not included. */
	ms: number;
}

/** A request under way, as the lanes count it. */
export interface RequestTicket {
	/** How many requests the execution had started before this one. */
	readonly sequence: number;
}

/**
 * How many items of one execution may be under way, from AirSign's own answers (AIMD, as TCP
 * does with its window):
 *
 * - at most the user's ceiling ("Items at Once"; 1 is strictly one after another);
 * - one alone until the first answer, which states the budget where AirSign gives it;
 * - never more than the budget AirSign says is left (X-RateLimit-Remaining, less the requests
 *   sent since it said so), so that lanes never spend what is not there;
 * - one more after every good answer until the first sign of strain (doubling per round trip),
 *   then one more per round trip;
 * - half as many after a 429, a 5xx, a missing answer or a slow one, once per round of requests
 *   (the answers to requests sent before the cut say nothing new).
 *
 * One per execution, keyed by n8n's context object like the 429 pause (rateLimitPause.ts), so
 * nothing is shared between executions or workers.
 */
export class AdaptiveLanes {
	private window: number;
	private threshold: number;
	private fastestMs = Number.POSITIVE_INFINITY;
	/** Requests AirSign still accepts in its window, less those sent since; unknown until told. */
	private budgetLeft: number | undefined;
	private requestsStarted = 0;
	private requestsUnderWay = 0;
	private answers = 0;
	/** Requests started before the last cut do not cut again. */
	private cutAtSequence = -1;
	/** An answer came or an item ended: requests waiting for a slot look again. */
	private readonly slotsChanged = new Signal();
	/**
	 * Items start only when an item has ended, never at a bare answer: the answer that fails an
	 * item (without Continue On Fail, the end of the run) must reach the router before the lanes
	 * it opens let another item start.
	 */
	private readonly itemEnded = new Signal();

	constructor(readonly ceiling: number) {
		this.window = Math.min(ceiling, LANES_AT_START);
		this.threshold = ceiling;
	}

	/** May one more item start, with `itemsUnderWay` already running? */
	mayStart(itemsUnderWay: number): boolean {
		return itemsUnderWay === 0 || (this.answers > 0 && this.hasRoomBeside(itemsUnderWay));
	}

	/** For the router's item loop: resolves when an item has ended (see {@link wake}). */
	async untilItemEnds(): Promise<void> {
		return await this.itemEnded.next();
	}

	/** An item ended: the item loop and the requests waiting for a slot look again. */
	wake(): void {
		this.itemEnded.happened();
		this.slotsChanged.happened();
	}

	/**
	 * Waits until one more request may go: no more in flight than the window (an item that
	 * retries after a 429 queues here too), nor than the budget left; one alone until the first
	 * answer. Requests in flight always end, so this never waits for ever.
	 */
	async requestSlot(): Promise<RequestTicket> {
		while (this.requestsUnderWay > 0 && !this.mayRequest()) await this.slotsChanged.next();
		return this.requestSent();
	}

	private mayRequest(): boolean {
		return this.answers > 0 && this.hasRoomBeside(this.requestsUnderWay);
	}

	/** Room for one more beside `underWay`: within the window and the ceiling, and the budget left. */
	private hasRoomBeside(underWay: number): boolean {
		if (underWay >= Math.min(this.ceiling, Math.floor(this.window))) return false;
		return this.budgetLeft === undefined || underWay < this.budgetLeft;
	}

	requestSent(): RequestTicket {
		this.requestsUnderWay++;
		if (this.budgetLeft !== undefined) this.budgetLeft--;
		return { sequence: this.requestsStarted++ };
	}

	answered(ticket: RequestTicket, signal: AnswerSignal): void {
		this.requestsUnderWay--;
		this.answers++;
		const { remaining } = signal.rateLimit;
		// The others under way may or may not be counted in it yet: assume they are not.
		if (remaining !== undefined) this.budgetLeft = remaining - this.requestsUnderWay;
		if (this.strained(signal)) {
			if (ticket.sequence > this.cutAtSequence) {
				this.threshold = Math.max(1, this.window / 2);
				this.window = this.threshold;
				this.cutAtSequence = this.requestsStarted - 1;
			}
		} else if (signal.statusCode !== 401) {
			this.fastestMs = Math.min(this.fastestMs, signal.ms);
			this.window += this.window < this.threshold ? 1 : 1 / this.window;
			this.window = Math.min(this.window, this.ceiling);
		}
		this.slotsChanged.happened();
	}

	private strained({ statusCode, ms }: AnswerSignal): boolean {
		if (statusCode === undefined || statusCode === 429 || statusCode >= 500) return true;
		return ms > 2 * this.fastestMs && ms > this.fastestMs + SLOW_ANSWER_EXTRA_MS;
	}
}

const lanesByExecution = new WeakMap<AirSignContext, AdaptiveLanes>();

/** The lanes of this execution, for the router (one per execution). */
export function openLanes(ctx: AirSignContext, ceiling: number): AdaptiveLanes {
	const lanes = new AdaptiveLanes(ceiling);
	lanesByExecution.set(ctx, lanes);
	return lanes;
}

/** The lanes the transport tells of each answer; none outside the action node's router. */
export function lanesOf(ctx: AirSignContext): AdaptiveLanes | undefined {
	return lanesByExecution.get(ctx);
}
