export const CREDENTIAL_TYPE = 'airSignApi';

export const API_PREFIX = '/api/v1';

export const TOKEN_PATH = '/oidc/token';

export const SESSION_STATUSES = [
	'draft',
	'pending',
	'inProgress',
	'completed',
	'cancelled',
	'expired',
] as const;

export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** Recipient statuses that say a signer signed (AirSign does not document its statuses). */
export const RECIPIENT_SIGNED_STATUSES = ['completed', 'signed'];

/** The session statuses in which AirSign sends an invitation again (docs/api.md#send-invitation). */
export const AWAITING_SIGNATURES = ['pending', 'inProgress'];

/**
 * A session's or recipient's status in words, for every list, message and hint a person reads
 * ("inProgress": "in progress", "notSent": "not sent"); output fields keep AirSign's values. A rule,
 * not a list: AirSign does not document recipient statuses, and an unknown one reads as well.
 */
export function statusInWords(status: string): string {
	return status.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
}

export const SESSION_SORT_FIELDS = ['completedDate', 'createdAt', 'name', 'updatedAt'] as const;
export const SORT_ORDERS = ['asc', 'desc'] as const;

export const TEMPLATE_STATUSES = ['active', 'draft'] as const;

export const MAX_PAGE_SIZE = 100;

/** AirSign's request budgets are per hour: no budget window resets later than this from now. */
export const RATE_LIMIT_WINDOW_MS = 60 * 60 * 1000;

export const LIST_SESSIONS_HOURLY_BUDGET = 60;

/** How far behind AirSign's clock a read of what changed starts: an update may be listed a moment late. */
export const LISTING_DELAY_MS = 2_000;

export function listSessionsLimitText(limit = LIST_SESSIONS_HOURLY_BUDGET): string {
	return `AirSign allows ${limit} List Sessions requests per hour per organisation, shared by every workflow and trigger`;
}

// AirSign says "7MB": the larger reading (2^20), so n8n never refuses a file AirSign could take.
export const MAX_UPLOAD_BYTES = 7 * 1024 * 1024;

export const MAX_UPLOAD_TEXT = '7 MB';

export const MAX_FILE_NAME_LENGTH = 255;

export const PDF_SIGNATURE = '%PDF-';

export const SECRET_FIELDS = ['accessToken', 'clientSecret', 'sessionToken'] as const;

export function requestLimitText(limit?: number): string {
	const size = limit === undefined ? 'a number of' : String(limit);
	return `AirSign allows ${size} requests per hour per organisation for sessions by ID, invitations, templates and session creation, shared by every workflow (apart from List Sessions' own budget)`;
}

/**
 * Items at Once's bound: how many sockets one execution may hold open. It is also the default, so
 * that unset only AirSign's budget (transport/pool.ts) holds the node below it.
 */
export const MAX_ITEMS_AT_ONCE = 1000;
export const DEFAULT_ITEMS_AT_ONCE = MAX_ITEMS_AT_ONCE;

/**
 * The most requests one execution sends before AirSign's first answer, while it has stated no
 * budget (transport/pool.ts): as many as one round trip far away lets n8n send.
 */
export const FIRST_WAVE = 100;

export const LIMITS = {
	name: 50,
	files: 10,
	recipients: 20,
	/** AirSign says "about 30 characters" (code TITLE_TOO_LONG past it); the node refuses more than 40. */
	title: 40,
	subtitle: 200,
	blocks: 500,
	heading: 500,
	label: 100,
	fontSize: { min: 7, max: 24 },
	spacer: { min: 1, max: 600 },
	expiryDays: { min: 1, max: 730 },
	variables: 50,
	templatePageSize: 100,
} as const;

export const REMINDER_FREQUENCIES = ['daily', 'weekly', 'monthly', 'quarterly'] as const;

export const COMPLETION_EMAIL_RECIPIENTS = ['all', 'sender_only', 'sender_and_cc', 'none'] as const;

// Plan features an organisation may lack (403).
export const PLAN_FEATURES = {
	expiry: 'Session Expiry',
	senderProfiles: 'Sender Profiles',
	completionEmails: 'Completion Email Recipients',
} as const;

export const RECIPIENT_KEY_PATTERN = /^[A-Za-z0-9_-]+$/;

/** Emails as AirSign checks them: something@something.tld, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An AirSign ID (a UUID) as pattern text: n8n's field validation takes it without flags. */
export const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

export const UUID_PATTERN = new RegExp(`^${UUID}$`);

export const TIMESTAMP_FIELDS = ['createdAt', 'updatedAt', 'completedDate', 'expiryDate', 'sentAt'];
