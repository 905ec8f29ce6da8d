import http from 'node:http';

import axios from 'axios';

import type { RawClient, SessionsPage, UploadAnswer } from './raw';

/**
 * The same raw loops as `raw.ts` with axios (the version n8n-core 2.41.1 pins, which its request
 * helper uses) instead of Node's fetch: beside fetch it shows how much of the gap between the node
 * and a raw loop is the HTTP client and how much is n8n's credential path.
 */
const client = axios.create({ httpAgent: new http.Agent({ keepAlive: true }) });

function auth(raw: RawClient) {
	return { Authorization: `Bearer ${raw.token}` };
}

export async function axiosListAll(
	raw: RawClient,
	query: Record<string, string> = {},
): Promise<unknown[]> {
	const sessions: unknown[] = [];
	for (let offset = 0, guard = 0; guard < 100_000; guard++) {
		const { data } = await client.get<SessionsPage>(`${raw.baseUrl}/api/v1/Sessions`, {
			headers: auth(raw),
			params: { ...query, limit: 100, offset },
		});
		sessions.push(...data.sessions);
		if (!data.pagination.hasMore || data.sessions.length === 0) break;
		offset += data.sessions.length;
	}
	return sessions;
}

export async function axiosSend(raw: RawClient, sessionId: string): Promise<unknown> {
	return (
		await client.post(`${raw.baseUrl}/api/v1/Session/${sessionId}/Send`, undefined, {
			headers: auth(raw),
		})
	).data;
}

/** Upload File with the JSON body written once into a Buffer (as the node does), posted by axios. */
export async function axiosUpload(
	raw: RawClient,
	fileName: string,
	bytes: Buffer,
): Promise<UploadAnswer> {
	const body = Buffer.from(JSON.stringify({ fileName, data: bytes.toString('base64') }));
	return (
		await client.post<UploadAnswer>(`${raw.baseUrl}/api/v1/File`, body, {
			headers: { ...auth(raw), 'Content-Type': 'application/json' },
			maxBodyLength: Infinity,
		})
	).data;
}
