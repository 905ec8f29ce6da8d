/**
 * A request body read chunk by chunk as it is sent, and read afresh for every send: a
 * Blob-shaped object, without the Blob's bytes in memory.
 *
 * n8n-core 1.x and 2.x hand the body to axios, whose Node adapter sends a Blob by reading its
 * `stream()`, with its `size` as Content-Length and its `type` as Content-Type. Unlike a
 * Node stream (which n8n 2 refuses to send twice, and n8n 1 would send spent), a Blob is read
 * again when n8n repeats the request after renewing an expired token, so the upload still goes
 * once, whole.
 */
export class StreamedBody {
	readonly [Symbol.toStringTag] = 'Blob';
	readonly type = 'application/json';

	constructor(
		/** Exact length in bytes. */
		readonly size: number,
		private readonly read: () => AsyncIterable<Uint8Array>,
	) {}

	stream(): AsyncIterable<Uint8Array> {
		return this.read();
	}
}
