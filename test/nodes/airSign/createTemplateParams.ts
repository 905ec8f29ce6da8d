/** Template → Create's parameters: an offer letter with two roles and four variables, shared by its tests. */
import type { INodeParameters } from 'n8n-workflow';

export const offerDocument = {
	format: 'blocks',
	title: 'Offer for {{{employeeName}}}',
	blocks: [
		{ type: 'paragraph', text: 'You start on {{{ startDate }}} at {{{salary}}}.' },
		{ type: 'signatureBlock', recipient: 'employee', label: 'Employee' },
		{ type: 'signatureBlock', recipient: 'hr', label: 'HR' },
	],
};
export const offerTemplate = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'template',
	operation: 'create',
	name: 'Offer letter',
	document: JSON.stringify(offerDocument),
	recipients: {
		recipient: [
			{ key: 'employee', name: 'Employee', email: '{{{employeeEmail}}}' },
			{ key: 'hr', name: 'HR Manager', email: 'hr@example.com', signingOrder: 0 },
		],
	},
	variables: {
		variable: [
			{ name: 'employeeName', displayName: 'Employee name', type: 'text', required: true },
			{ name: 'employeeEmail', type: 'text' },
			{ name: 'startDate', type: 'date', description: 'First day' },
			{ name: 'salary', type: 'number', required: false, defaultValue: '90000' },
		],
	},
	...extra,
});
