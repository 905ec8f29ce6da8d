/**
 * The credential's Base URL as requests use it: trimmed, without a trailing slash, so that
 * "https://api.airsign.com.au/" and "https://api.airsign.com.au" reach the same paths. No
 * imports: the credential uses it too.
 */
export function normaliseBaseUrl(value: unknown): string {
	return String(value ?? '')
		.trim()
		.replace(/\/+$/, '');
}
