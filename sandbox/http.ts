import type { IncomingMessage, ServerResponse } from 'node:http';

/** An answer the router hands back; the server writes it (and logs it) in one place. */
export interface Reply {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
	/** Raw text sent instead of JSON (the `malformed` fault). */
	rawBody?: string;
}

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
	return { status, body, headers };
}

export function apiError(
	status: number,
	code: string,
	message: string,
	extra?: { field?: string; headers?: Record<string, string> },
): Reply {
	const body: Record<string, unknown> = { code, message };
	if (extra?.field !== undefined) body.field = extra.field;
	return { status, body, headers: extra?.headers };
}

export function writeReply(res: ServerResponse, reply: Reply): void {
	const payload = reply.rawBody ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
	res.writeHead(reply.status, {
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': Buffer.byteLength(payload),
		...reply.headers,
	});
	res.end(payload);
}

export type BodyResult = { ok: true; body: Buffer } | { ok: false };

/** Largest body the sandbox will even keep reading before cutting the connection. */
const DISCARD_CAP_BYTES = 256 * 1024 * 1024;

/** A body of at most `maxBytes`; a larger one is drained unkept, so the client reads the 413. */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let received = 0;
		let tooLarge = Number(req.headers['content-length'] ?? 0) > maxBytes;
		req.on('data', (chunk: Buffer) => {
			received += chunk.length;
			if (received > maxBytes) tooLarge = true;
			if (tooLarge) {
				chunks.length = 0;
				if (received > DISCARD_CAP_BYTES) req.destroy();
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () =>
			resolve(tooLarge ? { ok: false } : { ok: true, body: Buffer.concat(chunks) }),
		);
		req.on('error', reject);
	});
}

export async function drain(req: IncomingMessage): Promise<void> {
	await readBody(req, 0).catch(() => undefined);
}

export function isJsonContentType(header: string | undefined): boolean {
	const mediaType = (header ?? '').split(';')[0].trim().toLowerCase();
	return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string =>
	typeof value === 'string' && UUID_PATTERN.test(value);

/** A refusal raised deep in a handler; the router answers it as an API error. */
export class ApiProblem extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly field?: string,
		readonly extra: Record<string, unknown> = {},
	) {
		super(message);
	}

	reply(headers?: Record<string, string>): Reply {
		const reply = apiError(this.status, this.code, this.message, { field: this.field, headers });
		Object.assign(reply.body as Record<string, unknown>, this.extra);
		return reply;
	}
}

/** 400 VALIDATION_ERROR naming the field. */
export function invalid(field: string, message: string): ApiProblem {
	return new ApiProblem(400, 'VALIDATION_ERROR', message, field);
}

export const isWhole = (value: unknown, min: number, max = Infinity): value is number =>
	Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

/** Each of `values` that is given must be text: VALIDATION_ERROR at `<prefix><key>` otherwise. */
export function checkTexts(values: Record<string, unknown>, prefix = ''): void {
	for (const [key, value] of Object.entries(values))
		if (value !== undefined && typeof value !== 'string')
			throw invalid(`${prefix}${key}`, `${key} must be text`);
}

export const isBlank = (value: unknown) => typeof value !== 'string' || value.trim() === '';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deliberately simple, as services check: something@something.tld, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A list's limit (1–100, default 50) and offset, checked in that order (docs/api.md#list-sessions). */
export function pageParams(params: URLSearchParams): { limit: number; offset: number } {
	const integer = (field: string, fallback: number) => {
		const value = params.get(field);
		if (value === null) return fallback;
		if (!/^\d{1,15}$/.test(value)) throw invalid(field, `${field} must be a non-negative integer`);
		return Number(value);
	};
	const limit = integer('limit', 50);
	if (limit < 1 || limit > 100) throw invalid('limit', 'limit must be an integer from 1 to 100');
	return { limit, offset: integer('offset', 0) };
}

/** One page of `items` and the pagination object every list answers. */
export function paginate<T>(items: T[], { limit, offset }: { limit: number; offset: number }) {
	const page = items.slice(offset, offset + limit);
	const hasMore = offset + page.length < items.length;
	return { page, pagination: { total: items.length, limit, offset, hasMore } };
}
