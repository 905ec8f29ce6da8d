/** Credential type name, shared by both nodes. */
export const CREDENTIAL_TYPE = 'airSignApi';

export const API_PREFIX = '/api/v1';

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

/**
 * The spec says "7MB" without saying whether that is 10^6 or 2^20 bytes. A check
 * in n8n must never refuse a file the service could accept, so it uses the larger
 * reading; a file between the two readings may still get FILE_TOO_LARGE from the
 * service, which is mapped to the same clear message.
 */
export const MAX_UPLOAD_BYTES = 7 * 1024 * 1024;

export const MAX_FILE_NAME_LENGTH = 255;

export const PDF_SIGNATURE = '%PDF-';
