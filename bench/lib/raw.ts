import http from 'node:http';

/**
 * The raw client the node is measured against: Node's own fetch (undici, keep-alive),
 * no n8n, no retries, no validation beyond what the loop needs.
 */
export interface RawClient {
	baseUrl: string;
	token: string;
}

/** What the loops read of List Sessions and of Upload File. */
export interface SessionsPage {
	sessions: unknown[];
	pagination: { hasMore: boolean };
}
export interface UploadAnswer {
	sizeBytes: number;
}

async function json<T>(response: Response): Promise<T> {
	const text = await response.text();
	if (!response.ok) throw new Error(`HTTP ${response.status}: ${text.slice(0, 200)}`);
	return JSON.parse(text) as T;
}

/** Every session by offset paging with the largest page, as Return All does. */
export async function rawListAll(
	client: RawClient,
	query: Record<string, string> = {},
): Promise<unknown[]> {
	const sessions: unknown[] = [];
	for (let offset = 0, guard = 0; guard < 100_000; guard++) {
		const qs = new URLSearchParams({ ...query, limit: '100', offset: String(offset) });
		const body = await json<SessionsPage>(
			await fetch(`${client.baseUrl}/api/v1/Sessions?${qs}`, {
				headers: { Authorization: `Bearer ${client.token}` },
			}),
		);
		sessions.push(...body.sessions);
		if (!body.pagination.hasMore || body.sessions.length === 0) break;
		offset += body.sessions.length;
	}
	return sessions;
}

export async function rawSend(client: RawClient, sessionId: string): Promise<unknown> {
	return await json(
		await fetch(`${client.baseUrl}/api/v1/Session/${sessionId}/Send`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${client.token}` },
		}),
	);
}

const agent = new http.Agent({ keepAlive: true });

/**
 * Upload File the plain way, with node:http: the file's base64 text is made once and
 * written as it is between the two halves of the JSON body (no JSON.stringify of the
 * whole body, so no second copy of the text): bytes + base64 text is all it holds.
 */
export async function rawUpload(
	client: RawClient,
	fileName: string,
	bytes: Buffer,
): Promise<UploadAnswer> {
	const data = bytes.toString('base64');
	const head = `${JSON.stringify({ fileName }).slice(0, -1)},"data":"`;
	const tail = '"}';
	const url = new URL(`${client.baseUrl}/api/v1/File`);
	return await new Promise((resolve, reject) => {
		const request = http.request(
			url,
			{
				method: 'POST',
				agent,
				headers: {
					Authorization: `Bearer ${client.token}`,
					'Content-Type': 'application/json',
					'Content-Length': Buffer.byteLength(head) + data.length + tail.length,
				},
			},
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () => {
					const text = Buffer.concat(chunks).toString('utf8');
					if ((response.statusCode ?? 0) >= 300)
						reject(new Error(`HTTP ${response.statusCode}: ${text.slice(0, 200)}`));
					else resolve(JSON.parse(text) as UploadAnswer);
				});
				response.on('error', reject);
			},
		);
		request.setTimeout(120_000, () => request.destroy(new Error('upload timed out')));
		request.on('error', reject);
		request.write(head);
		request.write(data, 'latin1');
		request.end(tail);
	});
}
