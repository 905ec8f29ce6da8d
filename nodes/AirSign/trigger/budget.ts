import type { RateLimitState } from '../transport/answerHeaders';
import type { BudgetMemory } from './triggerState';

/**
 * The budget as an answer stated it, with the reset moved onto n8n's clock: the service gives
 * the time left until its reset against its own Date header, so clock skew does not matter.
 * (Both headers have whole seconds and the reset is rounded up, so the instant is never early.)
 */
export function budgetFrom(
	rateLimit: RateLimitState,
	observedAt: number,
): BudgetMemory | undefined {
	if (rateLimit.remaining === undefined || rateLimit.msUntilReset === undefined) return undefined;
	return { remaining: rateLimit.remaining, resetsAt: observedAt + rateLimit.msUntilReset };
}

/**
 * Whether a poll must make no request at all: AirSign said that no more than `reserve`
 * requests are left in the hour (the ones kept for other workflows), and the window has not
 * reset since. One request per poll is enough to spend a reserve, so the check comes first.
 */
export function mustWaitForReset(
	budget: BudgetMemory | undefined,
	reserve: number,
	now: number,
): budget is BudgetMemory {
	return budget !== undefined && budget.remaining <= reserve && now < budget.resetsAt;
}

export function waitingText(budget: BudgetMemory, reserve: number): string {
	return `AirSign Trigger: ${budget.remaining} List Sessions requests are left this hour, no more than "Keep Requests for Other Workflows" (${reserve}); polls make no request until the budget resets at ${new Date(budget.resetsAt).toISOString().slice(11, 19)} UTC`;
}
