/** The fuzzed operations (test/fuzz/inputCases.ts): Upload: files as the previous node made them. */
import fc from 'fast-check';
import { MAX_UPLOAD_BYTES } from '../../../nodes/AirSign/helpers/constants';
import { binaryInput } from '../../harness';
import { pdf } from '../../nodes/airSign/helpers';
import { type OperationUnderTest, type Slot } from '../inputCases';
import { badFileName, fileName, junk, orBlank } from '../values';
import { slot } from './sessions';

/** A file as the previous node made it: what bytes, under which MIME type. */
export type FileGiven =
	| { kind: 'pdf'; size: number; mimeType?: string }
	| { kind: 'empty' }
	| { kind: 'truncatedHeader'; length: number }
	| { kind: 'notPdf'; text: string; mimeType?: string }
	| { kind: 'notBase64'; data: string };

function fileBytes(file: FileGiven): Buffer {
	if (file.kind === 'pdf') return pdf(file.size);
	if (file.kind === 'truncatedHeader') return Buffer.from('%PDF-'.slice(0, file.length), 'latin1');
	return file.kind === 'notPdf' ? Buffer.from(file.text, 'utf8') : Buffer.alloc(0);
}

const mimeTypes = fc.constantFrom(
	undefined,
	'application/pdf',
	'text/plain',
	'image/png',
	'application/octet-stream',
);

const fileSlot: Slot = {
	key: 'file',
	label: /binary property "data"/,
	place: () => undefined,
	binary: (value) => {
		const file = value as FileGiven;
		if (file.kind === 'notBase64')
			// Binary data whose stored base64 is not base64 (a hand-written or corrupted item).
			return { data: { data: file.data, mimeType: 'application/pdf', fileName: 'x.pdf' } };
		return {
			data: binaryInput(fileBytes(file), {
				fileName: 'input.pdf',
				mimeType: 'mimeType' in file ? file.mimeType : 'application/pdf',
			}),
		};
	},
	valid: fc.oneof(
		{
			arbitrary: fc.record({
				kind: fc.constant('pdf' as const),
				size: fc.integer({ min: 5, max: 4096 }),
				mimeType: mimeTypes,
			}),
			weight: 60,
		},
		// Exactly the limit (helpers/constants.ts): accepted.
		{ arbitrary: fc.constant<FileGiven>({ kind: 'pdf', size: MAX_UPLOAD_BYTES }), weight: 1 },
	),
	invalid: fc.oneof(
		{ arbitrary: fc.constant<FileGiven>({ kind: 'empty' }), weight: 10 },
		{
			arbitrary: fc
				.integer({ min: 1, max: 4 })
				.map((length): FileGiven => ({ kind: 'truncatedHeader', length })),
			weight: 10,
		},
		{
			arbitrary: fc
				.record({
					kind: fc.constant('notPdf' as const),
					text: fc.string({ minLength: 1, maxLength: 200 }),
					mimeType: mimeTypes,
				})
				.filter((file) => !file.text.startsWith('%PDF-')),
			weight: 10,
		},
		{
			arbitrary: fc.constantFrom<FileGiven>({ kind: 'notBase64', data: '!!! not base64 !!!' }),
			weight: 5,
		},
		// One byte over the limit: refused before the upload.
		{ arbitrary: fc.constant<FileGiven>({ kind: 'pdf', size: MAX_UPLOAD_BYTES + 1 }), weight: 1 },
	),
	// Stored base64 that is not base64 but whose readable part decodes to "%PDF-": n8n decodes it
	// leniently, so the node sees a PDF header (junk: success or a clear error).
	junk: fc.constant<FileGiven>({ kind: 'notBase64', data: 'JVBERi0%%%%' }),
};

export const upload: OperationUnderTest = {
	name: 'File Upload',
	params: { resource: 'file', operation: 'upload', binaryPropertyName: 'data' },
	slots: [
		fileSlot,
		slot('fileName', /file name|File Name/, 'fileName', {
			valid: orBlank(fileName()),
			invalid: badFileName(),
		}),
		slot('binaryPropertyName', /binary/i, 'binaryPropertyName', {
			valid: fc.constantFrom('data', ' data'.trim()),
			junk: fc.oneof(junk(), fc.constantFrom('Data', 'file', 'data ')),
		}),
	],
};
