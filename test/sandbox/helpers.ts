import type { Sandbox } from '../../sandbox';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the sandbox's JSON, asserted field by field
export interface ApiResponse<T = any> {
	status: number;
	headers: Headers;
	body: T;
}

/** fetch against the sandbox with the demo token unless `token` is given (`null`: no header). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the sandbox's JSON, asserted field by field
export async function call<T = any>(
	sandbox: Sandbox,
	method: string,
	path: string,
	init: {
		token?: string | null;
		json?: unknown;
		body?: string;
		headers?: Record<string, string>;
	} = {},
): Promise<ApiResponse<T>> {
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
	return { status: response.status, headers: response.headers, body: parsed as T };
}

export const list = (sandbox: Sandbox, query = '', token?: string | null) =>
	call(sandbox, 'GET', `/api/v1/Sessions${query ? `?${query}` : ''}`, { token });

export function pdfBase64(totalBytes = 64): string {
	const header = Buffer.from('%PDF-1.7\n', 'latin1');
	const bytes = Buffer.alloc(Math.max(totalBytes, header.length), 0x20);
	header.copy(bytes);
	return bytes.subarray(0, totalBytes).toString('base64');
}
