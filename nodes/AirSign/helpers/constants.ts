/**
 * Facts about AirSign that the nodes, the trigger and the credential share. Each is stated
 * once, here; descriptions, checks and messages are built from them.
 */

/** Credential type name, shared by both nodes. */
export const CREDENTIAL_TYPE = 'airSignApi';

export const API_PREFIX = '/api/v1';

/** Path of the OAuth 2.0 token endpoint below the Base URL (client-credentials grant). */
export const TOKEN_PATH = '/oidc/token';

/** The session states of the spec, section 3. */
export const SESSION_STATUSES = [
	'draft',
	'pending',
	'inProgress',
	'completed',
	'cancelled',
	'expired',
] as const;

export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** List Sessions: largest page the service serves. */
export const MAX_PAGE_SIZE = 100;

/** List Sessions: requests per hour per organisation, shared by every workflow. */
export const LIST_SESSIONS_HOURLY_BUDGET = 60;

/** The budget in words, for notices and messages; `limit` when the service stated another. */
export function listSessionsBudgetText(limit = LIST_SESSIONS_HOURLY_BUDGET): string {
	return `AirSign allows ${limit} List Sessions requests per hour per organisation, shared by every workflow and trigger`;
}

/**
 * The spec says "7MB" without saying whether that is 10^6 or 2^20 bytes. A check
 * in n8n must never refuse a file the service could accept, so it uses the larger
 * reading; a file between the two readings may still get FILE_TOO_LARGE from the
 * service, which is mapped to the same clear message.
 */
export const MAX_UPLOAD_BYTES = 7 * 1024 * 1024;

/** How the upload limit is named to users. */
export const MAX_UPLOAD_TEXT = '7 MB';

export const MAX_FILE_NAME_LENGTH = 255;

export const PDF_SIGNATURE = '%PDF-';

/** Credential fields whose values must never appear in an output, error or log. */
export const SECRET_FIELDS = ['accessToken', 'clientSecret', 'sessionToken'] as const;
