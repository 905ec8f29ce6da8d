import type { INode } from 'n8n-workflow';
import { NodeOperationError, tryToParseDateTime } from 'n8n-workflow';

/**
 * Turns what n8n users type or map into a date parameter (an ISO string, a Luxon
 * DateTime from an expression, a JS Date, epoch milliseconds) into the ISO 8601 UTC
 * string the service expects. A date without an offset is read in the workflow's
 * timezone, as n8n's own date fields are.
 */
export function toUtcIso(
	node: INode,
	value: unknown,
	parameterLabel: string,
	timezone: string,
	itemIndex: number,
): string {
	try {
		const input = typeof value === 'number' ? new Date(value) : value;
		const parsed = tryToParseDateTime(input, timezone);
		const iso = parsed.isValid ? parsed.toUTC().toISO() : null;
		if (iso) return iso;
	} catch {
		// Reported below with the parameter's name.
	}
	throw new NodeOperationError(node, `"${parameterLabel}" is not a valid date: ${String(value)}`, {
		itemIndex,
		description:
			"Use an ISO 8601 date such as 2025-06-16T14:22:00Z, or pick a date in the date picker. A date without a timezone is read in the workflow's timezone.",
	});
}

/** Epoch milliseconds as the ISO 8601 UTC text AirSign takes and gives. */
export function isoFromMs(ms: number): string {
	return new Date(ms).toISOString();
}
