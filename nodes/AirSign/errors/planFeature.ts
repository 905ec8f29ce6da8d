import { readServiceErrorCode } from './serviceBody';
import type { FailureMessages } from './wording';

/** A plan feature a request uses, and the node parameters that use it. */
export interface FeatureUse {
	feature: string;
	parameters: string[];
}

/** The sandbox's code for a scope the token lacks; any other 403 may be the plan. */
const SCOPE_CODE = 'INSUFFICIENT_SCOPE';

/**
 * The words for a 403 of a request that uses plan features. AirSign's body is read for the
 * feature (a `feature` field, or a feature named in its message); a 403 that names none is
 * worded as either a missing scope or a missing feature.
 */
export function planFeatureFailures(
	body: unknown,
	used: FeatureUse[],
	scopeDescription: string,
): FailureMessages {
	if (used.length === 0) return { 403: { description: scopeDescription } };
	const data = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
	const code = readServiceErrorCode(body);
	if (code === SCOPE_CODE) return { 403: { description: scopeDescription } };
	const said = `${String(data.feature ?? '')} ${String(data.message ?? '')}`.toLowerCase();
	const named = used.find((use) => said.includes(use.feature.toLowerCase()));
	const text = named
		? {
				message: `Your AirSign plan does not include ${named.feature}`,
				description: `Remove ${quoteList(named.parameters)} from the node (AirSign's defaults then apply), or ask AirSign to add ${named.feature} to your plan.`,
			}
		: {
				message: 'AirSign refused the request: a plan feature or a scope is missing',
				description: `Either your AirSign plan does not include ${used.map((u) => `${u.feature} (used by ${quoteList(u.parameters)})`).join(' or ')}: remove those options and run again; or: ${scopeDescription}`,
			};
	return { 403: text, ...(code !== undefined && { [code]: text }) };
}

function quoteList(parameters: string[]): string {
	return parameters.map((p) => `"${p}"`).join(', ');
}
