import type { CreateTemplateInput } from './publicTypes';
import { DAY_MS as D, type Store } from './store';
import type { TemplateStore } from './templateStore';
import type { CreateSessionInput } from './types';

const H = 60 * 60 * 1000;

/** Fixed ids, so that the examples and the README can name the demo templates. */
export const DEMO_TEMPLATE_IDS = {
	employmentContract: '7d6c2f1e-4b3a-4c5d-8e9f-0a1b2c3d4e5f',
	mutualNda: '8e7d3a2f-5c4b-4d6e-9f0a-1b2c3d4e5f6a',
	contractorAgreement: '9f8e4b3a-6d5c-4e7f-a01b-2c3d4e5f6a7b',
	leaseRenewalDraft: 'a09f5c4b-7e6d-4f80-b12c-3d4e5f6a7b8c',
} as const;

/** A few templates for the demo organisation, one for the other (isolation is visible). */
export function seedDemoTemplates(
	templates: TemplateStore,
	demoOrgId: string,
	otherOrgId: string,
	now: number,
): void {
	const ago = (days: number) => now - days * D;
	const create = (input: CreateTemplateInput) =>
		templates.create({ orgId: demoOrgId, status: 'active', ...input });
	const role = (key: string, name: string, email = '') => ({ key, name, email });
	create({
		templateId: DEMO_TEMPLATE_IDS.employmentContract,
		name: 'Employment contract',
		createdAt: ago(40),
		document: {
			format: 'blocks',
			title: 'Employment Contract',
			subtitle: '{{{position}}}, starting {{{startDate}}}',
			blocks: [
				{ type: 'heading', text: 'Parties' },
				{
					type: 'paragraph',
					text: 'This contract is between Example Pty Ltd (the Employer) and {{{employeeName}}} (the Employee).',
				},
				{ type: 'heading', text: 'Position and pay' },
				{
					type: 'paragraph',
					text: 'The Employee is employed as {{{position}}} from {{{startDate}}}, at an annual salary of AUD {{{salary}}}.\nThe first {{{probationMonths}}} months are a probation period.',
				},
				{ type: 'spacer', height: 24 },
				{ type: 'signatureBlock', recipient: 'employee', label: 'Employee' },
				{ type: 'signatureBlock', recipient: 'manager', label: 'For the Employer' },
			],
		},
		recipients: [role('employee', 'Employee'), role('manager', 'HR Manager', 'hr@example.com')],
		variables: [
			{ name: 'employeeName', displayName: 'Employee name', description: 'Full legal name' },
			{ name: 'position', displayName: 'Position', defaultValue: 'Software Engineer' },
			{ name: 'startDate', displayName: 'Start date', type: 'date', description: 'First day' },
			{ name: 'salary', displayName: 'Annual salary (AUD)', type: 'number' },
			{
				name: 'probationMonths',
				displayName: 'Probation (months)',
				type: 'number',
				required: false,
				defaultValue: 3,
			},
		],
	});
	create({
		templateId: DEMO_TEMPLATE_IDS.mutualNda,
		name: 'Mutual NDA',
		createdAt: ago(30),
		document: {
			format: 'blocks',
			title: 'Mutual Non-Disclosure Agreement',
			blocks: [
				{
					type: 'paragraph',
					text: 'The parties will share confidential information for this purpose: {{{purpose}}}. This agreement takes effect on {{{effectiveDate}}}.',
				},
				{ type: 'paragraph', text: 'Neither party discloses what it receives.', muted: true },
				{ type: 'signatureBlock', recipient: 'discloser', label: 'Disclosing party' },
				{ type: 'signatureBlock', recipient: 'receiver', label: 'Receiving party' },
			],
		},
		recipients: [role('discloser', 'Discloser'), role('receiver', 'Receiver')],
		variables: [
			{ name: 'purpose', displayName: 'Purpose', description: 'Why information is shared' },
			{ name: 'effectiveDate', displayName: 'Effective date', type: 'date' },
		],
	});
	create({
		templateId: DEMO_TEMPLATE_IDS.contractorAgreement,
		name: 'Contractor agreement',
		createdAt: ago(20),
		document: {
			format: 'blocks',
			title: 'Contractor Agreement',
			blocks: [
				{
					type: 'paragraph',
					text: '{{{contractorName}}} provides services from {{{startDate}}} at AUD {{{hourlyRate}}} an hour.',
				},
				{ type: 'paragraph', text: 'Scope: {{{scopeOfWork}}}' },
				{ type: 'signatureBlock', recipient: 'contractor', label: 'Contractor' },
			],
		},
		recipients: [role('contractor', 'Contractor')],
		variables: [
			{ name: 'contractorName', displayName: 'Contractor name' },
			{ name: 'startDate', displayName: 'Start date', type: 'date' },
			{ name: 'hourlyRate', displayName: 'Hourly rate (AUD)', type: 'number' },
			{ name: 'scopeOfWork', displayName: 'Scope of work', required: false },
		],
	});
	create({
		templateId: DEMO_TEMPLATE_IDS.leaseRenewalDraft,
		name: 'Lease renewal (draft)',
		status: 'draft',
		createdAt: ago(2),
		recipients: [role('tenant', 'Tenant')],
	});
	create({ orgId: otherOrgId, name: 'Other org – template', createdAt: ago(5) });
}

/** A dozen demo sessions in every state, dated from `now`; two of the other organisation's. */
export function seedDemoData(store: Store, demoOrgId: string, otherOrgId: string, now: number) {
	const jane = { name: 'Jane Citizen', email: 'jane.citizen@example.com' };
	const raj = { name: 'Raj Patel', email: 'raj.patel@example.com' };
	const mei = { name: 'Mei Chen', email: 'mei.chen@example.com' };
	const tom = { name: 'Tom Nguyen', email: 'tom.nguyen@example.com' };
	type Row = [string, CreateSessionInput['status'], object[], number, number?, CreateSessionInput?];
	// name, status, recipients, created and updated (default: when created) that long ago, more
	const demo: Row[] = [
		['Employment contract – Jane Citizen', 'draft', [jane], 2 * H, undefined, { expiryDays: 14 }],
		['NDA – Acme Pty Ltd', 'draft', [raj, mei], 5 * H],
		['Lease renewal – 12 George St (unfinished)', 'draft', [{ name: 'Tom Nguyen' }], D],
		['Board resolution (no recipients yet)', 'draft', [], D + H],
		['Self-signed declaration', 'draft', [jane], 2 * D, undefined, { selfSignOnly: true }],
		['Contractor agreement – Raj Patel', 'pending', [raj], 3 * D, 3 * D - H, { expiryDays: 7 }],
		['Supplier terms – Mei Chen', 'pending', [mei, tom], 4 * D, 4 * D - H],
		['Partnership deed', 'inProgress', [raj, jane, mei], 6 * D, H],
		['Offer letter – Tom Nguyen', 'completed', [tom], 10 * D, 8 * D],
		['Consent form – Jane Citizen', 'completed', [jane], 12 * D, 11 * D],
		['Quote acceptance – withdrawn', 'cancelled', [mei], 15 * D, 14 * D],
		[
			'Variation agreement',
			'expired',
			[raj],
			30 * D,
			23 * D,
			{ expiryDays: 7, sentAt: now - 30 * D },
		],
	];
	for (const [name, status, recipients, created, updated, more] of demo) {
		const times = { createdAt: now - created, updatedAt: now - (updated ?? created) };
		store.createSession({ orgId: demoOrgId, name, status, recipients, ...times, ...more });
	}
	const confidential = { name: 'Other org – confidential merger', recipients: [jane] };
	store.createSession({
		orgId: otherOrgId,
		...confidential,
		status: 'pending',
		createdAt: now - D,
	});
	store.createSession({ orgId: otherOrgId, name: 'Other org – draft', createdAt: now - H });
}
