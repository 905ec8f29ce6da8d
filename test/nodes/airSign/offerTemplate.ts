/** The "Offer" template fixture: the sandbox's template, and Template → Create's parameters. */
import type { INodeParameters } from 'n8n-workflow';

import type { CreateTemplateInput } from '../../../sandbox';

export interface OfferSpec extends CreateTemplateInput {
	title?: string;
	/** The document's paragraph ('' for none). */
	text?: string;
}

/** An active "Offer letter": an Employee without email, an HR Manager, four variables. */
export function offerTemplate({
	title = 'Offer: {{{position}}}',
	text = 'From {{{startDate}}} at {{{salary}}}. {{{note}}}',
	recipients = [
		{ key: 'employee', name: 'Employee', email: '' },
		{ key: 'hr', name: 'HR Manager', email: 'hr@example.com' },
	],
	variables = [
		{ name: 'position', displayName: 'Position', description: 'Job title' },
		{ name: 'startDate', displayName: 'Start date', type: 'date' },
		{ name: 'salary', displayName: 'Salary', type: 'number' },
		{ name: 'note', displayName: 'Note', required: false, defaultValue: 'Welcome' },
	],
	...rest
}: OfferSpec = {}): CreateTemplateInput & Required<Pick<CreateTemplateInput, 'document'>> {
	const paragraph = text ? [{ type: 'paragraph' as const, text }] : [];
	const signatures = recipients.map((r) => ({
		type: 'signatureBlock' as const,
		recipient: r.key!,
		label: r.name!,
	}));
	return {
		name: 'Offer letter',
		status: 'active',
		recipients,
		variables,
		document: { format: 'blocks', title, blocks: [...paragraph, ...signatures] },
		...rest,
	};
}

const toCreate = offerTemplate({
	title: 'Offer for {{{employeeName}}}',
	text: 'You start on {{{ startDate }}} at {{{salary}}}.',
	recipients: [
		{ key: 'employee', name: 'Employee', email: '{{{employeeEmail}}}' },
		{ key: 'hr', name: 'HR Manager', email: 'hr@example.com', signingOrder: 0 },
	],
	variables: [
		{ name: 'employeeName', displayName: 'Employee name', type: 'text', required: true },
		{ name: 'employeeEmail', type: 'text' },
		{ name: 'startDate', type: 'date', description: 'First day' },
		{ name: 'salary', type: 'number', required: false, defaultValue: '90000' },
	],
});
export const offerDocument = toCreate.document;

/** Template → Create's parameters for the offer: two roles, four variables. */
export const offerTemplateParams = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'template',
	operation: 'create',
	name: toCreate.name!,
	document: JSON.stringify(offerDocument),
	recipients: { recipient: toCreate.recipients! },
	variables: { variable: toCreate.variables! } as INodeParameters,
	...extra,
});
