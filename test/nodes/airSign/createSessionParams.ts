/** Create Session's parameters and an uploaded PDF, for the tests of several operations. */
import type { INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../../sandbox';

export const ann = { name: 'Ann Signer', email: 'ann@example.com' };
export const bob = {
	name: 'Bob Witness',
	email: 'bob@example.com',
	signingOrder: 0,
	label: 'Witness',
};

export const simple = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'session',
	operation: 'create',
	name: 'Service agreement',
	documentMode: 'simple',
	title: 'Service Agreement',
	body: '# Terms\n\nThe supplier delivers.\nOn time.\n\n\nThe client pays.',
	recipients: { recipient: [ann, bob] },
	...extra,
});

export const blockDoc = (keys: string[], title = 'Agreement') => ({
	format: 'blocks',
	title,
	blocks: [
		{ type: 'paragraph', text: 'Terms.' },
		...keys.map((key) => ({ type: 'signatureBlock', recipient: key, label: key })),
	],
});
export const jsonMode = (documents: unknown, recipients: unknown, extra: INodeParameters = {}) =>
	simple({
		documentMode: 'json',
		documents: JSON.stringify(documents),
		recipientsJson: JSON.stringify(recipients),
		...extra,
	});

/** A PDF as if uploaded to the organisation: its Upload output item. */
export function uploaded(sandbox: Sandbox, name = 'terms.pdf') {
	const fileId = `${'0'.repeat(8)}-0000-4000-8000-${String(sandbox.files.size + 1).padStart(12, '0')}`;
	sandbox.files.set(fileId, {
		fileName: name,
		bytes: Buffer.from('%PDF-1.7\n'),
		orgId: 'org-demo',
	});
	return { fileId, fileName: name, fileReference: { type: 'uploadedPdf', fileId } };
}
