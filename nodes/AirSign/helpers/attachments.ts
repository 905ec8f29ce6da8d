import type { IDataObject, INode } from 'n8n-workflow';

import { UUID_PATTERN } from './constants';
import { inputError } from '../errors/inputError';

export interface UploadedPdfEntry extends IDataObject {
	type: 'uploadedPdf';
	fileId: string;
	fileName?: string;
}

const LABEL = '"Attach Uploaded PDFs"';

export function readAttachments(
	node: INode,
	value: unknown,
	itemIndex: number,
): UploadedPdfEntry[] {
	const fail = (shown: unknown) =>
		inputError(
			node,
			`${LABEL} holds something that is not an uploaded file: ${JSON.stringify(shown)?.slice(0, 100)}`,
			{
				itemIndex,
				description:
					'Give file IDs separated by commas, or map the output of Upload: for one file {{ $json.fileReference }}, for several {{ $("Upload").all().map(i => i.json.fileReference) }}.',
			},
		);
	let entries: unknown[];
	if (value === undefined || value === null || value === '') return [];
	if (typeof value === 'string') {
		const text = value.trim();
		if (text.startsWith('[') || text.startsWith('{')) {
			let parsed: unknown;
			try {
				parsed = JSON.parse(text);
			} catch {
				throw fail(text);
			}
			return readAttachments(node, parsed, itemIndex);
		}
		entries = text.split(/[\s,]+/).filter(Boolean);
	} else {
		entries = Array.isArray(value) ? value : [value];
	}
	return entries.map((entry) => {
		if (typeof entry === 'string') {
			if (!UUID_PATTERN.test(entry.trim())) throw fail(entry);
			return { type: 'uploadedPdf', fileId: entry.trim() };
		}
		const item = (entry ?? {}) as IDataObject;
		const reference = (item.fileReference ?? item) as IDataObject;
		const fileId = reference.fileId;
		if (typeof fileId !== 'string' || !UUID_PATTERN.test(fileId.trim())) throw fail(entry);
		if (reference.type !== undefined && reference.type !== 'uploadedPdf') throw fail(entry);
		const fileName = typeof item.fileName === 'string' ? item.fileName : undefined;
		return { type: 'uploadedPdf', fileId: fileId.trim(), ...(fileName && { fileName }) };
	});
}
