import type { IDataObject } from 'n8n-workflow';

/**
 * The spec does not show the shape of an error body, so the service's code is
 * looked for wherever JSON APIs commonly put it. The nodes depend on nothing but
 * the HTTP status and this code.
 */
export function readServiceErrorCode(body: unknown): string | undefined {
	const data = asObject(body);
	if (!data) return undefined;
	const candidates: unknown[] = [
		data.code,
		data.errorCode,
		data.error_code,
		typeof data.error === 'string' ? data.error : asObject(data.error)?.code,
		asObject(data.error)?.errorCode,
		Array.isArray(data.errors) ? asObject(data.errors[0])?.code : undefined,
		codeFromProblemType(data.type),
	];
	for (const candidate of candidates) {
		if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.trim();
		if (typeof candidate === 'number') return String(candidate);
	}
	return undefined;
}

/** The service's own words, shown as a detail under the node's message. */
export function readServiceMessage(body: unknown): string | undefined {
	const data = asObject(body);
	if (!data) return undefined;
	const error = asObject(data.error);
	const candidates: unknown[] = [
		data.message,
		data.detail,
		data.error_description,
		error?.message,
		Array.isArray(data.errors) ? asObject(data.errors[0])?.message : undefined,
		data.title,
	];
	const found = candidates.find((c) => typeof c === 'string' && c.trim() !== '');
	return typeof found === 'string' ? found.trim().slice(0, 500) : undefined;
}

function asObject(value: unknown): IDataObject | undefined {
	if (typeof value === 'string') {
		try {
			return asObject(JSON.parse(value));
		} catch {
			return undefined;
		}
	}
	return value !== null && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

/**
 * RFC 7807 problem bodies name the problem by a URI in `type`, e.g.
 * ".../errors/not-a-draft": its last segment, in the spec's spelling (NOT_A_DRAFT).
 */
function codeFromProblemType(type: unknown): string | undefined {
	if (typeof type !== 'string' || type === 'about:blank') return undefined;
	// A URN (urn:problem:not-a-draft) separates its segments with ":".
	const lastSegment = type.split(/[/#:]/).filter(Boolean).pop();
	if (!lastSegment) return undefined;
	return (
		lastSegment
			.replace(/([a-z0-9])([A-Z])/g, '$1_$2')
			// A one-letter word in PascalCase: NotADraft → Not_A_Draft, not Not_ADraft.
			.replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
			.replace(/[-\s.]+/g, '_')
			.toUpperCase()
	);
}
