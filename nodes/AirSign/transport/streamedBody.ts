/**
 * JSON read chunk by chunk as it is sent, shaped as a Blob: unlike a stream, a Blob is read again
 * when n8n repeats the request after renewing a token.
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
