/**
 * A request body read chunk by chunk as it is sent, and read afresh for every send: a
 * Blob-shaped object, without the Blob's bytes in memory.
 * Unlike a stream, a Blob is read again when n8n repeats the request after renewing a token
 * (docs/compatibility.md).
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
