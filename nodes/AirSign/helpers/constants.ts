/**
 * Facts about AirSign that the nodes, the trigger and the credential share. Each is stated
 * once, here; descriptions, checks and messages are built from them.
 */

/** Credential type name, shared by both nodes. */
export const CREDENTIAL_TYPE = 'airSignApi';

export const API_PREFIX = '/api/v1';

/** Path of the OAuth 2.0 token endpoint below the Base URL (client-credentials grant). */
export const TOKEN_PATH = '/oidc/token';

/** AirSign's session states. */
export const SESSION_STATUSES = [
	'draft',
	'pending',
	'inProgress',
	'completed',
	'cancelled',
	'expired',
] as const;

export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** List Sessions: the fields it sorts by, and the orders. */
export const SESSION_SORT_FIELDS = ['completedDate', 'createdAt', 'name', 'updatedAt'] as const;
export const SORT_ORDERS = ['asc', 'desc'] as const;

/** List Templates: the states it lists by. */
export const TEMPLATE_STATUSES = ['active', 'draft'] as const;

/** List Sessions: largest page the service serves. */
export const MAX_PAGE_SIZE = 100;

/** AirSign's request budgets are per hour: no budget window resets later than this from now. */
export const RATE_LIMIT_WINDOW_MS = 60 * 60 * 1000;

/** List Sessions: requests per hour per organisation, shared by every workflow. */
export const LIST_SESSIONS_HOURLY_BUDGET = 60;

/** The budget in words, for notices and messages; `limit` when the service stated another. */
export function listSessionsLimitText(limit = LIST_SESSIONS_HOURLY_BUDGET): string {
	return `AirSign allows ${limit} List Sessions requests per hour per organisation, shared by every workflow and trigger`;
}

/**
 * AirSign says "7MB" without saying whether that is 10^6 or 2^20 bytes. A check in n8n must
 * never refuse a file the service could accept, so it uses the larger reading; a file between
 * the two may still get FILE_TOO_LARGE from AirSign, which is mapped to the same message.
 */
export const MAX_UPLOAD_BYTES = 7 * 1024 * 1024;

/** How the upload limit is named to users. */
export const MAX_UPLOAD_TEXT = '7 MB';

export const MAX_FILE_NAME_LENGTH = 255;

export const PDF_SIGNATURE = '%PDF-';

/** Credential fields whose values must never appear in an output, error or log. */
export const SECRET_FIELDS = ['accessToken', 'clientSecret', 'sessionToken'] as const;

/**
 * The hourly limit of every request but List Sessions. AirSign does not publish its size; the
 * headers of every answer state it, and messages use what they said.
 */
export function requestLimitText(limit?: number): string {
	const size = limit === undefined ? 'a number of' : String(limit);
	return `AirSign allows ${size} requests per hour per organisation for sessions by ID, invitations, templates and session creation, shared by every workflow (apart from List Sessions' own budget)`;
}

/**
 * "Items at Once": the most items an operation runs at the same time (transport/pool.ts bounds
 * their requests by what AirSign says is left). Default and maximum: docs/performance.md.
 */
export const DEFAULT_ITEMS_AT_ONCE = 100;
export const MAX_ITEMS_AT_ONCE = 250;

/** AirSign's bounds on what a request carries, checked before any request. */
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

/** Plan features an organisation may lack (403). The third name is the project's: AirSign's page cuts it off. */
export const PLAN_FEATURES = {
	expiry: 'Session Expiry',
	senderProfiles: 'Sender Profiles',
	completionEmails: 'Completion Email Recipients',
} as const;

/** Recipient keys of block documents: letters, digits, "_" and "-". */
export const RECIPIENT_KEY_PATTERN = /^[A-Za-z0-9_-]+$/;

/** Emails as AirSign checks them: something@something.tld, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Session fields that hold timestamps, in every answer. */
export const TIMESTAMP_FIELDS = ['createdAt', 'updatedAt', 'completedDate', 'expiryDate', 'sentAt'];
