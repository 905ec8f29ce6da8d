/** Binary input for `runNode`, made n8n binary data by its source node as a Read File node does. */
import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

const BINARY_INPUT = Symbol.for('n8n-harness.binaryInput');

/** A Buffer waiting to become n8n binary data inside the execution. */
export interface BinaryInput {
	readonly [BINARY_INPUT]: true;
	buffer: Buffer;
	fileName?: string;
	mimeType?: string;
}

/** One input item for `runNode`: JSON, and binary properties (IBinaryData or BinaryInput). */
export interface HarnessInputItem {
	json?: IDataObject;
	binary?: Record<string, BinaryInput | IBinaryData>;
}

export function binaryInput(
	buffer: Buffer,
	options: { fileName?: string; mimeType?: string } = {},
): BinaryInput {
	return { [BINARY_INPUT]: true, buffer, fileName: options.fileName, mimeType: options.mimeType };
}

/** An input item with JSON and one binary property (default `data`). */
export function binaryItem(
	buffer: Buffer,
	options: { fileName?: string; mimeType?: string; json?: IDataObject; property?: string } = {},
): HarnessInputItem {
	return {
		json: options.json ?? {},
		binary: { [options.property ?? 'data']: binaryInput(buffer, options) },
	};
}

/** What the source node does with each item, given the execution's prepareBinaryData helper. */
export async function materializeItem(
	item: HarnessInputItem,
	prepareBinaryData: (buffer: Buffer, fileName?: string, mimeType?: string) => Promise<IBinaryData>,
): Promise<INodeExecutionData> {
	const out: INodeExecutionData = { json: structuredClone(item.json ?? {}) };
	if (item.binary) {
		out.binary = {};
		for (const [key, value] of Object.entries(item.binary)) {
			out.binary[key] =
				BINARY_INPUT in value
					? await prepareBinaryData(value.buffer, value.fileName, value.mimeType)
					: value;
		}
	}
	return out;
}
