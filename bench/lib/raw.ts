/** Raw clients, no n8n, no retries: fetch, node:http for Upload, axios (n8n-core's version). */
import { once } from 'node:events';
import http from 'node:http';

import axios from 'axios';

export interface RawClient {
	baseUrl: string;
	token: string;
}

interface SessionsPage {
	sessions: unknown[];
	pagination: { hasMore: boolean };
}
interface UploadAnswer {
	sizeBytes: number;
}

const agent = new http.Agent({ keepAlive: true });
const axiosClient = axios.create({ httpAgent: new http.Agent({ keepAlive: true }) });
const auth = (client: RawClient) => ({ Authorization: `Bearer ${client.token}` });

async function json<T>(response: Response): Promise<T> {
	const text = await response.text();
	if (!response.ok) throw new Error(`HTTP ${response.status}: ${text.slice(0, 200)}`);
	return JSON.parse(text) as T;
}

/** Every session by offset paging with the largest page, as Return All does. */
async function listAll(getPage: (qs: Record<string, string>) => Promise<SessionsPage>, query = {}) {
	const sessions: unknown[] = [];
	for (let offset = 0, guard = 0; guard < 100_000; guard++) {
		const body = await getPage({ ...query, limit: '100', offset: String(offset) });
		sessions.push(...body.sessions);
		if (!body.pagination.hasMore || body.sessions.length === 0) break;
		offset += body.sessions.length;
	}
	return sessions;
}

export const rawListAll = (client: RawClient, query: Record<string, string> = {}) =>
	listAll(async (qs) => {
		const url = `${client.baseUrl}/api/v1/Sessions?${new URLSearchParams(qs)}`;
		return await json<SessionsPage>(await fetch(url, { headers: auth(client) }));
	}, query);

export const axiosListAll = (client: RawClient, query: Record<string, string> = {}) =>
	listAll(async (params) => {
		const url = `${client.baseUrl}/api/v1/Sessions`;
		return (await axiosClient.get<SessionsPage>(url, { headers: auth(client), params })).data;
	}, query);

export async function rawSend(client: RawClient, sessionId: string): Promise<unknown> {
	const url = `${client.baseUrl}/api/v1/Session/${sessionId}/Send`;
	return await json(await fetch(url, { method: 'POST', headers: auth(client) }));
}

export async function axiosSend(client: RawClient, sessionId: string): Promise<unknown> {
	const url = `${client.baseUrl}/api/v1/Session/${sessionId}/Send`;
	return (await axiosClient.post(url, undefined, { headers: auth(client) })).data;
}

/** Upload with node:http: the base64 text made once and written between the halves of the JSON body. */
export async function rawUpload(
	client: RawClient,
	fileName: string,
	bytes: Buffer,
): Promise<UploadAnswer> {
	const data = bytes.toString('base64');
	const head = `${JSON.stringify({ fileName }).slice(0, -1)},"data":"`;
	const tail = '"}';
	const request = http.request(new URL(`${client.baseUrl}/api/v1/File`), {
		method: 'POST',
		agent,
		headers: {
			...auth(client),
			'Content-Type': 'application/json',
			'Content-Length': Buffer.byteLength(head) + data.length + tail.length,
		},
	});
	request.setTimeout(120_000, () => request.destroy(new Error('upload timed out')));
	request.write(head);
	request.write(data, 'latin1');
	request.end(tail);
	const [response] = (await once(request, 'response')) as [http.IncomingMessage];
	const chunks: Buffer[] = [];
	for await (const chunk of response) chunks.push(chunk as Buffer);
	const text = Buffer.concat(chunks).toString('utf8');
	if ((response.statusCode ?? 0) >= 300)
		throw new Error(`HTTP ${response.statusCode}: ${text.slice(0, 200)}`);
	return JSON.parse(text) as UploadAnswer;
}

/** Upload File with the JSON body written once into a Buffer, posted by axios. */
export async function axiosUpload(
	client: RawClient,
	fileName: string,
	bytes: Buffer,
): Promise<UploadAnswer> {
	const body = Buffer.from(JSON.stringify({ fileName, data: bytes.toString('base64') }));
	const headers = { ...auth(client), 'Content-Type': 'application/json' };
	const url = `${client.baseUrl}/api/v1/File`;
	return (await axiosClient.post<UploadAnswer>(url, body, { headers, maxBodyLength: Infinity }))
		.data;
}
