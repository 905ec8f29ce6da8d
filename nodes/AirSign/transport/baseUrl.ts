// Trimmed, without a trailing slash, so that "https://x/" and "https://x" reach the same paths.
// No imports: the credential uses it too.
export function normaliseBaseUrl(value: unknown): string {
	return String(value ?? '')
		.trim()
		.replace(/\/+$/, '');
}
