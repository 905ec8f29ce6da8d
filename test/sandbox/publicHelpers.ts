import type { Sandbox } from '../../sandbox';
import { offerTemplate } from '../nodes/airSign/offerTemplate';
import { call } from './helpers';

/** A valid block document with one signature block per key. */
export function blockDocument(keys: string[] = ['ann'], extra: Record<string, unknown> = {}) {
	return {
		format: 'blocks',
		title: 'Service agreement',
		blocks: [
			{ type: 'heading', text: 'Terms' },
			{ type: 'paragraph', text: 'We agree.' },
			...keys.map((key) => ({ type: 'signatureBlock', recipient: key, label: `Signed by ${key}` })),
		],
		...extra,
	};
}

/** A valid Create Session body: one block document, one recipient "ann". */
export function createBody(extra: Record<string, unknown> = {}) {
	return {
		name: 'Service agreement',
		files: [{ type: 'blocks', document: blockDocument() }],
		recipients: [{ key: 'ann', name: 'Ann Signer', email: 'ann@example.com' }],
		...extra,
	};
}

export const createSessionCall = (sandbox: Sandbox, json: unknown, token?: string | null) =>
	call(sandbox, 'POST', '/api/v1/Session', { json, token });

export const fromTemplateCall = (sandbox: Sandbox, json: unknown, token?: string | null) =>
	call(sandbox, 'POST', '/api/v1/SessionFromTemplate', { json, token });

export const createTemplateCall = (sandbox: Sandbox, json: unknown, token?: string | null) =>
	call(sandbox, 'POST', '/api/v1/Template', {
		json,
		token: token === undefined ? sandbox.issueToken({ scopes: ['write:templates'] }) : token,
	});

/** An active template with an "Employee" role (no email), a fixed "Manager" and two variables. */
export function activeTemplate(sandbox: Sandbox, extra: Record<string, unknown> = {}) {
	return sandbox.createTemplate(
		offerTemplate({
			name: 'Offer',
			title: 'Offer for {{{startDate}}}',
			text: 'Salary {{{salary}}} from {{{startDate}}}.',
			recipients: [
				{ key: 'employee', name: 'Employee', email: '' },
				{ key: 'manager', name: 'Manager', email: 'boss@example.com' },
			],
			variables: [
				{ name: 'startDate', displayName: 'Start date', type: 'date' },
				{ name: 'salary', type: 'number', required: false, defaultValue: 1000 },
			],
			...extra,
		}),
	);
}

export const ZONELESS = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
