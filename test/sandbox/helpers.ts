import { expect } from 'vitest';

import type { Sandbox } from '../../sandbox';
import { useSandbox, type UseSandboxOptions } from '../harness/sandbox';
import { offerTemplate } from '../nodes/airSign/offerTemplate';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the sandbox's JSON, asserted field by field
export interface ApiResponse<T = any> {
	status: number;
	headers: Headers;
	body: T;
}

export interface CallInit {
	/** The demo token unless given; `null`: no Authorization header. */
	token?: string | null;
	json?: unknown;
	body?: string;
	headers?: Record<string, string>;
}

export async function call(
	sandbox: Sandbox,
	method: string,
	path: string,
	init: CallInit = {},
): Promise<ApiResponse> {
	const headers: Record<string, string> = { ...init.headers };
	const token = init.token === undefined ? sandbox.demo.accessToken : init.token;
	if (token !== null) headers.Authorization = `Bearer ${token}`;
	let body = init.body;
	if (init.json !== undefined) {
		body = JSON.stringify(init.json);
		headers['Content-Type'] ??= 'application/json';
	}
	const response = await fetch(`${sandbox.baseUrl}${path}`, { method, headers, body });
	const text = await response.text();
	let parsed: unknown = text;
	try {
		parsed = text === '' ? undefined : JSON.parse(text);
	} catch {
		// leave as text: the malformed fault's body is not JSON on purpose
	}
	return { status: response.status, headers: response.headers, body: parsed };
}

export const list = (sandbox: Sandbox, query = '', token?: string | null) =>
	call(sandbox, 'GET', `/api/v1/Sessions${query ? `?${query}` : ''}`, { token });

/** A valid block document with one signature block per key. */
export function blockDocument(keys: string[] = ['ann'], extra: Record<string, unknown> = {}) {
	return {
		format: 'blocks',
		title: 'Service agreement',
		blocks: [
			{ type: 'heading', text: 'Terms' },
			{ type: 'paragraph', text: 'We agree.' },
			...keys.map((key) => ({ type: 'signatureBlock', recipient: key, label: `Signed by ${key}` })),
		],
		...extra,
	};
}

/** A valid Create Session body: one block document, one recipient "ann". */
export function createBody(extra: Record<string, unknown> = {}) {
	return {
		name: 'Service agreement',
		files: [{ type: 'blocks', document: blockDocument() }],
		recipients: [{ key: 'ann', name: 'Ann Signer', email: 'ann@example.com' }],
		...extra,
	};
}

/** An active template with an "Employee" role (no email), a fixed "Manager" and two variables. */
function activeTemplate(sandbox: Sandbox, extra: Record<string, unknown> = {}) {
	return sandbox.createTemplate(
		offerTemplate({
			name: 'Offer',
			title: 'Offer for {{{startDate}}}',
			text: 'Salary {{{salary}}} from {{{startDate}}}.',
			recipients: [
				{ key: 'employee', name: 'Employee', email: '' },
				{ key: 'manager', name: 'Manager', email: 'boss@example.com' },
			],
			variables: [
				{ name: 'startDate', displayName: 'Start date', type: 'date' },
				{ name: 'salary', type: 'number', required: false, defaultValue: 1000 },
			],
			...extra,
		}),
	);
}

/** A test file's sandbox (useSandbox) and its endpoints, bound to it; paths under /api/v1. */
export function useApi(options: UseSandboxOptions = {}) {
	const sandbox = useSandbox(options);
	const v1 = (method: string) => (path: string, json?: unknown, token?: string | null) =>
		call(sandbox(), method, `/api/v1${path}`, { json, token });
	const post = v1('POST');
	return {
		sandbox,
		call: (method: string, path: string, init?: CallInit) => call(sandbox(), method, path, init),
		get: (path: string, token?: string | null) => v1('GET')(path, undefined, token),
		post,
		list: (query = '', token?: string | null) => list(sandbox(), query, token),
		send: (sessionId: string, token?: string | null) =>
			post(`/Session/${sessionId}/Send`, undefined, token),
		upload: (json: unknown = { fileName: 'a', data: 'JVBERi0=' }, token?: string | null) =>
			post('/File', json, token),
		createSession: (json: unknown, token?: string | null) => post('/Session', json, token),
		fromTemplate: (json: unknown, token?: string | null) =>
			post('/SessionFromTemplate', json, token),
		activeTemplate: (extra?: Record<string, unknown>) => activeTemplate(sandbox(), extra),
		/** The control plane (/_sandbox): no token. */
		control: (method: string, path: string, json?: unknown) =>
			call(sandbox(), method, `/_sandbox${path}`, { json, token: null }),
	};
}

/** An error answer: its status, and its code and field as the body gives them. */
export function expectError(res: ApiResponse, status: number, code: string, field?: string) {
	expect(res.status).toBe(status);
	expect(res.body).toMatchObject({ code, ...(field !== undefined && { field }) });
}

/** Refused by `request` with this status, code and field, and no session made. */
export const refusedBy =
	<T>(sandbox: () => Sandbox, request: (input: T) => Promise<ApiResponse>) =>
	async (input: T, status: number, code: string, field?: string) => {
		const res = await request(input);
		expectError(res, status, code, field);
		expect(sandbox().listAllSessions()).toEqual([]);
		return res;
	};

/** A UUID no session or template has. */
export const UNKNOWN_ID = '3f2b8a1e-7c4d-4e8f-9a0b-1c2d3e4f5a6b';

/** A recipient as the API shows it: an email signer, first to sign unless `signingOrder` says. */
export const shown = (fields: {
	recipientId: unknown;
	name: string;
	email: string;
	status?: string;
	signingOrder?: number;
}) => ({ recipientType: 'toCompleteEmail', signingOrder: 1, ...fields });

/** The rate-limit headers of an answer. */
export const limits = ({ headers }: ApiResponse) => ({
	limit: headers.get('x-ratelimit-limit'),
	remaining: headers.get('x-ratelimit-remaining'),
	reset: headers.get('x-ratelimit-reset'),
	retryAfter: headers.get('retry-after'),
});

/** A PDF of `totalBytes` bytes ("%PDF-1.7\n", then spaces) as base64. */
export const pdfBase64 = (totalBytes = 64) =>
	Buffer.from('%PDF-1.7\n'.padEnd(totalBytes).slice(0, totalBytes)).toString('base64');
